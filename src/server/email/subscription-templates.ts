/**
 * The e-mails of subscriptions' renewals (issue [4/8], subscriptions/renewals.ts): the reminder
 * three days before, a payment that did not go through, a renewal waiting for stock or skipped,
 * a cancellation, and the shop's own notices. The plain layout of plain-layout.ts (default-templates.ts
 * holds the order e-mails); new shops and existing ones get them from the seed (missing templates
 * are added at start).
 */

import { GREEN, MUTED, p, plainPage as page, THANKS_FOOTER_TEXT as footer } from './plain-layout.js';

const link = (href: string, label: string): string => `<a href="${href}" style="color:${GREEN};font-weight:bold;">${label}</a>`;
const items = `    <table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse;margin:0 0 16px 0;">
      {{#each items}}<tr><td>{{name}} &times; {{quantity}}<br><span style="color:${MUTED};font-size:14px;">{{terms}}</span></td><td align="right">{{lineTotal}}</td></tr>{{/each}}
    </table>`;
const itemsText = `{{#each items}}
{{name}} x {{quantity}} ({{terms}}): {{lineTotal}}
{{/each}}`;

export const subscriptionEmailTemplates = [
  {
    id: 'subscription-renewal-reminder',
    name: 'Subscription Renewal Reminder',
    subject: 'Your next delivery: {{renewalDate}}',
    variables: ['customerName', 'renewalDate', 'items', 'total', 'manageUrl'],
    html: page('Your next delivery is coming up', [
      p('Hi {{customerName}},'),
      p(
        'Your subscription renews on <strong>{{renewalDate}}</strong>. We will charge <strong>{{total}}</strong> (with shipping and tax) to the card you saved, and send:',
      ),
      items,
      p(
        `Not needed this time? ${link('{{manageUrl}}#skip', 'Skip this delivery')}. Want it more or less often, or more of it? ${link('{{manageUrl}}#change', 'Change your subscription')}. Want to stop? ${link('{{manageUrl}}#cancel', 'Cancel your subscription')}: a click, no password needed, and nothing more is charged.`,
      ),
    ]),
    text: `Hi {{customerName}},

Your subscription renews on {{renewalDate}}. We will charge {{total}} (with shipping and tax) to the card you saved, and send:

${itemsText}
Not needed this time? Skip this delivery: {{manageUrl}}#skip
Want it more or less often, or more of it? Change your subscription: {{manageUrl}}#change
Want to stop? Cancel your subscription (a click, no password needed, and nothing more is charged): {{manageUrl}}#cancel
${footer}`,
  },
  {
    id: 'subscription-payment-failed',
    name: 'Subscription Payment Failed',
    subject: 'We could not charge your card for order #{{orderNumber}}',
    variables: ['customerName', 'orderNumber', 'total', 'reason', 'payUrl', 'manageUrl', 'nextTry'],
    html: page('Your renewal is waiting for payment', [
      p('Hi {{customerName}},'),
      p('We tried to charge <strong>{{total}}</strong> for your subscription order <strong>#{{orderNumber}}</strong>: {{reason}}'),
      p(
        `${link('{{payUrl}}', 'Pay {{total}} now')} to have it sent, or ${link('{{manageUrl}}', 'manage your subscription')} to update your card or cancel.`,
      ),
      '    {{#if nextTry}}',
      p('Otherwise we will try again on {{nextTry}}.'),
      '    {{/if}}',
    ]),
    text: `Hi {{customerName}},

We tried to charge {{total}} for your subscription order #{{orderNumber}}: {{reason}}

Pay {{total}} now to have it sent: {{payUrl}}
Manage your subscription (update your card or cancel): {{manageUrl}}
{{#if nextTry}}
Otherwise we will try again on {{nextTry}}.
{{/if}}
${footer}`,
  },
  {
    id: 'subscription-out-of-stock',
    name: 'Subscription Waiting For Stock',
    subject: 'Your delivery of {{renewalDate}} is waiting for stock',
    variables: ['customerName', 'renewalDate', 'missing', 'skipDate', 'manageUrl'],
    html: page('Your delivery is waiting for stock', [
      p('Hi {{customerName}},'),
      p('Your subscription was due on {{renewalDate}}, but {{missing}} is out of stock. <strong>Nothing has been charged.</strong>'),
      p(
        'We will send it and charge you as soon as it is back. If it is not back by {{skipDate}}, we skip this delivery and your subscription carries on as usual.',
      ),
      p(link('{{manageUrl}}', 'Manage your subscription')),
    ]),
    text: `Hi {{customerName}},

Your subscription was due on {{renewalDate}}, but {{missing}} is out of stock. Nothing has been charged.

We will send it and charge you as soon as it is back. If it is not back by {{skipDate}}, we skip this delivery and your subscription carries on as usual.

Manage your subscription: {{manageUrl}}
${footer}`,
  },
  {
    id: 'subscription-skipped',
    name: 'Subscription Delivery Skipped',
    subject: 'Your delivery of {{renewalDate}} was skipped',
    variables: ['customerName', 'renewalDate', 'reason', 'nextRenewal', 'manageUrl'],
    html: page('This delivery was skipped', [
      p('Hi {{customerName}},'),
      p('Your delivery due on {{renewalDate}} was skipped: {{reason}} Nothing was charged for it.'),
      p('Your next delivery is due on <strong>{{nextRenewal}}</strong>.'),
      p(link('{{manageUrl}}', 'Manage your subscription')),
    ]),
    text: `Hi {{customerName}},

Your delivery due on {{renewalDate}} was skipped: {{reason}} Nothing was charged for it.

Your next delivery is due on {{nextRenewal}}.

Manage your subscription: {{manageUrl}}
${footer}`,
  },
  {
    id: 'subscription-changed',
    name: 'Subscription Changed',
    subject: 'Your subscription is changed: {{terms}}',
    variables: ['customerName', 'terms', 'appliesFrom', 'items', 'total', 'manageUrl'],
    html: page('Your subscription is changed', [
      p('Hi {{customerName}},'),
      p('From your delivery of <strong>{{appliesFrom}}</strong>, your subscription is <strong>{{terms}}</strong> and brings:'),
      items,
      p('At today&rsquo;s prices each delivery comes to <strong>{{total}}</strong> (with shipping and tax).'),
      p(`Not what you meant? ${link('{{manageUrl}}', 'Manage your subscription')}: change it again, skip a delivery or cancel.`),
    ]),
    text: `Hi {{customerName}},

From your delivery of {{appliesFrom}}, your subscription is {{terms}} and brings:

${itemsText}
At today's prices each delivery comes to {{total}} (with shipping and tax).

Not what you meant? Manage your subscription (change it again, skip a delivery or cancel): {{manageUrl}}
${footer}`,
  },
  {
    id: 'subscription-paused',
    name: 'Subscription Paused',
    subject: 'Your subscription is paused until {{resumeDate}}',
    variables: ['customerName', 'terms', 'resumeDate', 'manageUrl'],
    html: page('Your subscription is paused', [
      p('Hi {{customerName}},'),
      p(
        'Your subscription ({{terms}}) is paused: nothing is charged or sent until then. Deliveries start again on <strong>{{resumeDate}}</strong>, and we remind you three days before.',
      ),
      p(`Need it sooner, or later? ${link('{{manageUrl}}', 'Manage your subscription')}: resume it now, change the date or cancel.`),
    ]),
    text: `Hi {{customerName}},

Your subscription ({{terms}}) is paused: nothing is charged or sent until then. Deliveries start again on {{resumeDate}}, and we remind you three days before.

Need it sooner, or later? Manage your subscription (resume it now, change the date or cancel): {{manageUrl}}
${footer}`,
  },
  {
    id: 'subscription-cancelled',
    name: 'Subscription Cancelled',
    subject: 'Your subscription is cancelled',
    variables: ['customerName', 'items', 'cancelledAt'],
    html: page('Your subscription is cancelled', [
      p('Hi {{customerName}},'),
      p('As you asked on {{cancelledAt}}, your subscription is cancelled. Nothing more will be charged or sent for it:'),
      items,
      p('You can subscribe again from any product page whenever you like.'),
    ]),
    text: `Hi {{customerName}},

As you asked on {{cancelledAt}}, your subscription is cancelled. Nothing more will be charged or sent for it:

${itemsText}
You can subscribe again from any product page whenever you like.
${footer}`,
  },
  {
    id: 'subscription-next-delivery',
    name: 'Subscription: Next Delivery Changed',
    subject: 'Your next delivery on {{deliveryDate}} is changed',
    variables: ['customerName', 'deliveryDate', 'change', 'items', 'total', 'manageUrl'],
    html: page('Your next delivery is changed', [
      p('Hi {{customerName}},'),
      p('{{change}} Your delivery of <strong>{{deliveryDate}}</strong> now brings:'),
      items,
      p('At today&rsquo;s prices it comes to <strong>{{total}}</strong> (with shipping and tax). The deliveries after it are as before.'),
      p(`Not what you meant? ${link('{{manageUrl}}', 'Manage your subscription')}.`),
    ]),
    text: `Hi {{customerName}},

{{change}} Your delivery of {{deliveryDate}} now brings:

${itemsText}
At today's prices it comes to {{total}} (with shipping and tax). The deliveries after it are as before.

Not what you meant? Manage your subscription: {{manageUrl}}
${footer}`,
  },
  {
    id: 'subscription-reactivated',
    name: 'Subscription Reactivated',
    subject: 'Your subscription is back: {{terms}}',
    variables: ['customerName', 'terms', 'deliveryDate', 'items', 'total', 'consentText', 'manageUrl'],
    html: page('Your subscription is back', [
      p('Hi {{customerName}},'),
      p('Welcome back. Your subscription (<strong>{{terms}}</strong>) renews again, from <strong>{{deliveryDate}}</strong>, and brings:'),
      items,
      p('At today&rsquo;s prices each delivery comes to <strong>{{total}}</strong> (with shipping and tax), charged to the card on file.'),
      p('You agreed to: {{consentText}}'),
      p(`${link('{{manageUrl}}', 'Manage your subscription')}: skip, change, pause or cancel at any time.`),
    ]),
    text: `Hi {{customerName}},

Welcome back. Your subscription ({{terms}}) renews again, from {{deliveryDate}}, and brings:

${itemsText}
At today's prices each delivery comes to {{total}} (with shipping and tax), charged to the card on file.

You agreed to: {{consentText}}

Manage your subscription (skip, change, pause or cancel at any time): {{manageUrl}}
${footer}`,
  },
  {
    id: 'subscription-card-updated',
    name: 'Subscription Card Updated',
    subject: 'Your subscription now uses your {{cardBrand}} ending {{cardLast4}}',
    variables: ['customerName', 'terms', 'cardBrand', 'cardLast4', 'retryNote', 'manageUrl'],
    html: page('Your card is updated', [
      p('Hi {{customerName}},'),
      p(
        'Your subscription ({{terms}}) will be charged to your <strong>{{cardBrand}} ending {{cardLast4}}</strong> from now on. Nothing was charged for the change.',
      ),
      '    {{#if retryNote}}',
      p('{{retryNote}}'),
      '    {{/if}}',
      p(`Not you, or not what you meant? ${link('{{manageUrl}}', 'Manage your subscription')}, or reply to this e-mail.`),
    ]),
    text: `Hi {{customerName}},

Your subscription ({{terms}}) will be charged to your {{cardBrand}} ending {{cardLast4}} from now on. Nothing was charged for the change.
{{#if retryNote}}

{{retryNote}}
{{/if}}

Not you, or not what you meant? Manage your subscription, or reply to this e-mail: {{manageUrl}}
${footer}`,
  },
  {
    id: 'subscription-price-change',
    name: 'Subscription Price Change',
    subject: 'Your subscription’s price changes from your delivery of {{effectiveDate}}',
    variables: ['customerName', 'noticeDate', 'effectiveDate', 'priceChanges', 'priceNote', 'manageUrl'],
    html: page('A price change on your subscription', [
      p('Hi {{customerName}},'),
      p(
        'We are writing on {{noticeDate}}, before it applies: from your delivery of <strong>{{effectiveDate}}</strong> on, your subscription is charged per delivery (before shipping and tax):',
      ),
      `    <table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse;margin:0 0 16px 0;">
      {{#each priceChanges}}<tr><td>{{name}} &times; {{quantity}}</td><td align="right"><strong>{{newPrice}}</strong> <span style="color:${MUTED};">(was {{oldPrice}})</span></td></tr>{{/each}}
    </table>`,
      p('{{priceNote}}'),
      p(
        `Not what you want? Before {{effectiveDate}} you can ${link('{{manageUrl}}#skip', 'skip a delivery')}, ${link('{{manageUrl}}#change', 'change your subscription')} or ${link('{{manageUrl}}#cancel', 'cancel it')}: a click, no password needed.`,
      ),
    ]),
    text: `Hi {{customerName}},

We are writing on {{noticeDate}}, before it applies: from your delivery of {{effectiveDate}} on, your subscription is charged per delivery (before shipping and tax):

{{#each priceChanges}}
{{name}} x {{quantity}}: {{newPrice}} (was {{oldPrice}})
{{/each}}

{{priceNote}}

Not what you want? Before {{effectiveDate}} you can:
Skip a delivery: {{manageUrl}}#skip
Change your subscription: {{manageUrl}}#change
Cancel it (a click, no password needed): {{manageUrl}}#cancel
${footer}`,
  },
  {
    id: 'subscription-address-changed',
    name: 'Subscription: Address Changed',
    subject: 'Your subscription now ships to {{city}}',
    variables: ['customerName', 'terms', 'address', 'city', 'appliesFrom', 'manageUrl'],
    html: page('Your shipping address is changed', [
      p('Hi {{customerName}},'),
      p('From your delivery of <strong>{{appliesFrom}}</strong>, your subscription ({{terms}}) ships to:'),
      p('<strong>{{address}}</strong>'),
      p(`Not right? ${link('{{manageUrl}}', 'Manage your subscription')} and change it again.`),
    ]),
    text: `Hi {{customerName}},

From your delivery of {{appliesFrom}}, your subscription ({{terms}}) ships to:

{{address}}

Not right? Manage your subscription and change it again: {{manageUrl}}
${footer}`,
  },
  {
    id: 'shop-subscription-alert',
    name: 'Shop: Subscription Needs Attention',
    subject: 'Subscription of {{customerEmail}}: {{headline}}',
    variables: ['customerEmail', 'headline', 'detail', 'adminUrl'],
    html: page('{{headline}}', [p('Subscription of {{customerEmail}}: {{detail}}'), p(link('{{adminUrl}}', 'Open the back office'))]),
    text: `Subscription of {{customerEmail}}: {{headline}}

{{detail}}

Open the back office: {{adminUrl}}
`,
  },
];
