import { sql, type Kysely, type Selectable } from 'kysely';
import Stripe from 'stripe';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { queueEmail } from '../email/outbox.js';
import { heldUnits } from '../cart/service.js';
import { recordOrderEvent, type OrderEventActor } from '../orders/events.js';
import { stripeFailureMessage } from '../payments/stripe.js';
import { formatCents } from '../../shared/money.js';
import { ORDER_MONEY_MESSAGES, type RefundInput } from '../../shared/schemas/admin.js';
import type { OrderPaymentStatus, RefundView } from '../../shared/schemas/orders.js';

type Trx = Kysely<Database>;
type OrderRow = Selectable<OrdersTable>;

/**
 * What the owner and the customer see as the payment state. A partly refunded order keeps
 * `payment_status = 'paid'` in the table (it is still paid: shippable, not to be fulfilled again),
 * and shows as 'partially_refunded' from its `refunded_cents`.
 */
export function paymentStatusOf(order: { payment_status: OrdersTable['payment_status']; refunded_cents: number }): OrderPaymentStatus {
  if (order.payment_status === 'paid' && Number(order.refunded_cents) > 0) return 'partially_refunded';
  return order.payment_status;
}

/** A payment was taken for the order (so its units left stock at payment and money may be refunded). */
export function wasPaid(order: { payment_status: OrdersTable['payment_status'] }): boolean {
  return order.payment_status === 'paid' || order.payment_status === 'refunded';
}

/** The order's units per product (products by id, the lock order). */
async function unitsOf(trx: Trx, orderId: string): Promise<{ productId: string; name: string; quantity: number }[]> {
  const rows = await trx
    .selectFrom('order_items')
    .select(['product_id', sql<string>`min(product_name)`.as('name'), sql<number | string>`sum(quantity)`.as('quantity')])
    .where('order_id', '=', orderId)
    .groupBy('product_id')
    .orderBy('product_id')
    .execute();
  return rows.map((r) => ({ productId: r.product_id, name: r.name, quantity: Number(r.quantity) }));
}

/**
 * Locks the products of the order's lines, by id: the first locks of the shop's one lock order
 * (docs/decisions/0005), taken before the order row by anything that may move the order's stock.
 * An order's lines never change after checkout, so reading them unlocked first is safe.
 */
export async function lockOrderProducts(trx: Trx, dialect: Dialect, orderId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  const ids = (await unitsOf(trx, orderId)).map((u) => u.productId);
  if (ids.length) await trx.selectFrom('products').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Returns the order's units to stock, once (while `restocked_at` is null); true when it did. */
async function restock(trx: Trx, order: OrderRow, actor: OrderEventActor, cause: string): Promise<boolean> {
  if (order.restocked_at || !wasPaid(order)) return false;
  const units = await unitsOf(trx, order.id);
  if (units.length === 0) return false;
  const at = new Date().toISOString();
  for (const u of units) {
    await trx.updateTable('products').set({ inventory: sql`inventory + ${u.quantity}`, updated_at: at }).where('id', '=', u.productId).execute();
  }
  await trx.updateTable('orders').set({ restocked_at: at, updated_at: at }).where('id', '=', order.id).execute();
  order.restocked_at = at;
  await recordOrderEvent(trx, order.id, 'restocked', actor, { cause, units: units.map((u) => ({ productId: u.productId, name: u.name, quantity: u.quantity })) });
  return true;
}

/** Takes the order's units out of stock again (the order was reopened); 409 when what is left is too little. */
async function takeAgain(trx: Trx, order: OrderRow, actor: OrderEventActor, status: string): Promise<void> {
  if (!order.restocked_at) return;
  const units = await unitsOf(trx, order.id);
  const at = new Date();
  const held = await heldUnits(trx, units.map((u) => u.productId), at, order.id);
  const stock = new Map(
    units.length
      ? (await trx.selectFrom('products').select(['id', 'inventory']).where('id', 'in', units.map((u) => u.productId)).execute()).map((p) => [p.id, p.inventory])
      : [],
  );
  for (const u of units) {
    const inventory = stock.get(u.productId);
    if (inventory === undefined) continue; // no longer in the catalogue: nothing to take
    const free = inventory - (held.get(u.productId) ?? 0);
    if (free < u.quantity) throw new HttpError(409, ORDER_MONEY_MESSAGES.notEnoughToReopen(u.name, u.quantity, Math.max(0, free), status));
  }
  for (const u of units) {
    await trx.updateTable('products').set({ inventory: sql`inventory - ${u.quantity}`, updated_at: at.toISOString() }).where('id', '=', u.productId).execute();
  }
  await trx.updateTable('orders').set({ restocked_at: null, updated_at: at.toISOString() }).where('id', '=', order.id).execute();
  order.restocked_at = null;
  await recordOrderEvent(trx, order.id, 'stock.taken', actor, { to: status, units: units.map((u) => ({ productId: u.productId, name: u.name, quantity: u.quantity })) });
}

/**
 * The stock side of a status change, inside the caller's transaction, after lockOrderProducts and
 * the order's own lock: cancelling a paid order returns its units (once, recorded as 'cancelled'
 * and 'restocked'); moving a restocked order out of cancelled takes them again, or refuses (409).
 */
export async function applyStatusStock(trx: Trx, order: OrderRow, status: OrdersTable['status'], actor: OrderEventActor): Promise<void> {
  if (order.status === status) return;
  if (status === 'cancelled') {
    await recordOrderEvent(trx, order.id, 'cancelled', actor, { from: order.status });
    await restock(trx, order, actor, 'cancelled');
  } else if (order.status === 'cancelled' && wasPaid(order)) {
    await takeAgain(trx, order, actor, status);
  }
}

export type RefundDeps = { stripe: Stripe | null };

function refundView(r: Selectable<Database['refunds']>): RefundView {
  return {
    id: r.id,
    amountCents: Number(r.amount_cents),
    provider: r.provider,
    providerRefundId: r.provider_refund_id,
    status: r.status,
    reason: r.reason,
    restock: r.restock === 1,
    error: r.error,
    actor: r.actor_label,
    createdAt: r.created_at,
  };
}

/** An order's refunds, oldest first (every one asked, failed ones too). */
export async function listRefunds(db: Kysely<Database>, orderId: string): Promise<RefundView[]> {
  const rows = await db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
  return rows.map(refundView);
}

/** Stripe did not answer (after the SDK's retries under the same idempotency key): it may have refunded. */
class ProviderNoAnswer extends HttpError {
  constructor() {
    super(502, ORDER_MONEY_MESSAGES.providerNoAnswer);
  }
}

/** Asks the order's payment provider to refund; the built-in test provider records it without a remote call. */
async function askProvider(deps: RefundDeps, order: { id: string; payment_provider: string | null; payment_session_id: string | null }, refundId: string, amountCents: number): Promise<string> {
  if (order.payment_provider === 'stripe') {
    if (!deps.stripe) throw new HttpError(409, ORDER_MONEY_MESSAGES.stripeNotConfigured);
    if (!order.payment_session_id) throw new HttpError(409, ORDER_MONEY_MESSAGES.noPayment);
    let paymentIntent: string | null;
    try {
      const session = await deps.stripe.checkout.sessions.retrieve(order.payment_session_id);
      paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    } catch (err) {
      throw new HttpError(502, ORDER_MONEY_MESSAGES.providerFailed(stripeFailureMessage(err)));
    }
    if (!paymentIntent) throw new HttpError(409, ORDER_MONEY_MESSAGES.noPayment);
    try {
      const refund = await deps.stripe.refunds.create(
        { payment_intent: paymentIntent, amount: amountCents, metadata: { orderId: order.id, refundId } },
        { idempotencyKey: `refund-${refundId}` },
      );
      return refund.id;
    } catch (err) {
      if (err instanceof Stripe.errors.StripeConnectionError) throw new ProviderNoAnswer();
      throw new HttpError(502, ORDER_MONEY_MESSAGES.providerFailed(stripeFailureMessage(err)));
    }
  }
  return `tre_${refundId.replace(/^refund_/, '')}`;
}

/**
 * Refunds part or all of a paid order through its payment provider.
 *
 * 1. The order row is locked and the amount checked against what was paid less what is refunded
 *    or being refunded; the refund is written 'pending', so a second refund at the same moment
 *    sees it and can never take the total past what was paid.
 * 2. The provider is asked outside any transaction (idempotency key: the refund's id).
 * 3. In one transaction (products by id, then the order): the refund succeeds, the order's
 *    refunded sum and payment state follow, the units return to stock when asked (once), the
 *    timeline records it and the customer's e-mail is queued. A refusal marks the refund failed
 *    (kept, with the provider's message) and answers 502; no answer at all leaves it pending
 *    (its amount held back) and answers 502 saying so.
 */
export async function refundOrder(
  db: Kysely<Database>,
  deps: RefundDeps,
  orderId: string,
  input: RefundInput,
  actor: OrderEventActor,
): Promise<{ refund: RefundView }> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const pending = await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (!order.payment_provider || !wasPaid(order)) throw new HttpError(409, ORDER_MONEY_MESSAGES.notPaid);
    const inFlight = await trx
      .selectFrom('refunds')
      .select(sql<number | string | null>`sum(amount_cents)`.as('n'))
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const left = Number(order.total_cents) - Number(order.refunded_cents) - Number(inFlight?.n ?? 0);
    if (left <= 0) throw new HttpError(400, ORDER_MONEY_MESSAGES.nothingLeft);
    if (input.amountCents > left) throw new HttpError(400, ORDER_MONEY_MESSAGES.tooMuch(input.amountCents, left, Number(order.total_cents)));
    const id = newId('refund');
    await trx
      .insertInto('refunds')
      .values({
        id,
        order_id: orderId,
        amount_cents: input.amountCents,
        provider: order.payment_provider,
        provider_refund_id: null,
        status: 'pending',
        reason: input.reason ?? null,
        restock: input.restock ? 1 : 0,
        error: null,
        actor_user_id: actor.userId,
        actor_label: actor.label,
        created_at: new Date().toISOString(),
        settled_at: null,
      })
      .execute();
    return { id, provider: order.payment_provider, payment_session_id: order.payment_session_id };
  });

  let providerRefundId: string;
  try {
    providerRefundId = await askProvider(deps, { id: orderId, payment_provider: pending.provider, payment_session_id: pending.payment_session_id }, pending.id, input.amountCents);
  } catch (err) {
    if (err instanceof ProviderNoAnswer) {
      // Not known to have failed: the refund stays pending and its amount held back (so nothing
      // can be refunded twice) until the owner has checked it in Stripe's dashboard.
      await db.updateTable('refunds').set({ error: err.message }).where('id', '=', pending.id).execute();
      throw err;
    }
    await db
      .updateTable('refunds')
      .set({ status: 'failed', error: err instanceof HttpError ? err.message : 'The payment provider could not be reached', settled_at: new Date().toISOString() })
      .where('id', '=', pending.id)
      .execute();
    throw err;
  }

  await transactionWithRetry(db, async (trx) => {
    if (input.restock) await lockOrderProducts(trx, dialect, orderId);
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await trx.updateTable('refunds').set({ status: 'succeeded', provider_refund_id: providerRefundId, settled_at: at }).where('id', '=', pending.id).execute();
    const refunded = Number(order.refunded_cents) + input.amountCents;
    const full = refunded >= Number(order.total_cents);
    await trx
      .updateTable('orders')
      .set({ refunded_cents: refunded, payment_status: full ? 'refunded' : 'paid', updated_at: at })
      .where('id', '=', orderId)
      .execute();
    order.refunded_cents = refunded;
    order.payment_status = full ? 'refunded' : 'paid';
    await recordOrderEvent(trx, orderId, 'refunded', actor, {
      refundId: pending.id,
      amountCents: input.amountCents,
      refundedCents: refunded,
      full,
      provider: pending.provider,
      providerRefundId,
      ...(input.reason ? { reason: input.reason } : {}),
    });
    if (input.restock) await restock(trx, order, actor, 'refunded');
    const user = order.user_id ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', order.user_id).executeTakeFirst() : undefined;
    const to = order.email ?? user?.email;
    if (to) {
      const address = parseJson<{ name?: string } | string | null>(order.shipping_address, null);
      await queueEmail(trx, {
        to,
        orderId,
        actor,
        templateId: 'order-refunded',
        variables: {
          orderNumber: order.order_number,
          customerName: user?.full_name ?? (typeof address === 'object' && address?.name) ?? 'Customer',
          refundAmount: formatCents(input.amountCents),
          refundedTotal: formatCents(refunded),
          total: formatCents(Number(order.total_cents)),
          refundKind: full ? 'in full' : 'in part',
        },
      });
    }
  });
  const row = await db.selectFrom('refunds').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
  return { refund: refundView(row) };
}

/**
 * Paid orders stay on the books: only unpaid checkouts and orders the owner entered (no payment
 * provider, never paid) may be deleted. Their refunds and timeline go with them (a deletable
 * order has no refunds).
 */
export async function deleteOrderIfUnpaid(db: Kysely<Database>, orderId: string): Promise<void> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(trx.selectFrom('orders').select(['id', 'payment_status', 'refunded_cents']).where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (wasPaid(order) || Number(order.refunded_cents) > 0) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    const refunds = await trx.selectFrom('refunds').select('id').where('order_id', '=', orderId).limit(1).execute();
    if (refunds.length) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    await trx.deleteFrom('orders').where('id', '=', orderId).execute();
  });
}
