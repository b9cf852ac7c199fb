// Built-in e-mail templates. Rendered with Handlebars: `{{var}}` is HTML-escaped, and every
// variable is drawn with double braces. Line items, tracking and addresses arrive as data
// (src/server/email/order-email-variables.ts) and are drawn here with `{{#each}}` / `{{#if}}`.
// Changing a built-in text here reaches new shops only: an existing shop's unedited copy is
// renewed by a migration that carries its own frozen copy of the text (see 0015-template-blocks).

import { loyaltyRuleText } from '../../shared/shop-facts.js';
import { subscriptionEmailTemplates } from './subscription-templates.js';
import { reviewEmailTemplates } from './review-templates.js';
import { marketingEmailTemplates } from './marketing-templates.js';

type DefaultEmailTemplate = {
  id: string;
  name: string;
  subject: string;
  html: string;
  text: string;
  variables: string[];
};

const BRAND = 'EcoClean';
const GREEN = '#2f7d4a';

/** Wraps body HTML in a simple, table-based, inline-styled e-mail layout. */
const layout = (preheader: string, heading: string, body: string): string =>
  `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f6f4;">
<div style="display:none;max-height:0;overflow:hidden;">${preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f6f4;">
  <tr>
    <td align="center" style="padding:24px 12px;">
      <table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;overflow:hidden;font-family:Arial,Helvetica,sans-serif;color:#24382c;">
        <tr>
          <td style="background-color:${GREEN};padding:20px 32px;">
            <span style="font-size:24px;font-weight:bold;color:#ffffff;letter-spacing:0.5px;">${BRAND}</span>
          </td>
        </tr>
        <tr>
          <td style="padding:32px;font-size:16px;line-height:1.5;">
            <h1 style="margin:0 0 16px 0;font-size:22px;line-height:1.3;color:${GREEN};">${heading}</h1>
${body}
          </td>
        </tr>
        <tr>
          <td style="padding:20px 32px;background-color:#f7faf8;border-top:1px solid #e3ebe6;font-size:13px;line-height:1.5;color:#5b6b61;">
            Thank you for choosing ${BRAND}.<br>
            Questions? Just reply to this e-mail and we will be happy to help.
          </td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>`;

const p = (html: string): string => `            <p style="margin:0 0 16px 0;">${html}</p>`;

const button = (href: string, label: string): string =>
  `            <table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px 0;">
              <tr>
                <td style="background-color:${GREEN};border-radius:6px;">
                  <a href="${href}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;">${label}</a>
                </td>
              </tr>
            </table>`;

const addressBlock = (label: string): string =>
  `            <p style="margin:0 0 4px 0;font-weight:bold;">${label}</p>
            <p style="margin:0 0 16px 0;">{{#each shippingAddressLines}}{{#unless @first}}<br>{{/unless}}{{this}}{{/each}}</p>`;

/** The address in a text body, one line each. */
const addressText = `{{#each shippingAddressLines}}
{{this}}
{{/each}}`;

const totalsRow = (label: string, value: string, bold = false): string =>
  `              <tr>
                <td style="padding:4px 0;${bold ? 'font-weight:bold;border-top:1px solid #e3ebe6;padding-top:8px;' : ''}">${label}</td>
                <td align="right" style="padding:4px 0;${bold ? 'font-weight:bold;border-top:1px solid #e3ebe6;padding-top:8px;' : ''}">${value}</td>
              </tr>`;

const textFooter = `\n--\nThank you for choosing ${BRAND}.\nQuestions? Just reply to this e-mail and we will be happy to help.\n`;

/**
 * Where the status e-mail sends its reader to see the order (order-email-variables.ts's
 * orderLinkOf): a guest has no account, so their order's own page; an account holder, their orders.
 * Migration 0035 gives a never-edited stored template the same lines.
 */
export const ORDER_LINK_HTML = `            {{#if guestOrder}}
${p(`You can see your order at any time on <a href="{{orderUrl}}" style="color:${GREEN};">its page</a>.`)}
            {{else}}
${p(`You can also check your order status at any time from <a href="{{orderUrl}}" style="color:${GREEN};">your account</a>.`)}
            {{/if}}`;
export const ORDER_LINK_TEXT = `{{#if guestOrder}}
You can see your order at any time on its page: {{orderUrl}}
{{else}}
You can also check your order status at any time from your account: {{orderUrl}}
{{/if}}`;

/**
 * The confirmation's subscription block (issue [4/8]), drawn only for an order that started one
 * (`subscriptionTerms` is empty otherwise): the terms the shopper ticked, word for word, a note for
 * a guest whose account was made for them, a link to manage every subscription from the account,
 * and each subscription's own link to manage or cancel it without signing in. Migration 0042 adds
 * the same lines to a stored copy of the template (it carries its own frozen copy of them).
 */
export const SUBSCRIPTION_BLOCK_HTML = `            {{#if subscriptionTerms}}
            <h2 style="margin:24px 0 8px 0;font-size:18px;line-height:1.3;color:${GREEN};">Your subscription</h2>
            {{#each subscriptionTerms}}
            <p style="margin:0 0 12px 0;">{{this}}</p>
            {{/each}}
            {{#if subscriptionAccountNote}}
            <p style="margin:0 0 12px 0;">{{subscriptionAccountNote}}</p>
            {{/if}}
            <p style="margin:0 0 12px 0;">Manage your subscriptions any time from <a href="{{subscriptionManageUrl}}" style="color:${GREEN};">your account</a>.</p>
            {{#each subscriptionCancelLinks}}
            <p style="margin:0 0 16px 0;">{{label}}: <a href="{{url}}" style="color:${GREEN};">cancel this subscription</a> (or change it), no sign-in needed.</p>
            {{/each}}
            {{/if}}`;
export const SUBSCRIPTION_BLOCK_TEXT = `{{#if subscriptionTerms}}
Your subscription
{{#each subscriptionTerms}}
{{this}}
{{/each}}
{{#if subscriptionAccountNote}}
{{subscriptionAccountNote}}
{{/if}}
Manage your subscriptions any time from your account: {{subscriptionManageUrl}}
{{#each subscriptionCancelLinks}}
{{label}}, cancel this subscription (or change it), no sign-in needed: {{url}}
{{/each}}

{{/if}}`;

export const defaultEmailTemplates: DefaultEmailTemplate[] = [
  {
    id: 'order-confirmation',
    name: 'Order Confirmation',
    subject: 'Order Confirmation - #{{orderNumber}}',
    variables: [
      'orderNumber',
      'customerName',
      'items',
      'subtotal',
      'discount',
      'shipping',
      'tax',
      'total',
      'shippingAddressLines',
      'orderUrl',
      'shippingMethod',
      'deliveryEstimate',
      'subscriptionTerms',
      'subscriptionAccountNote',
      'subscriptionManageUrl',
      'subscriptionCancelLinks',
    ],
    html: layout(
      'Thank you for your order #{{orderNumber}}.',
      'Thank you for your order!',
      [
        p('Hi {{customerName}},'),
        p('We have received your order <strong>#{{orderNumber}}</strong> and are getting it ready. Here is a summary:'),
        `            <table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">
              {{#each items}}
              <tr><td>{{name}}{{#if isFreeGift}} (Free Gift){{/if}} &times; {{quantity}}</td><td align="right">{{lineTotal}}</td></tr>
              {{/each}}
            </table>`,
        `            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:16px 0 24px 0;font-size:15px;">
${totalsRow('Subtotal', '{{subtotal}}')}
${totalsRow('Discount', '{{discount}}')}
${totalsRow('Shipping', '{{shipping}}')}
${totalsRow('Tax', '{{tax}}')}
${totalsRow('Total', '{{total}}', true)}
            </table>`,
        addressBlock('Shipping to:'),
        '            {{#if shippingMethod}}',
        p('Shipping method: <strong>{{shippingMethod}}</strong>{{#if deliveryEstimate}} (estimated delivery: {{deliveryEstimate}}){{/if}}'),
        '            {{/if}}',
        SUBSCRIPTION_BLOCK_HTML,
        p('We will send you another e-mail as soon as your order ships.'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

Thank you for your order! We have received order #{{orderNumber}} and are getting it ready.

Items:
{{#each items}}
{{name}} x {{quantity}}  {{lineTotal}}
{{/each}}

Subtotal: {{subtotal}}
Discount: {{discount}}
Shipping: {{shipping}}
Tax: {{tax}}
Total: {{total}}

Shipping to:
${addressText}

{{#if shippingMethod}}
Shipping method: {{shippingMethod}}{{#if deliveryEstimate}} (estimated delivery: {{deliveryEstimate}}){{/if}}

{{/if}}
${SUBSCRIPTION_BLOCK_TEXT}
We will send you another e-mail as soon as your order ships.
${textFooter}`,
  },
  {
    id: 'order-status-update',
    name: 'Order Status Update',
    subject: 'Order #{{orderNumber}} is now {{status}}',
    variables: ['orderNumber', 'orderReference', 'customerName', 'status', 'tracking', 'shippingAddressLines', 'guestOrder', 'orderUrl'],
    html: layout(
      'Your order #{{orderNumber}} is now {{status}}.',
      'Your order has been updated',
      [
        p('Hi {{customerName}},'),
        p('The status of your order <strong>#{{orderNumber}}</strong> is now: <strong>{{status}}</strong>.'),
        // The brand code is the order's reference: no carrier knows it. Tracking is a carrier's number only.
        `            {{#if orderReference}}
${p('Order reference: <strong>{{orderReference}}</strong>')}
            {{/if}}`,
        `            {{#if tracking}}
            <p>{{#if tracking.carrier}}Carrier: <strong>{{tracking.carrier}}</strong><br>{{/if}}Tracking number: <strong>{{tracking.number}}</strong>{{#if tracking.url}}<br><a href="{{tracking.url}}">Track your package on the {{tracking.carrier}} website</a>{{/if}}</p>
            {{/if}}`,
        addressBlock('Shipping address:'),
        ORDER_LINK_HTML,
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

The status of your order #{{orderNumber}} is now: {{status}}.
{{#if orderReference}}
Order reference: {{orderReference}}
{{/if}}

{{#if tracking}}
{{#if tracking.carrier}}
Carrier: {{tracking.carrier}}
{{/if}}
Tracking number: {{tracking.number}}
{{#if tracking.url}}
Track your package: {{tracking.url}}
{{/if}}
{{/if}}

Shipping address:
${addressText}

${ORDER_LINK_TEXT}
${textFooter}`,
  },
  {
    id: 'shipping-notification',
    name: 'Shipping Notification',
    subject: 'Your order #{{orderNumber}} has shipped',
    variables: ['orderNumber', 'customerName', 'tracking', 'shippingAddressLines'],
    html: layout(
      'Good news: order #{{orderNumber}} is on its way.',
      'Your order is on its way',
      [
        p('Hi {{customerName}},'),
        p('Good news: your order <strong>#{{orderNumber}}</strong> has shipped.'),
        `            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px 0;background-color:#eef6f1;border-radius:6px;">
              <tr>
                <td style="padding:16px;font-size:15px;">
                  {{#if tracking.carrier}}Carrier: <strong>{{tracking.carrier}}</strong><br>{{/if}}
                  Tracking number:<br>
                  <strong style="font-size:18px;letter-spacing:0.5px;">{{tracking.number}}</strong>
                  {{#if tracking.url}}<br><a href="{{tracking.url}}" style="display:inline-block;margin-top:12px;color:${GREEN};font-weight:bold;">Track your package on the {{tracking.carrier}} website</a>{{/if}}
                </td>
              </tr>
            </table>`,
        addressBlock('Shipping to:'),
        p('Tracking details can take up to a day to appear on the carrier website.'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

Good news: your order #{{orderNumber}} has shipped.

{{#if tracking.carrier}}Carrier: {{tracking.carrier}}
{{/if}}Tracking number: {{tracking.number}}
{{#if tracking.url}}Track your package: {{tracking.url}}
{{/if}}
Shipping to:
${addressText}

Tracking details can take up to a day to appear on the carrier website.
${textFooter}`,
  },
  {
    id: 'order-refunded',
    name: 'Order Refunded',
    subject: 'Refund of {{refundAmount}} for order #{{orderNumber}}',
    variables: ['orderNumber', 'customerName', 'refundAmount', 'refundedTotal', 'total', 'refundKind'],
    html: layout(
      'We have refunded {{refundAmount}} for order #{{orderNumber}}.',
      'Your refund is on its way',
      [
        p('Hi {{customerName}},'),
        p('We have refunded <strong>{{refundAmount}}</strong> of your order <strong>#{{orderNumber}}</strong> ({{refundKind}}).'),
        `            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px 0;">
${totalsRow('This refund', '{{refundAmount}}')}
${totalsRow('Refunded in all', '{{refundedTotal}}')}
${totalsRow('Order total', '{{total}}', true)}
            </table>`,
        p(
          'The money goes back to the card you paid with. Depending on your bank, it can take 5 to 10 business days to appear on your statement.',
        ),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

We have refunded {{refundAmount}} of your order #{{orderNumber}} ({{refundKind}}).

This refund: {{refundAmount}}
Refunded in all: {{refundedTotal}}
Order total: {{total}}

The money goes back to the card you paid with. Depending on your bank, it can take 5 to 10 business days to appear on your statement.
${textFooter}`,
  },
  {
    id: 'order-cancelled',
    name: 'Order Cancelled',
    subject: 'Order #{{orderNumber}} has been cancelled',
    variables: ['orderNumber', 'customerName', 'moneyLine', 'shippingAddressLines'],
    html: layout(
      'Your order #{{orderNumber}} has been cancelled.',
      'Your order has been cancelled',
      [
        p('Hi {{customerName}},'),
        p('Your order <strong>#{{orderNumber}}</strong> has been cancelled.'),
        p('<strong>{{moneyLine}}</strong>'),
        p('If you did not expect this, just reply to this e-mail.'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

Your order #{{orderNumber}} has been cancelled.

{{moneyLine}}

If you did not expect this, just reply to this e-mail.
${textFooter}`,
  },
  {
    id: 'order-payment-link',
    name: 'Order Payment Link',
    subject: 'Pay {{total}} for order #{{orderNumber}}',
    variables: ['orderNumber', 'customerName', 'total', 'payUrl', 'expiresAt', 'items', 'shippingAddressLines'],
    html: layout(
      'Your order #{{orderNumber}} is ready to be paid: {{total}}.',
      'Your order is ready to be paid',
      [
        p('Hi {{customerName}},'),
        p('Here is your order <strong>#{{orderNumber}}</strong>. You can pay <strong>{{total}}</strong> by card with the button below.'),
        `            {{#if items.length}}
            <table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">
              {{#each items}}
              <tr><td>{{name}} &times; {{quantity}}</td><td align="right">{{lineTotal}}</td></tr>
              {{/each}}
            </table>
            {{/if}}`,
        button('{{payUrl}}', 'Pay {{total}}'),
        p('The link works until {{expiresAt}}. If it has run out, reply to this e-mail and we will send a new one.'),
        addressBlock('Shipping to:'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

Here is your order #{{orderNumber}}. You can pay {{total}} by card here:
{{payUrl}}

{{#each items}}
{{name}} x {{quantity}}: {{lineTotal}}
{{/each}}

The link works until {{expiresAt}}. If it has run out, reply to this e-mail and we will send a new one.

Shipping to:
${addressText}
${textFooter}`,
  },
  {
    id: 'welcome',
    name: 'Welcome',
    subject: 'Welcome to EcoClean, {{customerName}}!',
    variables: ['customerName', 'shopUrl'],
    html: layout(
      'Thanks for creating your EcoClean account.',
      'Welcome to EcoClean!',
      [
        p('Hi {{customerName}},'),
        p(
          'Thanks for creating an account. You can now track your orders, save your shipping address and earn loyalty points on every purchase.',
        ),
        // The loyalty rule from its constants, saying which figure counts (the total), as the loyalty card does.
        p(loyaltyRuleText()),
        button('{{shopUrl}}', 'Start shopping'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

Welcome to EcoClean! Thanks for creating an account. You can now track your orders, save your shipping address and earn loyalty points on every purchase.

${loyaltyRuleText()}

Start shopping: {{shopUrl}}
${textFooter}`,
  },
  {
    id: 'verify-email',
    name: 'Verify Email',
    subject: 'Verify your EcoClean email address',
    variables: ['customerName', 'verifyUrl', 'expiresInHours'],
    html: layout(
      'Confirm that this address is yours.',
      'Verify your email address',
      [
        p('Hi {{customerName}},'),
        p(
          'Please confirm that this email address belongs to you. Once it is verified, orders you placed as a guest with this address appear in your account.',
        ),
        button('{{verifyUrl}}', 'Verify email address'),
        p('This link expires in {{expiresInHours}} hours and can only be used once.'),
        p('If you did not create an EcoClean account, you can ignore this e-mail.'),
        `            <p style="margin:0;font-size:13px;color:#5b6b61;word-break:break-all;">If the button does not work, copy this link into your browser:<br>{{verifyUrl}}</p>`,
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

Please confirm that this email address belongs to you. Once it is verified, orders you placed as a guest with this address appear in your account.

Verify your email address: {{verifyUrl}}

This link expires in {{expiresInHours}} hours and can only be used once.

If you did not create an EcoClean account, you can ignore this e-mail.
${textFooter}`,
  },
  {
    id: 'password-reset',
    name: 'Password Reset',
    subject: 'Reset your EcoClean password',
    variables: ['customerName', 'resetUrl', 'expiresInMinutes'],
    html: layout(
      'Use this link to reset your password.',
      'Reset your password',
      [
        p('Hi {{customerName}},'),
        p('We received a request to reset the password for your account. Click the button below to choose a new one.'),
        button('{{resetUrl}}', 'Reset password'),
        p('This link expires in {{expiresInMinutes}} minutes and can only be used once.'),
        p('If you did not ask to reset your password, you can ignore this e-mail; your password will not change.'),
        `            <p style="margin:0;font-size:13px;color:#5b6b61;word-break:break-all;">If the button does not work, copy this link into your browser:<br>{{resetUrl}}</p>`,
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

We received a request to reset the password for your account. Open this link to choose a new one:

{{resetUrl}}

This link expires in {{expiresInMinutes}} minutes and can only be used once.

If you did not ask to reset your password, you can ignore this e-mail; your password will not change.
${textFooter}`,
  },
  {
    id: 'sign-in-link',
    name: 'Sign-in Link',
    subject: 'Sign in to EcoClean on a new device',
    variables: ['customerName', 'signInUrl', 'expiresInMinutes'],
    html: layout(
      'Use this link to let a new device sign in to your account.',
      'Sign in on a new device',
      [
        p('Hi {{customerName}},'),
        p(
          'Someone asked for a link that lets a new device sign in to your EcoClean account. Open it in the browser you want to sign in with; then sign in with your password as usual.',
        ),
        button('{{signInUrl}}', 'Use this device'),
        p('This link works once, within {{expiresInMinutes}} minutes. It does not sign you in by itself: your password is still needed.'),
        p('If you did not ask for it, you can ignore this e-mail. Your account stays as it is.'),
        `            <p style="margin:0;font-size:13px;color:#5b6b61;word-break:break-all;">If the button does not work, copy this link into your browser:<br>{{signInUrl}}</p>`,
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

Someone asked for a link that lets a new device sign in to your EcoClean account. Open it in the browser you want to sign in with; then sign in with your password as usual:

{{signInUrl}}

This link works once, within {{expiresInMinutes}} minutes. It does not sign you in by itself: your password is still needed.

If you did not ask for it, you can ignore this e-mail. Your account stays as it is.
${textFooter}`,
  },
  {
    id: 'email-changed',
    name: 'Email Changed',
    subject: 'Your EcoClean email address was changed',
    variables: ['customerName', 'newEmail', 'contactUrl'],
    html: layout(
      'The email address of your EcoClean account was changed.',
      'Your email address was changed',
      [
        p('Hi {{customerName}},'),
        p('The email address of your EcoClean account was just changed to <strong>{{newEmail}}</strong>.'),
        p(
          'From now on you sign in, reset your password and receive order updates with the new address. We sent this message to your previous address so that you know about the change.',
        ),
        p(
          'If you made this change, you do not need to do anything. If you did not, contact us right away so that we can secure your account.',
        ),
        button('{{contactUrl}}', 'Contact us'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

The email address of your EcoClean account was just changed to {{newEmail}}.

From now on you sign in, reset your password and receive order updates with the new address. We sent this message to your previous address so that you know about the change.

If you made this change, you do not need to do anything. If you did not, contact us right away so that we can secure your account:

{{contactUrl}}
${textFooter}`,
  },
  {
    id: 'password-changed',
    name: 'Password Changed',
    subject: 'Your EcoClean password was changed',
    variables: ['customerName', 'changedAt', 'resetRequestUrl', 'contactUrl'],
    html: layout(
      'The password of your EcoClean account was changed.',
      'Your password was changed',
      [
        p('Hi {{customerName}},'),
        p('The password of your EcoClean account was changed on {{changedAt}}. You were signed out on your other devices.'),
        p('If you made this change, you do not need to do anything. If you did not, reset your password now and contact us.'),
        button('{{resetRequestUrl}}', 'Reset password'),
        p('Contact us: <a href="{{contactUrl}}" style="color:${GREEN};">{{contactUrl}}</a>'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

The password of your EcoClean account was changed on {{changedAt}}. You were signed out on your other devices.

If you made this change, you do not need to do anything. If you did not, reset your password now and contact us.

Reset your password: {{resetRequestUrl}}
Contact us: {{contactUrl}}
${textFooter}`,
  },
  {
    id: 'loyalty-reward',
    name: 'Loyalty Reward',
    subject: 'You earned {{discountPercent}}% off your next order!',
    variables: ['customerName', 'couponCode', 'discountPercent', 'expiresAt', 'points'],
    html: layout(
      'Your loyalty points earned you a coupon.',
      'Thank you for being a loyal customer!',
      [
        p('Hi {{customerName}},'),
        p(
          'You have reached <strong>{{points}}</strong> loyalty points, so here is a coupon for <strong>{{discountPercent}}% off</strong> your next order.',
        ),
        `            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px 0;">
              <tr>
                <td align="center" style="padding:20px;border:2px dashed ${GREEN};border-radius:8px;background-color:#eef6f1;">
                  <span style="display:block;font-size:13px;color:#5b6b61;margin-bottom:4px;">Your coupon code</span>
                  <span style="font-size:26px;font-weight:bold;letter-spacing:2px;color:${GREEN};">{{couponCode}}</span>
                </td>
              </tr>
            </table>`,
        p('Enter the code at checkout. It is valid until <strong>{{expiresAt}}</strong>.'),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

You have reached {{points}} loyalty points, so here is a coupon for {{discountPercent}}% off your next order.

Your coupon code: {{couponCode}}

Enter the code at checkout. It is valid until {{expiresAt}}.
${textFooter}`,
  },
  {
    id: 'order-sold-out',
    name: 'Order Sold Out (Refunded)',
    subject: 'Sorry: order #{{orderNumber}} sold out, and we have refunded you',
    variables: ['orderNumber', 'customerName', 'refundAmount', 'soldOutItems', 'total'],
    html: layout(
      'We could not fill order #{{orderNumber}} and have refunded it in full.',
      'We are sorry: your order sold out',
      [
        p('Hi {{customerName}},'),
        p(
          'While you were paying for order <strong>#{{orderNumber}}</strong>, another customer bought the last units of something in it ({{soldOutItems}}), so we could not fill it.',
        ),
        p('We have cancelled the order and refunded <strong>{{refundAmount}}</strong> in full. Nothing will be sent.'),
        p(
          'The money goes back to the card you paid with. Depending on your bank, it can take 5 to 10 business days to appear on your statement. We are sorry for the trouble.',
        ),
      ].join('\n'),
    ),
    text: `Hi {{customerName}},

While you were paying for order #{{orderNumber}}, another customer bought the last units of something in it ({{soldOutItems}}), so we could not fill it.

We have cancelled the order and refunded {{refundAmount}} in full. Nothing will be sent.

The money goes back to the card you paid with. Depending on your bank, it can take 5 to 10 business days to appear on your statement. We are sorry for the trouble.
${textFooter}`,
  },
  {
    id: 'back-in-stock',
    name: 'Back in Stock',
    subject: '{{productName}} is back in stock',
    variables: ['productName', 'productUrl'],
    html: layout(
      '{{productName}} is back in stock.',
      'It is back in stock',
      [
        p('Good news: <strong>{{productName}}</strong>, which you asked us about, is back in stock.'),
        button('{{productUrl}}', 'See it in the shop'),
        p('We send this e-mail once; stock can run out again, so do not wait too long.'),
      ].join('\n'),
    ),
    text: `Good news: {{productName}}, which you asked us about, is back in stock.

See it in the shop: {{productUrl}}

We send this e-mail once; stock can run out again, so do not wait too long.
${textFooter}`,
  },
  {
    id: 'stock-low',
    name: 'Low Stock (to the shop)',
    subject: 'Low stock: {{productName}} ({{onHand}} left)',
    variables: ['productName', 'sku', 'onHand', 'threshold', 'productAdminUrl'],
    html: layout(
      '{{productName}} is down to {{onHand}}.',
      'Low stock',
      [
        p(
          '<strong>{{productName}}</strong>{{#if sku}} (SKU {{sku}}){{/if}} is down to <strong>{{onHand}}</strong>, at or below its low-stock threshold of {{threshold}}.',
        ),
        button('{{productAdminUrl}}', 'See low stock in the shop'),
        p('You get this e-mail once each time the level falls to the threshold, not for every sale.'),
      ].join('\n'),
    ),
    text: `{{productName}}{{#if sku}} (SKU {{sku}}){{/if}} is down to {{onHand}}, at or below its low-stock threshold of {{threshold}}.

See low stock in the shop: {{productAdminUrl}}

You get this e-mail once each time the level falls to the threshold, not for every sale.
${textFooter}`,
  },
  {
    id: 'stock-sold-out',
    name: 'Sold Out (to the shop)',
    subject: 'Sold out: {{productName}}',
    variables: ['productName', 'sku', 'onHand', 'threshold', 'productAdminUrl'],
    html: layout(
      '{{productName}} has sold out.',
      'Sold out',
      [
        p('<strong>{{productName}}</strong>{{#if sku}} (SKU {{sku}}){{/if}} has sold out: shoppers can ask to be told when it is back.'),
        button('{{productAdminUrl}}', 'See sold-out products'),
      ].join('\n'),
    ),
    text: `{{productName}}{{#if sku}} (SKU {{sku}}){{/if}} has sold out: shoppers can ask to be told when it is back.

See sold-out products: {{productAdminUrl}}
${textFooter}`,
  },
  {
    id: 'shop-new-order',
    name: 'New Order (to the shop)',
    subject: 'New order #{{orderNumber}}: {{total}}',
    variables: ['orderNumber', 'customerName', 'customerEmail', 'items', 'total', 'shippingAddressLines', 'orderAdminUrl'],
    html: layout(
      'Order #{{orderNumber}} is paid: {{total}}.',
      'New order',
      [
        p(
          'Order <strong>#{{orderNumber}}</strong> from {{customerName}}{{#if customerEmail}} ({{customerEmail}}){{/if}} is paid: <strong>{{total}}</strong>.',
        ),
        `            <table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">
              {{#each items}}
              <tr><td>{{name}}{{#if isFreeGift}} (Free Gift){{/if}} &times; {{quantity}}</td><td align="right">{{lineTotal}}</td></tr>
              {{/each}}
            </table>`,
        addressBlock('Ship to:'),
        button('{{orderAdminUrl}}', 'Open the order'),
        p('You get this e-mail for each paid order. Turn it off in Settings → Notifications.'),
      ].join('\n'),
    ),
    text: `Order #{{orderNumber}} from {{customerName}}{{#if customerEmail}} ({{customerEmail}}){{/if}} is paid: {{total}}.

Items:
{{#each items}}
{{name}} x {{quantity}}  {{lineTotal}}
{{/each}}

Ship to:
${addressText}

Open the order: {{orderAdminUrl}}

You get this e-mail for each paid order. Turn it off in Settings → Notifications.
${textFooter}`,
  },
  {
    id: 'shop-contact-message',
    name: 'New Contact Message (to the shop)',
    subject: 'Contact form: {{messageSubject}}',
    variables: ['senderName', 'senderEmail', 'messageSubject', 'message', 'messagesAdminUrl'],
    html: layout(
      '{{senderName}} wrote through the contact form.',
      'New contact message',
      [
        p('<strong>{{senderName}}</strong> (<a href="mailto:{{senderEmail}}">{{senderEmail}}</a>) wrote through the contact form.'),
        p('<strong>Subject:</strong> {{messageSubject}}'),
        `            <p style="margin:0 0 16px 0;white-space:pre-wrap;border-left:3px solid #e3ebe6;padding-left:12px;">{{message}}</p>`,
        button('{{messagesAdminUrl}}', 'See all messages'),
        p('Reply to {{senderEmail}} to answer. You get this e-mail for each message; turn it off in Settings → Notifications.'),
      ].join('\n'),
    ),
    text: `{{senderName}} ({{senderEmail}}) wrote through the contact form.

Subject: {{messageSubject}}

{{message}}

See all messages: {{messagesAdminUrl}}

Reply to {{senderEmail}} to answer. You get this e-mail for each message; turn it off in Settings → Notifications.
${textFooter}`,
  },
  // Subscriptions' renewals ([4/8]): their own file.
  ...subscriptionEmailTemplates,
  // Reviews ([6/8]): the request after shipping.
  ...reviewEmailTemplates,
  // Offers and reminders ([7/8]): checkout recovery.
  ...marketingEmailTemplates,
];
