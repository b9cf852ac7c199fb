import type { Kysely } from 'kysely';
import type { Database, PaymentSessionsTable } from '../db/schema.js';
import type { PendingWrite } from '../db/query-helpers.js';
import { insertRows } from '../db/compiled-once.js';

/*
 * The writes of `payment_sessions`, which payments owns (decision 0049; lint holds that no other
 * module inserts, updates or deletes it): checkout and the owner's payment links open sessions
 * and fulfilment completes them through these, in their own transactions. Ending sessions is
 * endPaymentSessions (./service.ts).
 */

export type NewPaymentSession = {
  id: string;
  orderId: string;
  provider: PaymentSessionsTable['provider'];
  amountCents: number;
  /** The page the payer goes to (the card page's own address until a hosted page is adopted). */
  url: string;
  now: Date;
  expiresAt: Date;
};

/** A new open session's insert, not run yet (the caller writes it with the order: one round trip on PostgreSQL). */
export function openPaymentSessionWrite(trx: Kysely<Database>, s: NewPaymentSession): PendingWrite {
  return insertRows(trx, 'payment_sessions', [
    {
      id: s.id,
      order_id: s.orderId,
      provider: s.provider,
      status: 'open',
      amount_cents: s.amountCents,
      url: s.url,
      created_at: s.now.toISOString(),
      expires_at: s.expiresAt.toISOString(),
      completed_at: null,
    },
  ]);
}

/** The provider made its page (Stripe): the shop's session takes the provider's id (its primary key) and page. */
export async function adoptHostedPage(trx: Kysely<Database>, localId: string, remote: { id: string; url: string }): Promise<void> {
  await trx.updateTable('payment_sessions').set({ id: remote.id, url: remote.url }).where('id', '=', localId).execute();
}

/** The provider could not make its page: the session never opened anywhere, so it ends with nothing to close. */
export async function abandonPaymentSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('payment_sessions').set({ status: 'expired' }).where('id', '=', id).execute();
}

/** The session's payment was taken (fulfilment): its write, not run yet (written with the order's). */
export function completePaymentSessionWrite(trx: Kysely<Database>, id: string, at: string): PendingWrite {
  return trx.updateTable('payment_sessions').set({ status: 'complete', completed_at: at }).where('id', '=', id);
}
