/**
 * Offers and reminders (issue [7/8]): marketing e-mails, sent only to addresses that said yes and
 * never unsubscribed. Each carries a visible unsubscribe link and the shop's postal address in its
 * footer (and the one-click List-Unsubscribe headers: marketing/footer.ts). Built-in templates the
 * owner can edit, preview and test like the others; new shops and existing ones get them from the
 * seed (missing templates are added at start).
 */

import { button, GREEN, MUTED, p, plainPage, productTable } from './plain-layout.js';

const footerHtml = `You get this e-mail because you said yes to offers and reminders from EcoClean. <a href="{{unsubscribeUrl}}" style="color:${MUTED};">Unsubscribe</a> with one click; order e-mails still come.<br>{{shopAddress}}`;
const page = (heading: string, body: string[]): string => plainPage(heading, body, footerHtml);

const totalRow = (total: string) =>
  `      <tr><td></td><td style="padding:12px 0;border-top:1px solid #e3ebe6;font-weight:bold;">Total today</td><td align="right" style="padding:12px 0;border-top:1px solid #e3ebe6;font-weight:bold;white-space:nowrap;">{{${total}}}</td></tr>\n`;
const priceCell = `        <td valign="top" align="right" style="padding:12px 0;border-top:1px solid #e3ebe6;white-space:nowrap;">{{price}}</td>`;

/** The cart's lines: picture, name and variant, quantity, price now; a line sold out since is marked. */
const lines = productTable(
  'cartLines',
  `        <td valign="top" style="padding:12px 0;border-top:1px solid #e3ebe6;"><strong>{{name}}</strong>{{#if variant}}<br><span style="color:${MUTED};font-size:14px;">{{variant}}</span>{{/if}}<br><span style="font-size:14px;">Qty {{quantity}}</span>{{#if soldOut}}<br><span style="color:#a33;font-size:14px;">Sold out since: not put back</span>{{/if}}</td>
${priceCell}`,
  totalRow('cartTotal'),
);

const linkNote = p(
  '<span style="font-size:14px;color:' +
    MUTED +
    ';">The button puts these items back in your cart; nothing is ordered until you check out. It works once, for {{linkDays}} days, and does not sign you in. Prices are today\'s, before shipping and tax.</span>',
);

const textLines = `{{#each cartLines}}
- {{name}}{{#if variant}} ({{variant}}){{/if}} × {{quantity}}: {{price}}{{#if soldOut}} (sold out since: not put back){{/if}}
{{/each}}
Total today: {{cartTotal}}`;

const textFooter = `
--
You get this e-mail because you said yes to offers and reminders from EcoClean.
Unsubscribe with one click (order e-mails still come): {{unsubscribeUrl}}
{{shopAddress}}
`;

const CART_VARIABLES = ['customerName', 'orderNumber', 'cartLines', 'cartTotal', 'restoreUrl', 'linkDays', 'unsubscribeUrl', 'shopAddress'];

/** The reorder reminder's lines: picture, name and variant, quantity, price now, and subscribe and save when the product offers it. */
const reorderLinesHtml = productTable(
  'reorderLines',
  `        <td valign="top" style="padding:12px 0;border-top:1px solid #e3ebe6;"><strong>{{name}}</strong>{{#if variant}}<br><span style="color:${MUTED};font-size:14px;">{{variant}}</span>{{/if}}<br><span style="font-size:14px;">Qty {{quantity}}</span>{{#if subscribeUrl}}<br><a href="{{subscribeUrl}}" style="color:${GREEN};font-size:14px;">Subscribe and save {{subscribePercent}}%</a>{{/if}}</td>
${priceCell}`,
  totalRow('reorderTotal'),
);

const REORDER_VARIABLES = [
  'customerName',
  'orderNumber',
  'orderDate',
  'reorderLines',
  'reorderTotal',
  'reorderUrl',
  'reorderLinkDays',
  'unsubscribeUrl',
  'shopAddress',
];

export const marketingEmailTemplates = [
  {
    id: 'checkout-recovery',
    name: 'Checkout Recovery',
    subject: 'Your cart is saved for you',
    variables: CART_VARIABLES,
    html: page('You left something behind', [
      p('Hi {{customerName}},'),
      p('You were nearly done at checkout. We kept your cart, so it takes one click to pick up where you left off:'),
      lines,
      button('{{restoreUrl}}', 'Back to my cart'),
      linkNote,
      p('Questions about a product or an order? Just reply to this e-mail.'),
    ]),
    text: `Hi {{customerName}},

You were nearly done at checkout. We kept your cart, so it takes one click to pick up where you left off:

${textLines}

Back to my cart: {{restoreUrl}}

The link puts these items back in your cart; nothing is ordered until you check out. It works once, for {{linkDays}} days, and does not sign you in. Prices are today's, before shipping and tax.
${textFooter}`,
  },
  {
    id: 'checkout-recovery-reminder',
    name: 'Checkout Recovery Reminder',
    subject: '{{#if couponCode}}{{discountPercent}}% off the cart you left{{else}}Still thinking it over?{{/if}}',
    variables: [...CART_VARIABLES, 'couponCode', 'discountPercent', 'couponExpiresAt'],
    html: page('Your cart is still here', [
      p('Hi {{customerName}},'),
      p('Your cart is waiting, as you left it:'),
      lines,
      `{{#if couponCode}}    <p style="margin:0 0 16px 0;padding:12px 16px;background-color:#eef6f0;border-radius:6px;">Take <strong>{{discountPercent}}% off</strong> with the code <strong style="font-family:monospace;font-size:17px;">{{couponCode}}</strong>: it is put on your cart with the button, works once, and until {{couponExpiresAt}}.</p>{{/if}}`,
      button('{{restoreUrl}}', 'Back to my cart'),
      linkNote,
    ]),
    text: `Hi {{customerName}},

Your cart is waiting, as you left it:

${textLines}
{{#if couponCode}}
Take {{discountPercent}}% off with the code {{couponCode}}: it is put on your cart with the link, works once, and until {{couponExpiresAt}}.
{{/if}}
Back to my cart: {{restoreUrl}}

The link puts these items back in your cart; nothing is ordered until you check out. It works once, for {{linkDays}} days, and does not sign you in. Prices are today's, before shipping and tax.
${textFooter}`,
  },
  {
    id: 'reorder-reminder',
    name: 'Reorder Reminder',
    subject: 'Running low? Reorder in one click',
    variables: REORDER_VARIABLES,
    html: page('Time for a refill?', [
      p('Hi {{customerName}},'),
      p(
        'It has been a while since your order #{{orderNumber}} of {{orderDate}}, so you may be running low. One click puts the same again in your cart:',
      ),
      reorderLinesHtml,
      button('{{reorderUrl}}', 'Reorder'),
      p(
        '<span style="font-size:14px;color:' +
          MUTED +
          ';">The button puts these items in your cart; nothing is ordered until you check out. It works for {{reorderLinkDays}} days and does not sign you in. Prices are today\'s, before shipping and tax. Rather not think about it again? Subscribe and save, and each delivery comes by itself.</span>',
      ),
      p('Already stocked up? Then just ignore this e-mail.'),
    ]),
    text: `Hi {{customerName}},

It has been a while since your order #{{orderNumber}} of {{orderDate}}, so you may be running low. One click puts the same again in your cart:
{{#each reorderLines}}
- {{name}}{{#if variant}} ({{variant}}){{/if}} × {{quantity}}: {{price}}{{#if subscribeUrl}}
  Subscribe and save {{subscribePercent}}%: {{subscribeUrl}}{{/if}}
{{/each}}
Total today: {{reorderTotal}}

Reorder: {{reorderUrl}}

The link puts these items in your cart; nothing is ordered until you check out. It works for {{reorderLinkDays}} days and does not sign you in. Prices are today's, before shipping and tax.

Already stocked up? Then just ignore this e-mail.
${textFooter}`,
  },
];
