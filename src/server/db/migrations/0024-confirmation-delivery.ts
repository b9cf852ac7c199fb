import type { Kysely } from 'kysely';

/**
 * Issue 29: the order confirmation e-mail says the shipping method and delivery estimate chosen at
 * checkout (`shippingMethod`, `deliveryEstimate`; orders/delivery-choice.ts). A built-in
 * confirmation the owner never edited (`updated_at = created_at`) gets the new built-in text,
 * frozen here (this migration imports nothing from the app); an edited one keeps the owner's text
 * and its list names the two new variables, which it may use.
 */
export const HTML =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Thank you for your order!</title>\n</head>\n<body style="margin:0;padding:0;background-color:#f3f6f4;">\n<div style="display:none;max-height:0;overflow:hidden;">Thank you for your order #{{orderNumber}}.</div>\n<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f6f4;">\n  <tr>\n    <td align="center" style="padding:24px 12px;">\n      <table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;overflow:hidden;font-family:Arial,Helvetica,sans-serif;color:#24382c;">\n        <tr>\n          <td style="background-color:#2f7d4a;padding:20px 32px;">\n            <span style="font-size:24px;font-weight:bold;color:#ffffff;letter-spacing:0.5px;">EcoClean</span>\n          </td>\n        </tr>\n        <tr>\n          <td style="padding:32px;font-size:16px;line-height:1.5;">\n            <h1 style="margin:0 0 16px 0;font-size:22px;line-height:1.3;color:#2f7d4a;">Thank you for your order!</h1>\n            <p style="margin:0 0 16px 0;">Hi {{customerName}},</p>\n            <p style="margin:0 0 16px 0;">We have received your order <strong>#{{orderNumber}}</strong> and are getting it ready. Here is a summary:</p>\n            <table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">\n              {{#each items}}\n              <tr><td>{{name}}{{#if isFreeGift}} (Free Gift){{/if}} &times; {{quantity}}</td><td align="right">{{lineTotal}}</td></tr>\n              {{/each}}\n            </table>\n            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:16px 0 24px 0;font-size:15px;">\n              <tr>\n                <td style="padding:4px 0;">Subtotal</td>\n                <td align="right" style="padding:4px 0;">{{subtotal}}</td>\n              </tr>\n              <tr>\n                <td style="padding:4px 0;">Discount</td>\n                <td align="right" style="padding:4px 0;">{{discount}}</td>\n              </tr>\n              <tr>\n                <td style="padding:4px 0;">Shipping</td>\n                <td align="right" style="padding:4px 0;">{{shipping}}</td>\n              </tr>\n              <tr>\n                <td style="padding:4px 0;">Tax</td>\n                <td align="right" style="padding:4px 0;">{{tax}}</td>\n              </tr>\n              <tr>\n                <td style="padding:4px 0;font-weight:bold;border-top:1px solid #e3ebe6;padding-top:8px;">Total</td>\n                <td align="right" style="padding:4px 0;font-weight:bold;border-top:1px solid #e3ebe6;padding-top:8px;">{{total}}</td>\n              </tr>\n            </table>\n            <p style="margin:0 0 4px 0;font-weight:bold;">Shipping to:</p>\n            <p style="margin:0 0 16px 0;">{{#each shippingAddressLines}}{{#unless @first}}<br>{{/unless}}{{this}}{{/each}}</p>\n            {{#if shippingMethod}}\n            <p style="margin:0 0 16px 0;">Shipping method: <strong>{{shippingMethod}}</strong>{{#if deliveryEstimate}} (estimated delivery: {{deliveryEstimate}}){{/if}}</p>\n            {{/if}}\n            <p style="margin:0 0 16px 0;">We will send you another e-mail as soon as your order ships.</p>\n          </td>\n        </tr>\n        <tr>\n          <td style="padding:20px 32px;background-color:#f7faf8;border-top:1px solid #e3ebe6;font-size:13px;line-height:1.5;color:#5b6b61;">\n            Thank you for choosing EcoClean.<br>\n            Questions? Just reply to this e-mail and we will be happy to help.\n          </td>\n        </tr>\n      </table>\n    </td>\n  </tr>\n</table>\n</body>\n</html>';
export const TEXT =
  'Hi {{customerName}},\n\nThank you for your order! We have received order #{{orderNumber}} and are getting it ready.\n\nItems:\n{{#each items}}\n{{name}} x {{quantity}}  {{lineTotal}}\n{{/each}}\n\nSubtotal: {{subtotal}}\nDiscount: {{discount}}\nShipping: {{shipping}}\nTax: {{tax}}\nTotal: {{total}}\n\nShipping to:\n{{#each shippingAddressLines}}\n{{this}}\n{{/each}}\n\n{{#if shippingMethod}}\nShipping method: {{shippingMethod}}{{#if deliveryEstimate}} (estimated delivery: {{deliveryEstimate}}){{/if}}\n\n{{/if}}\nWe will send you another e-mail as soon as your order ships.\n\n--\nThank you for choosing EcoClean.\nQuestions? Just reply to this e-mail and we will be happy to help.\n';
export const VARIABLES = [
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
];
const ADDED = ['shippingMethod', 'deliveryEstimate'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('email_templates')
    .set({ html: HTML, text: TEXT, variables: JSON.stringify(VARIABLES) })
    .where('id', '=', 'order-confirmation')
    .whereRef('updated_at', '=', 'created_at')
    .execute();
  const edited: { variables: string | null }[] = await db
    .selectFrom('email_templates')
    .select('variables')
    .where('id', '=', 'order-confirmation')
    .whereRef('updated_at', '<>', 'created_at')
    .execute();
  for (const t of edited) {
    let list: unknown = [];
    try {
      list = JSON.parse(t.variables ?? '[]');
    } catch {
      list = [];
    }
    const names = Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
    const missing = ADDED.filter((n) => !names.includes(n));
    if (missing.length)
      await db
        .updateTable('email_templates')
        .set({ variables: JSON.stringify([...names, ...missing]) })
        .where('id', '=', 'order-confirmation')
        .execute();
  }
}

/** The lines are harmless where no method was kept; the old text is not put back. */
export async function down(): Promise<void> {}
