import type { Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { randomString } from '../lib/ids.js';

/** An order row as a figure test needs it: its total, states and day; no lines, no address. */
export type TestOrderRow = {
  totalCents: number;
  status?: OrdersTable['status'];
  paymentStatus?: OrdersTable['payment_status'];
  /** null for an order the shop entered itself; a provider for a checkout. */
  provider?: string | null;
  refundedCents?: number;
  createdAt?: string;
};

/** Writes an order row directly (paid, completed and now unless told otherwise) and answers its id. */
export async function insertTestOrder(db: Kysely<Database>, o: TestOrderRow): Promise<string> {
  const id = `order_t${randomString(11)}`;
  const at = o.createdAt ?? new Date().toISOString();
  const paymentStatus = o.paymentStatus ?? 'paid';
  await db
    .insertInto('orders')
    .values({
      id,
      order_number: id.slice(-8).toUpperCase(),
      user_id: null,
      email: 'figures@example.com',
      status: o.status ?? 'completed',
      payment_status: paymentStatus,
      payment_provider: o.provider === undefined ? 'stripe' : o.provider,
      // An order the shop entered itself (no provider yet) is the owner's (migration 0038). Named only
      // for the owner's: migration tests insert orders into schemas from before the column.
      ...(o.provider === null ? { origin: 'owner' as const } : {}),
      payment_session_id: null,
      shipping_address: null,
      billing_address: null,
      subtotal_cents: o.totalCents,
      discount_cents: 0,
      shipping_cents: 0,
      tax_cents: 0,
      total_cents: o.totalCents,
      refunded_cents: o.refundedCents ?? 0,
      coupon_code: null,
      shipping_option_id: null,
      shipstation_data: null,
      shipstation_tracking_number: null,
      guest_token_hash: null,
      created_at: at,
      updated_at: at,
      paid_at: paymentStatus === 'paid' || paymentStatus === 'refunded' ? at : null,
    })
    .execute();
  return id;
}
