import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { PendingWrite } from '../db/query-helpers.js';
import { subscriptionTermsText, type TermsLine } from '../../shared/subscription-words.js';

/**
 * The consent of a checkout with subscription lines (issue [4/8]): the terms the shopper was shown
 * next to Pay and ticked, built from the checkout's own priced lines by the same function the page
 * draws them with (shared/subscription-words.ts subscriptionTermsText), and when. A write for the
 * checkout's list (run with the order's, in its transaction); null when no line is a subscription.
 */
export function consentWrite(
  trx: Kysely<Database>,
  o: { orderId: string; lines: readonly TermsLine[]; acceptedAt: Date },
): PendingWrite | null {
  const acceptedAt = o.acceptedAt.toISOString();
  const text = subscriptionTermsText(o.lines, acceptedAt);
  if (text === '') return null;
  return trx.insertInto('subscription_consents').values({ order_id: o.orderId, text, accepted_at: acceptedAt });
}

/** The consent kept with an order (its terms and when they were ticked), or undefined. */
export function orderConsent(db: Kysely<Database>, orderId: string) {
  return db.selectFrom('subscription_consents').select(['text', 'accepted_at']).where('order_id', '=', orderId).executeTakeFirst();
}
