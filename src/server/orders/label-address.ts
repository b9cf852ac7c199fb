import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { parseJson } from '../lib/json.js';

/**
 * Whether the shipping address was edited after the order's label was bought: the label still
 * carries the old address, so the owner must void it and buy a new one. Read from the timeline
 * (the newest `label.bought` and any `edited` event after it that changed the address), so it holds
 * for labels bought before this was asked, and clears itself when a label is bought again.
 */
export async function labelAddressChanged(db: Kysely<Database>, orderId: string): Promise<boolean> {
  const events = await db
    .selectFrom('order_events')
    .select(['type', 'data'])
    .where('order_id', '=', orderId)
    .where('type', 'in', ['label.bought', 'edited'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  for (const e of events) {
    if (e.type === 'label.bought') return false;
    const data = parseJson<{ changes?: Record<string, unknown> }>(e.data, {});
    if (data.changes && 'shippingAddress' in data.changes) return true;
  }
  return false;
}
