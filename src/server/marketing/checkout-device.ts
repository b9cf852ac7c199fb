import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The browser (device hash) of a checkout, as its order keeps it (`orders.guest_token_hash`, set
 * from the device cookie when the checkout is made; migration 0053): unlike the checkout's stock
 * holds, swept some 82 minutes after it, it lasts as long as the order.
 */
export async function deviceOfOrder(db: Kysely<Database>, orderId: string): Promise<string | null> {
  const row = await db.selectFrom('orders').select('guest_token_hash').where('id', '=', orderId).executeTakeFirst();
  return row?.guest_token_hash ?? null;
}

/** Whether this browser (device hash) made a checkout since `since` (orders_device_idx). */
export async function deviceCheckedOutSince(db: Kysely<Database>, deviceId: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('guest_token_hash', '=', deviceId)
    .where('created_at', '>', since.toISOString())
    .executeTakeFirst();
  return row !== undefined;
}
