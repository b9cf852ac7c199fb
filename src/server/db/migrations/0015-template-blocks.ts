import type { Kysely } from 'kysely';

/**
 * E-mails drawn only by their templates (issue 19): the order confirmation, the status update and
 * the shipping e-mail now receive line items, tracking and the address as data (`items`,
 * `tracking`, `shippingAddressLines`) and draw them with `{{#each}}` / `{{#if}}` blocks, escaped;
 * nothing is pre-rendered as HTML by the shop any more.
 *
 * A built-in template the owner never edited (`updated_at = created_at`, as seeded) gets the new
 * built-in text and variables. One the owner edited keeps its text: the shop still passes the old
 * variables it may use (`itemsList`, `trackingSection`, `shippingAddress`, and on the shipping
 * e-mail `trackingNumber`, `carrier`, `trackingUrl`; src/server/email/order-email-variables.ts),
 * and its variables list names both the new and the old ones.
 *
 * The texts below are frozen as of this migration (it imports nothing from the app), so it writes
 * the same thing whenever it runs, whatever the built-in templates become later.
 */

type Frozen = { variables: string[]; html: string; text: string };

const TEMPLATES: Record<string, Frozen> = {
  'order-confirmation': {
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
    ],
    html: `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Thank you for your order!</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f6f4;">
<div style="display:none;max-height:0;overflow:hidden;">Thank you for your order #{{orderNumber}}.</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f6f4;">
  <tr>
    <td align="center" style="padding:24px 12px;">
      <table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;overflow:hidden;font-family:Arial,Helvetica,sans-serif;color:#24382c;">
        <tr>
          <td style="background-color:#2f7d4a;padding:20px 32px;">
            <span style="font-size:24px;font-weight:bold;color:#ffffff;letter-spacing:0.5px;">EcoClean</span>
          </td>
        </tr>
        <tr>
          <td style="padding:32px;font-size:16px;line-height:1.5;">
            <h1 style="margin:0 0 16px 0;font-size:22px;line-height:1.3;color:#2f7d4a;">Thank you for your order!</h1>
            <p style="margin:0 0 16px 0;">Hi {{customerName}},</p>
            <p style="margin:0 0 16px 0;">We have received your order <strong>#{{orderNumber}}</strong> and are getting it ready. Here is a summary:</p>
            <table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">
              {{#each items}}
              <tr><td>{{name}}{{#if isFreeGift}} (Free Gift){{/if}} &times; {{quantity}}</td><td align="right">{{lineTotal}}</td></tr>
              {{/each}}
            </table>
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:16px 0 24px 0;font-size:15px;">
              <tr>
                <td style="padding:4px 0;">Subtotal</td>
                <td align="right" style="padding:4px 0;">{{subtotal}}</td>
              </tr>
              <tr>
                <td style="padding:4px 0;">Discount</td>
                <td align="right" style="padding:4px 0;">{{discount}}</td>
              </tr>
              <tr>
                <td style="padding:4px 0;">Shipping</td>
                <td align="right" style="padding:4px 0;">{{shipping}}</td>
              </tr>
              <tr>
                <td style="padding:4px 0;">Tax</td>
                <td align="right" style="padding:4px 0;">{{tax}}</td>
              </tr>
              <tr>
                <td style="padding:4px 0;font-weight:bold;border-top:1px solid #e3ebe6;padding-top:8px;">Total</td>
                <td align="right" style="padding:4px 0;font-weight:bold;border-top:1px solid #e3ebe6;padding-top:8px;">{{total}}</td>
              </tr>
            </table>
            <p style="margin:0 0 4px 0;font-weight:bold;">Shipping to:</p>
            <p style="margin:0 0 16px 0;">{{#each shippingAddressLines}}{{#unless @first}}<br>{{/unless}}{{this}}{{/each}}</p>
            <p style="margin:0 0 16px 0;">We will send you another e-mail as soon as your order ships.</p>
          </td>
        </tr>
        <tr>
          <td style="padding:20px 32px;background-color:#f7faf8;border-top:1px solid #e3ebe6;font-size:13px;line-height:1.5;color:#5b6b61;">
            Thank you for choosing EcoClean.<br>
            Questions? Just reply to this e-mail and we will be happy to help.
          </td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>`,
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
{{#each shippingAddressLines}}
{{this}}
{{/each}}

We will send you another e-mail as soon as your order ships.

--
Thank you for choosing EcoClean.
Questions? Just reply to this e-mail and we will be happy to help.
`,
  },
  'order-status-update': {
    variables: ['orderNumber', 'customerName', 'status', 'tracking', 'shippingAddressLines'],
    html: `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your order has been updated</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f6f4;">
<div style="display:none;max-height:0;overflow:hidden;">Your order #{{orderNumber}} is now {{status}}.</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f6f4;">
  <tr>
    <td align="center" style="padding:24px 12px;">
      <table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;overflow:hidden;font-family:Arial,Helvetica,sans-serif;color:#24382c;">
        <tr>
          <td style="background-color:#2f7d4a;padding:20px 32px;">
            <span style="font-size:24px;font-weight:bold;color:#ffffff;letter-spacing:0.5px;">EcoClean</span>
          </td>
        </tr>
        <tr>
          <td style="padding:32px;font-size:16px;line-height:1.5;">
            <h1 style="margin:0 0 16px 0;font-size:22px;line-height:1.3;color:#2f7d4a;">Your order has been updated</h1>
            <p style="margin:0 0 16px 0;">Hi {{customerName}},</p>
            <p style="margin:0 0 16px 0;">The status of your order <strong>#{{orderNumber}}</strong> is now: <strong>{{status}}</strong>.</p>
            {{#if tracking}}
            <p>{{#if tracking.carrier}}Carrier: <strong>{{tracking.carrier}}</strong><br>{{/if}}Tracking number: <strong>{{tracking.number}}</strong>{{#if tracking.url}}<br><a href="{{tracking.url}}">Track your package on the {{tracking.carrier}} website</a>{{/if}}</p>
            {{/if}}
            <p style="margin:0 0 4px 0;font-weight:bold;">Shipping address:</p>
            <p style="margin:0 0 16px 0;">{{#each shippingAddressLines}}{{#unless @first}}<br>{{/unless}}{{this}}{{/each}}</p>
            <p style="margin:0 0 16px 0;">You can also check your order status at any time from your account.</p>
          </td>
        </tr>
        <tr>
          <td style="padding:20px 32px;background-color:#f7faf8;border-top:1px solid #e3ebe6;font-size:13px;line-height:1.5;color:#5b6b61;">
            Thank you for choosing EcoClean.<br>
            Questions? Just reply to this e-mail and we will be happy to help.
          </td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>`,
    text: `Hi {{customerName}},

The status of your order #{{orderNumber}} is now: {{status}}.

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
{{#each shippingAddressLines}}
{{this}}
{{/each}}

You can also check your order status at any time from your account.

--
Thank you for choosing EcoClean.
Questions? Just reply to this e-mail and we will be happy to help.
`,
  },
  'shipping-notification': {
    variables: ['orderNumber', 'customerName', 'tracking', 'shippingAddressLines'],
    html: `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your order is on its way</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f6f4;">
<div style="display:none;max-height:0;overflow:hidden;">Good news: order #{{orderNumber}} is on its way.</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f6f4;">
  <tr>
    <td align="center" style="padding:24px 12px;">
      <table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;overflow:hidden;font-family:Arial,Helvetica,sans-serif;color:#24382c;">
        <tr>
          <td style="background-color:#2f7d4a;padding:20px 32px;">
            <span style="font-size:24px;font-weight:bold;color:#ffffff;letter-spacing:0.5px;">EcoClean</span>
          </td>
        </tr>
        <tr>
          <td style="padding:32px;font-size:16px;line-height:1.5;">
            <h1 style="margin:0 0 16px 0;font-size:22px;line-height:1.3;color:#2f7d4a;">Your order is on its way</h1>
            <p style="margin:0 0 16px 0;">Hi {{customerName}},</p>
            <p style="margin:0 0 16px 0;">Good news: your order <strong>#{{orderNumber}}</strong> has shipped.</p>
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px 0;background-color:#eef6f1;border-radius:6px;">
              <tr>
                <td style="padding:16px;font-size:15px;">
                  {{#if tracking.carrier}}Carrier: <strong>{{tracking.carrier}}</strong><br>{{/if}}
                  Tracking number:<br>
                  <strong style="font-size:18px;letter-spacing:0.5px;">{{tracking.number}}</strong>
                  {{#if tracking.url}}<br><a href="{{tracking.url}}" style="display:inline-block;margin-top:12px;color:#2f7d4a;font-weight:bold;">Track your package on the {{tracking.carrier}} website</a>{{/if}}
                </td>
              </tr>
            </table>
            <p style="margin:0 0 4px 0;font-weight:bold;">Shipping to:</p>
            <p style="margin:0 0 16px 0;">{{#each shippingAddressLines}}{{#unless @first}}<br>{{/unless}}{{this}}{{/each}}</p>
            <p style="margin:0 0 16px 0;">Tracking details can take up to a day to appear on the carrier website.</p>
          </td>
        </tr>
        <tr>
          <td style="padding:20px 32px;background-color:#f7faf8;border-top:1px solid #e3ebe6;font-size:13px;line-height:1.5;color:#5b6b61;">
            Thank you for choosing EcoClean.<br>
            Questions? Just reply to this e-mail and we will be happy to help.
          </td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>`,
    text: `Hi {{customerName}},

Good news: your order #{{orderNumber}} has shipped.

{{#if tracking.carrier}}Carrier: {{tracking.carrier}}
{{/if}}Tracking number: {{tracking.number}}
{{#if tracking.url}}Track your package: {{tracking.url}}
{{/if}}
Shipping to:
{{#each shippingAddressLines}}
{{this}}
{{/each}}

Tracking details can take up to a day to appear on the carrier website.

--
Thank you for choosing EcoClean.
Questions? Just reply to this e-mail and we will be happy to help.
`,
  },
};

/** The old variables the shop still passes for templates edited before this migration. */
const LEGACY: Record<string, string[]> = {
  'order-confirmation': ['itemsList', 'shippingAddress'],
  'order-status-update': ['trackingNumber', 'trackingSection', 'shippingAddress'],
  'shipping-notification': ['trackingNumber', 'carrier', 'trackingUrl', 'shippingAddress'],
};

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [id, t] of Object.entries(TEMPLATES)) {
    // Never edited by the owner (seeded rows have updated_at = created_at): the new built-in text.
    // updated_at is left alone, so the row still reads as unedited.
    await db
      .updateTable('email_templates')
      .set({ html: t.html, text: t.text, variables: JSON.stringify(t.variables) })
      .where('id', '=', id)
      .whereRef('updated_at', '=', 'created_at')
      .execute();
    // Edited: the owner's text stays; the list shows the new variables and the old ones it may still use.
    await db
      .updateTable('email_templates')
      .set({ variables: JSON.stringify([...t.variables, ...(LEGACY[id] ?? [])]) })
      .where('id', '=', id)
      .whereRef('updated_at', '<>', 'created_at')
      .execute();
  }
}

/** The texts the owner never edited are not put back: the shop no longer pre-renders what they drew. */
export async function down(): Promise<void> {}
