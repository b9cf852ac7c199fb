import type { Kysely } from 'kysely';
import type { Database, TestPaymentMethodsTable } from '../db/schema.js';
import { randomString } from '../lib/ids.js';
import { OFF_SESSION_MESSAGES, PaymentProviderError, type OffSessionCharge, type OffSessionOutcome } from './provider.js';

/**
 * What the built-in test card page keeps of a card paid with for an order with subscription lines:
 * how its renewals behave (from the test card used), its brand and last four digits. Never the card
 * number nor the CVC: test mode keeps what a real provider would show the shop, and no more.
 */
export type KeptTestCard = Pick<TestPaymentMethodsTable, 'behaviour' | 'brand' | 'last4'>;

/** Keeps a test card for later charges; its id (pm_test_…) is the saved method's reference. */
export async function keepTestPaymentMethod(db: Kysely<Database>, card: KeptTestCard, now = new Date()): Promise<string> {
  const id = `pm_test_${randomString(24)}`;
  await db
    .insertInto('test_payment_methods')
    .values({ id, behaviour: card.behaviour, brand: card.brand, last4: card.last4, created_at: now.toISOString() })
    .execute();
  return id;
}

/** What the customer knows of a kept test card (its brand and last four digits), or null for a method the page never kept. */
export async function testPaymentMethodCard(db: Kysely<Database>, id: string): Promise<{ brand: string; last4: string } | null> {
  const row = await db.selectFrom('test_payment_methods').select(['brand', 'last4']).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** Forgets a kept method whose payment the shop refused (the order was paid or ended meanwhile): nothing will charge it. */
export async function forgetTestPaymentMethod(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('test_payment_methods').where('id', '=', id).execute();
}

/** What the test page answers a charge: from the kept card's behaviour; a method it never kept is declined. */
async function answerFor(db: Kysely<Database>, charge: OffSessionCharge): Promise<OffSessionOutcome> {
  const method = charge.paymentMethodRef
    ? await db.selectFrom('test_payment_methods').select(['id', 'behaviour']).where('id', '=', charge.paymentMethodRef).executeTakeFirst()
    : undefined;
  if (!method) return { status: 'declined', message: OFF_SESSION_MESSAGES.declined };
  if (method.behaviour === 'decline') return { status: 'declined', message: OFF_SESSION_MESSAGES.declined };
  if (method.behaviour === 'authenticate') return { status: 'needs_customer', message: OFF_SESSION_MESSAGES.needsCustomer };
  return {
    status: 'paid',
    payment: { amountCents: charge.amountCents, reference: `pi_test_${randomString(24)}` },
    paymentMethodRef: method.id,
  };
}

/**
 * The test card page's charge with the customer away, as Stripe's is: once per idempotency key.
 * The answer is stored under the key first-writer-wins (insert or nothing, then read), so a retry
 * or two processes asking at once get the first answer, a paid one with the same reference. A key
 * reused for another order is refused, as Stripe refuses a key reused with other parameters.
 */
export async function chargeTestMethodOffSession(
  db: Kysely<Database>,
  charge: OffSessionCharge,
  now = new Date(),
): Promise<OffSessionOutcome> {
  const answer = await answerFor(db, charge);
  await db
    .insertInto('test_off_session_charges')
    .values({
      idempotency_key: charge.idempotencyKey,
      order_id: charge.orderId,
      outcome: JSON.stringify(answer),
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const first = await db
    .selectFrom('test_off_session_charges')
    .select(['order_id', 'outcome'])
    .where('idempotency_key', '=', charge.idempotencyKey)
    .executeTakeFirstOrThrow();
  if (first.order_id !== charge.orderId)
    throw new PaymentProviderError('refused', `The key ${charge.idempotencyKey} was used for another order's charge.`);
  return JSON.parse(first.outcome) as OffSessionOutcome;
}
