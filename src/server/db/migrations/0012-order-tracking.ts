import type { Kysely } from 'kysely';

/**
 * Real tracking (issue 18): the order keeps the carrier ShipStation named for its label
 * (`shipping_carrier`, next to the existing `shipstation_tracking_number`) and when it shipped
 * (`shipped_at`), so the customer's pages and the shipping e-mail link to the carrier's own
 * tracking page (src/shared/carriers.ts). Orders shipped before this migration get both from
 * what was already stored: the label's answer and the timeline's shipping event.
 * The built-in shipping e-mail, if the owner never edited it, gains the carrier and its link.
 */
/** The built-in shipping e-mail as this migration wrote it (frozen: a migration imports nothing from the app). */
const SHIPPING_NOTIFICATION = {
  html: '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Your order is on its way</title>\n</head>\n<body style="margin:0;padding:0;background-color:#f3f6f4;">\n<div style="display:none;max-height:0;overflow:hidden;">Good news: order #{{orderNumber}} is on its way.</div>\n<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f6f4;">\n  <tr>\n    <td align="center" style="padding:24px 12px;">\n      <table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;overflow:hidden;font-family:Arial,Helvetica,sans-serif;color:#24382c;">\n        <tr>\n          <td style="background-color:#2f7d4a;padding:20px 32px;">\n            <span style="font-size:24px;font-weight:bold;color:#ffffff;letter-spacing:0.5px;">EcoClean</span>\n          </td>\n        </tr>\n        <tr>\n          <td style="padding:32px;font-size:16px;line-height:1.5;">\n            <h1 style="margin:0 0 16px 0;font-size:22px;line-height:1.3;color:#2f7d4a;">Your order is on its way</h1>\n            <p style="margin:0 0 16px 0;">Hi {{customerName}},</p>\n            <p style="margin:0 0 16px 0;">Good news: your order <strong>#{{orderNumber}}</strong> has shipped.</p>\n            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px 0;background-color:#eef6f1;border-radius:6px;">\n              <tr>\n                <td style="padding:16px;font-size:15px;">\n                  {{#if carrier}}Carrier: <strong>{{carrier}}</strong><br>{{/if}}\n                  Tracking number:<br>\n                  <strong style="font-size:18px;letter-spacing:0.5px;">{{trackingNumber}}</strong>\n                  {{#if trackingUrl}}<br><a href="{{trackingUrl}}" style="display:inline-block;margin-top:12px;color:#2f7d4a;font-weight:bold;">Track your package on the {{carrier}} website</a>{{/if}}\n                </td>\n              </tr>\n            </table>\n            <p style="margin:0 0 4px 0;font-weight:bold;">Shipping to:</p>\n            <p style="margin:0 0 16px 0;white-space:pre-line;">{{shippingAddress}}</p>\n            <p style="margin:0 0 16px 0;">Tracking details can take up to a day to appear on the carrier website.</p>\n          </td>\n        </tr>\n        <tr>\n          <td style="padding:20px 32px;background-color:#f7faf8;border-top:1px solid #e3ebe6;font-size:13px;line-height:1.5;color:#5b6b61;">\n            Thank you for choosing EcoClean.<br>\n            Questions? Just reply to this e-mail and we will be happy to help.\n          </td>\n        </tr>\n      </table>\n    </td>\n  </tr>\n</table>\n</body>\n</html>',
  text: 'Hi {{customerName}},\n\nGood news: your order #{{orderNumber}} has shipped.\n\n{{#if carrier}}Carrier: {{carrier}}\n{{/if}}Tracking number: {{trackingNumber}}\n{{#if trackingUrl}}Track your package: {{trackingUrl}}\n{{/if}}\nShipping to:\n{{shippingAddress}}\n\nTracking details can take up to a day to appear on the carrier website.\n\n--\nThank you for choosing EcoClean.\nQuestions? Just reply to this e-mail and we will be happy to help.\n',
  variables: ['orderNumber', 'customerName', 'trackingNumber', 'carrier', 'trackingUrl', 'shippingAddress'],
};

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('shipping_carrier', 'text').execute();
  await db.schema.alterTable('orders').addColumn('shipped_at', 'text').execute();

  const parse = (text: unknown): Record<string, any> => {
    try {
      return typeof text === 'string' ? (JSON.parse(text) as Record<string, any>) : {};
    } catch {
      return {};
    }
  };
  const labelled = await db.selectFrom('orders').select(['id', 'shipstation_data']).where('label_state', '=', 'bought').execute();
  for (const o of labelled) {
    const label = parse(o.shipstation_data).label ?? {};
    const code = label.carrier_code ?? label.carrierCode;
    if (typeof code === 'string' && code) await db.updateTable('orders').set({ shipping_carrier: code }).where('id', '=', o.id).execute();
  }
  const shipped = await db
    .selectFrom('order_events as e')
    .innerJoin('orders as o', 'o.id', 'e.order_id')
    .select(['e.order_id', 'e.type', 'e.data', 'e.created_at'])
    .where('o.status', 'in', ['shipped', 'delivered', 'completed'])
    .where('e.type', 'in', ['label.bought', 'status.changed'])
    .orderBy('e.created_at')
    .execute();
  const at = new Map<string, string>();
  for (const e of shipped) {
    if (e.type === 'label.bought' || parse(e.data).to === 'shipped') at.set(e.order_id, e.created_at);
  }
  for (const [id, when] of at) await db.updateTable('orders').set({ shipped_at: when }).where('id', '=', id).execute();

  // Never edited by the owner (seeded rows have updated_at = created_at): the new built-in text.
  await db
    .updateTable('email_templates')
    .set({ html: SHIPPING_NOTIFICATION.html, text: SHIPPING_NOTIFICATION.text })
    .where('id', '=', 'shipping-notification')
    .whereRef('updated_at', '=', 'created_at')
    .execute();
  await db
    .updateTable('email_templates')
    .set({ variables: JSON.stringify(SHIPPING_NOTIFICATION.variables) })
    .where('id', '=', 'shipping-notification')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('shipped_at').execute();
  await db.schema.alterTable('orders').dropColumn('shipping_carrier').execute();
}
