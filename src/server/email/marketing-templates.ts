/**
 * Offers and reminders (issue [7/8]): marketing e-mails, sent only to addresses that said yes and
 * never unsubscribed. Each carries a visible unsubscribe link and the shop's postal address in its
 * footer (and the one-click List-Unsubscribe headers: marketing/footer.ts). Built-in templates the
 * owner can edit, preview and test like the others; new shops and existing ones get them from the
 * seed (missing templates are added at start).
 */

const GREEN = '#2f7d4a';
const MUTED = '#5b6b61';

const page = (heading: string, body: string[]): string =>
  `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title></head>
<body style="margin:0;padding:24px 12px;background-color:#f3f6f4;font-family:Arial,Helvetica,sans-serif;color:#24382c;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;margin:0 auto;background-color:#ffffff;border-radius:8px;">
  <tr><td style="background-color:${GREEN};padding:20px 32px;font-size:24px;font-weight:bold;color:#ffffff;">EcoClean</td></tr>
  <tr><td style="padding:32px;font-size:16px;line-height:1.5;">
    <h1 style="margin:0 0 16px 0;font-size:22px;color:${GREEN};">${heading}</h1>
${body.join('\n')}
  </td></tr>
  <tr><td style="padding:20px 32px;background-color:#f7faf8;font-size:13px;color:${MUTED};">You get this e-mail because you said yes to offers and reminders from EcoClean. <a href="{{unsubscribeUrl}}" style="color:${MUTED};">Unsubscribe</a> with one click; order e-mails still come.<br>{{shopAddress}}</td></tr>
</table>
</body>
</html>`;

const p = (html: string): string => `    <p style="margin:0 0 16px 0;">${html}</p>`;

/** The cart's lines: picture, name and variant, quantity, price now; a line sold out since is marked. */
const lines = `    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 16px 0;">
      {{#each cartLines}}<tr>
        <td width="76" valign="top" style="padding:12px 12px 12px 0;border-top:1px solid #e3ebe6;">{{#if image}}<img src="{{image}}" width="64" height="64" alt="{{name}}" style="display:block;width:64px;height:64px;object-fit:cover;border-radius:6px;border:0;">{{/if}}</td>
        <td valign="top" style="padding:12px 0;border-top:1px solid #e3ebe6;"><strong>{{name}}</strong>{{#if variant}}<br><span style="color:${MUTED};font-size:14px;">{{variant}}</span>{{/if}}<br><span style="font-size:14px;">Qty {{quantity}}</span>{{#if soldOut}}<br><span style="color:#a33;font-size:14px;">Sold out since: not put back</span>{{/if}}</td>
        <td valign="top" align="right" style="padding:12px 0;border-top:1px solid #e3ebe6;white-space:nowrap;">{{price}}</td>
      </tr>{{/each}}
      <tr><td></td><td style="padding:12px 0;border-top:1px solid #e3ebe6;font-weight:bold;">Total today</td><td align="right" style="padding:12px 0;border-top:1px solid #e3ebe6;font-weight:bold;white-space:nowrap;">{{cartTotal}}</td></tr>
    </table>`;

const button = (label: string) =>
  `    <p style="margin:0 0 16px 0;"><a href="{{restoreUrl}}" style="display:inline-block;padding:12px 24px;background-color:${GREEN};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">${label}</a></p>`;

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
const reorderLinesHtml = `    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 16px 0;">
      {{#each reorderLines}}<tr>
        <td width="76" valign="top" style="padding:12px 12px 12px 0;border-top:1px solid #e3ebe6;">{{#if image}}<img src="{{image}}" width="64" height="64" alt="{{name}}" style="display:block;width:64px;height:64px;object-fit:cover;border-radius:6px;border:0;">{{/if}}</td>
        <td valign="top" style="padding:12px 0;border-top:1px solid #e3ebe6;"><strong>{{name}}</strong>{{#if variant}}<br><span style="color:${MUTED};font-size:14px;">{{variant}}</span>{{/if}}<br><span style="font-size:14px;">Qty {{quantity}}</span>{{#if subscribeUrl}}<br><a href="{{subscribeUrl}}" style="color:${GREEN};font-size:14px;">Subscribe and save {{subscribePercent}}%</a>{{/if}}</td>
        <td valign="top" align="right" style="padding:12px 0;border-top:1px solid #e3ebe6;white-space:nowrap;">{{price}}</td>
      </tr>{{/each}}
      <tr><td></td><td style="padding:12px 0;border-top:1px solid #e3ebe6;font-weight:bold;">Total today</td><td align="right" style="padding:12px 0;border-top:1px solid #e3ebe6;font-weight:bold;white-space:nowrap;">{{reorderTotal}}</td></tr>
    </table>`;

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
      button('Back to my cart'),
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
      button('Back to my cart'),
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
      `    <p style="margin:0 0 16px 0;"><a href="{{reorderUrl}}" style="display:inline-block;padding:12px 24px;background-color:${GREEN};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">Reorder</a></p>`,
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
