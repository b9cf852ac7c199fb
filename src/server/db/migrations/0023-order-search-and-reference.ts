import { type Kysely } from 'kysely';

/**
 * Issue 28 (search that finds orders; honest tracking).
 *
 * 1. The admin order search also files every order under the words of its lines' product names
 *    and their SKUs, the carrier's tracking number, the words of the shipping city, and its total
 *    as an amount (`$12.34`). Existing orders get those terms here, a batch at a time; the terms
 *    they already have stay (insert or ignore).
 * 2. The status update e-mail no longer calls the specification's brand code a tracking number:
 *    it shows it as "Order reference" (`orderReference`), and tracking only for a carrier's
 *    number. A built-in template the owner never edited (`updated_at = created_at`) gets the new
 *    text; an edited one keeps its text and lists the new variable.
 *
 * Everything below is frozen as of this migration (it imports nothing from the app).
 */

const MAX_TERM = 120;
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
const joinedTokens = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((t) => /[^\p{L}\p{N}]/u.test(t));
const amountTerm = (cents: number) => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

type OrderRow = { id: string; shipping_address: string | null; shipstation_tracking_number: string | null; total_cents: number };
type LineRow = { order_id: string; product_name: string; sku: string | null };

function newTermsOf(o: OrderRow, lines: LineRow[]): string[] {
  let address: unknown = null;
  try {
    address = o.shipping_address ? JSON.parse(o.shipping_address) : null;
  } catch {
    address = null;
  }
  const city = address && typeof address === 'object' ? (address as Record<string, unknown>).city : undefined;
  const total = Number(o.total_cents);
  const terms = new Set<string>([
    ...words(typeof city === 'string' ? city : ''),
    ...joinedTokens(typeof city === 'string' ? city : ''),
    ...lines.flatMap((l) => [...words(l.product_name), ...joinedTokens(l.product_name), l.sku?.trim().toLowerCase() ?? '']),
    o.shipstation_tracking_number?.trim().toLowerCase() ?? '',
    ...(total >= 0 ? [amountTerm(total)] : []),
  ]);
  return [...terms].filter((t) => t.length > 0).map((t) => t.slice(0, MAX_TERM));
}

const STATUS_UPDATE_VARIABLES = ['orderNumber', 'orderReference', 'customerName', 'status', 'tracking', 'shippingAddressLines'];

const STATUS_UPDATE_HTML = `<!DOCTYPE html>
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
            {{#if orderReference}}
            <p style="margin:0 0 16px 0;">Order reference: <strong>{{orderReference}}</strong></p>
            {{/if}}
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
</html>`;

const STATUS_UPDATE_TEXT = `Hi {{customerName}},

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
{{#each shippingAddressLines}}
{{this}}
{{/each}}

You can also check your order status at any time from your account.

--
Thank you for choosing EcoClean.
Questions? Just reply to this e-mail and we will be happy to help.
`;

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const batch: OrderRow[] = await db
      .selectFrom('orders')
      .select(['id', 'shipping_address', 'shipstation_tracking_number', 'total_cents'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (batch.length === 0) break;
    const lines: LineRow[] = await db
      .selectFrom('order_items')
      .select(['order_id', 'product_name', 'sku'])
      .where(
        'order_id',
        'in',
        batch.map((o) => o.id),
      )
      .execute();
    const byOrder = new Map<string, LineRow[]>();
    for (const l of lines) byOrder.set(l.order_id, [...(byOrder.get(l.order_id) ?? []), l]);
    const rows = batch.flatMap((o) => newTermsOf(o, byOrder.get(o.id) ?? []).map((term) => ({ term, order_id: o.id })));
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('order_search_terms')
        .values(rows.slice(i, i + 1000))
        .onConflict((oc) => oc.doNothing())
        .execute();
    after = batch[batch.length - 1]!.id;
  }

  // Never edited by the owner: the new built-in text (updated_at left alone, so it still reads as unedited).
  await db
    .updateTable('email_templates')
    .set({ html: STATUS_UPDATE_HTML, text: STATUS_UPDATE_TEXT, variables: JSON.stringify(STATUS_UPDATE_VARIABLES) })
    .where('id', '=', 'order-status-update')
    .whereRef('updated_at', '=', 'created_at')
    .execute();
  // Edited: the owner's text stays; its list names the new variable (once).
  const edited: { variables: string | null }[] = await db
    .selectFrom('email_templates')
    .select('variables')
    .where('id', '=', 'order-status-update')
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
    if (!names.includes('orderReference'))
      await db
        .updateTable('email_templates')
        .set({ variables: JSON.stringify([...names, 'orderReference']) })
        .where('id', '=', 'order-status-update')
        .execute();
  }
}

/** The added terms are harmless to a search that does not look for them; the old text is not put back. */
export async function down(): Promise<void> {}
