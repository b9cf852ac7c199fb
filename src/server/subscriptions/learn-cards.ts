import type { RenewalDeps } from './renewals.js';

/** How many subscriptions one turn asks the provider about at most. */
export const CARDS_PER_TURN = 20;

/**
 * The card a new Stripe subscriber paid with, learned for "My Subscriptions" (issue [5/8]: "card
 * (brand and last four)"): Stripe's webhook names the first payment, not its card, so each turn
 * asks Stripe about a few subscriptions whose card is not known yet (outside any transaction), then
 * writes what it says only where nothing was written meanwhile (a card update or a renewal may
 * have). A payment Stripe does not know, or one without a card, is marked looked at (brand '') and
 * not asked about again. Safe in every process: two asking write the same answer once.
 */
export async function learnSubscriptionCards(deps: Pick<RenewalDeps, 'db' | 'payments' | 'log'>, limit = CARDS_PER_TURN): Promise<number> {
  const rows = await deps.db
    .selectFrom('subscriptions')
    .select(['id', 'provider', 'payment_ref'])
    .where('provider', '=', 'stripe')
    .where('card_brand', 'is', null)
    .where('payment_ref', 'is not', null)
    .where('status', '!=', 'cancelled')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  let learned = 0;
  for (const r of rows) {
    const provider = deps.payments.of(r.provider);
    if (!provider?.savedCardOfPayment || !r.payment_ref) continue;
    let found: Awaited<ReturnType<NonNullable<typeof provider.savedCardOfPayment>>>;
    try {
      found = await provider.savedCardOfPayment(r.payment_ref);
    } catch (err) {
      deps.log.warn({ err, subscriptionId: r.id }, 'could not read the card of a subscription’s first payment; will ask again');
      continue;
    }
    const done = await deps.db
      .updateTable('subscriptions')
      .set((eb) => ({
        card_brand: found.card?.brand ?? '',
        card_last4: found.card?.last4 ?? '',
        payment_method_ref: eb.fn.coalesce('payment_method_ref', eb.val(found.paymentMethod)),
        customer_ref: eb.fn.coalesce('customer_ref', eb.val(found.customer)),
      }))
      .where('id', '=', r.id)
      .where('card_brand', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) > 0 && found.card) learned++;
  }
  return learned;
}
