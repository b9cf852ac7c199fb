import type { Kysely } from 'kysely';
import { defaultEmailTemplates } from '../../email/default-templates.js';

/**
 * Real tracking (issue 18): the order keeps the carrier ShipStation named for its label
 * (`shipping_carrier`, next to the existing `shipstation_tracking_number`) and when it shipped
 * (`shipped_at`), so the customer's pages and the shipping e-mail link to the carrier's own
 * tracking page (src/shared/carriers.ts). Orders shipped before this migration get both from
 * what was already stored: the label's answer and the timeline's shipping event.
 * The built-in shipping e-mail, if the owner never edited it, gains the carrier and its link.
 */
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

  const shipping = defaultEmailTemplates.find((t) => t.id === 'shipping-notification');
  if (shipping) {
    // Never edited by the owner (seeded rows have updated_at = created_at): the new built-in text.
    await db
      .updateTable('email_templates')
      .set({ html: shipping.html, text: shipping.text })
      .where('id', '=', 'shipping-notification')
      .whereRef('updated_at', '=', 'created_at')
      .execute();
    await db.updateTable('email_templates').set({ variables: JSON.stringify(shipping.variables) }).where('id', '=', 'shipping-notification').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('shipped_at').execute();
  await db.schema.alterTable('orders').dropColumn('shipping_carrier').execute();
}
