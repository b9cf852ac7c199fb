import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OrderDelivery } from '../../shared/schemas/orders.js';
import { parseJson } from '../lib/json.js';

/*
 * The shipping method and estimate the shopper chose, as they were at checkout. They are kept on
 * the order's `placed` event (its data: `shippingMethod`, `estimatedDays`), so the confirmation
 * page and e-mail say what was chosen even after the owner renames or re-times the option, with no
 * new column. Orders placed before this was kept (or entered by the owner) have none, and say
 * nothing rather than guess from today's option.
 */

type PricedChoice = {
  selectedShippingOptionId: string | null;
  shippingOptions: { id: string; name: string; estimatedDays: string }[];
};

/** The `placed` event's part: the chosen option's name and estimate, or nothing. */
export function deliveryChoiceData(priced: PricedChoice): { shippingMethod?: string; estimatedDays?: string } {
  const chosen = priced.shippingOptions.find((o) => o.id === priced.selectedShippingOptionId);
  return chosen ? { shippingMethod: chosen.name, estimatedDays: chosen.estimatedDays } : {};
}

function toDelivery(data: Record<string, unknown>): OrderDelivery | null {
  const { shippingMethod, estimatedDays } = data;
  return typeof shippingMethod === 'string' && typeof estimatedDays === 'string' && shippingMethod.trim()
    ? { method: shippingMethod, estimatedDays }
    : null;
}

/** The delivery a `placed` event's stored data holds (null for none, or an event from before it was kept). */
export function deliveryFromPlacedData(data: string | null): OrderDelivery | null {
  return data === null ? null : toDelivery(parseJson<Record<string, unknown>>(data, {}));
}

/** The delivery chosen for each order (null when not kept), in one query. */
export async function deliveryChoices(db: Kysely<Database>, orderIds: string[]): Promise<Map<string, OrderDelivery | null>> {
  const out = new Map<string, OrderDelivery | null>(orderIds.map((id) => [id, null]));
  if (orderIds.length === 0) return out;
  const rows = await db
    .selectFrom('order_events')
    .select(['order_id', 'data'])
    .where('order_id', 'in', orderIds)
    .where('type', '=', 'placed')
    .execute();
  for (const r of rows) out.set(r.order_id, deliveryFromPlacedData(r.data));
  return out;
}

export async function deliveryChoice(db: Kysely<Database>, orderId: string): Promise<OrderDelivery | null> {
  return (await deliveryChoices(db, [orderId])).get(orderId) ?? null;
}
