import { sql, type Kysely, type Selectable } from 'kysely';
import type Stripe from 'stripe';
import { isStripeError } from '../payments/stripe-sdk.js';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { tookMoney } from './money-taken.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { queueEmail } from '../email/outbox.js';
import { lockStock, type LockedStock } from '../inventory/stock.js';
import { orderStockLines, orderStockOut, returnForOrder, takeAgainForOrder } from '../inventory/order-stock.js';
import { ORDER_STOCK_MESSAGES, type OrderStockLine, type ReturnLine } from '../../shared/schemas/inventory.js';
import { recordOrderEvent, SYSTEM_ACTOR, type OrderEventActor } from './events.js';
import { recordAudit } from '../accounts/audit.js';
import { stripeFailureMessage } from '../payments/stripe.js';
import { formatCents } from '../../shared/money.js';
import { giveBackCouponAndPoints } from './give-back.js';
// A cycle by design: a status change moves stock (this file), a full refund cancels (status-change.ts); both are called at run time only.
import { changeStatusLocked } from './status-change.js';
import { ORDER_MONEY_MESSAGES, ORDER_STATE_MESSAGES, type RefundInput } from '../../shared/schemas/admin.js';
import type { OrderPaymentStatus, RefundView } from '../../shared/schemas/orders.js';
import { inStockOrder, lineTitle, variantOfLine } from '../../shared/variants.js';

/*
 * An order's money and stock after checkout: refunds (and their retry), the payment state shown
 * for a partly refunded order, units returned to or taken from stock on cancel, reopen and refund,
 * and deleting only orders that were never paid (decision 0009).
 */

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

/** The order's variants and their products (merged by variant, in stock order). */
async function orderVariants(trx: Trx, orderId: string): Promise<{ productId: string; variantId: string }[]> {
  const rows = await trx.selectFrom('order_items').select(['product_id', 'variant_id']).where('order_id', '=', orderId).execute();
  const byVariant = new Map(
    rows.map((r) => {
      const variantId = variantOfLine(r.product_id, r.variant_id);
      return [variantId, { productId: r.product_id, variantId }];
    }),
  );
  return [...byVariant.values()].sort(inStockOrder);
}

/** The order's line names by variant (the first line's name when a variant is on several lines). */
async function orderLineNames(trx: Trx, orderId: string): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom('order_items')
    .select(['product_id', 'variant_id', 'product_name', 'variant_label'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const names = new Map<string, string>();
  for (const r of rows) {
    const variantId = variantOfLine(r.product_id, r.variant_id);
    if (!names.has(variantId)) names.set(variantId, lineTitle(r.product_name, r.variant_label));
  }
  return names;
}

/** A return line with its variant named (lines written before variants mean the product's first). */
function withVariant(l: ReturnLine): StockLine {
  return { productId: l.productId, variantId: variantOfLine(l.productId, l.variantId), quantity: l.quantity };
}
type StockLine = { productId: string; variantId: string; quantity: number };

/**
 * Locks the stock of the order's products, by id: the first locks of the shop's one lock order
 * (docs/decisions/0005), taken before the order row by anything that may move the order's stock.
 * An order's lines never change after checkout, so reading them unlocked first is safe. Answers
 * every variant's stock of those products, by variant id.
 */
export async function lockOrderProducts(trx: Trx, dialect: Dialect, orderId: string): Promise<Map<string, LockedStock>> {
  return lockStock(
    trx,
    dialect,
    (await orderVariants(trx, orderId)).map((v) => v.productId),
  );
}

/**
 * Returns the chosen units of the order to stock (each a `returned` ledger row, never more than the
 * order has out), records it on the timeline, and sets `restocked_at` once nothing is left out.
 */
async function returnUnits(
  trx: Trx,
  order: OrderRow,
  stock: Map<string, LockedStock>,
  lines: ReturnLine[],
  actor: OrderEventActor,
  cause: string,
): Promise<boolean> {
  if (!tookItsUnits(order) || lines.every((l) => l.quantity <= 0)) return false;
  const names = await orderLineNames(trx, order.id);
  const back = await returnForOrder(trx, {
    orderId: order.id,
    orderNumber: order.order_number,
    lines: lines.map(withVariant),
    stock,
    actor,
    names,
    note: cause === 'refunded' ? 'Returned with a refund' : cause === 'deleted' ? 'Returned: the order was deleted' : 'Returned on cancel',
  });
  if (back.length === 0) return false;
  const at = new Date().toISOString();
  const stillOut = [...(await orderStockOut(trx, order.id)).values()].some((o) => o.out > 0);
  if (!stillOut) {
    await trx.updateTable('orders').set({ restocked_at: at, updated_at: at }).where('id', '=', order.id).execute();
    order.restocked_at = at;
  }
  await recordOrderEvent(trx, order.id, 'restocked', actor, { cause, units: back });
  return true;
}

/**
 * The order's units left the shelf for it: at payment for a checkout, or when the owner typed in an
 * order with products (orders/owner-orders.ts takes them at once, paid or not).
 */
function tookItsUnits(order: Pick<OrderRow, 'payment_status' | 'payment_provider'>): boolean {
  return tookMoney(order) || order.payment_provider === null;
}

/** Every unit the order still has out of stock (the "return everything" choice). */
async function allOut(trx: Trx, orderId: string): Promise<StockLine[]> {
  return [...(await orderStockOut(trx, orderId))]
    .filter(([, o]) => o.out > 0)
    .map(([variantId, o]) => ({ productId: o.productId, variantId, quantity: o.out }));
}

/** Takes what was returned for the order out of stock again (it was reopened); 409 when what is left is too little. */
async function takeAgain(
  trx: Trx,
  order: OrderRow,
  stock: Map<string, LockedStock>,
  actor: OrderEventActor,
  status: string,
): Promise<void> {
  const names = await orderLineNames(trx, order.id);
  const at = new Date();
  const taken = await takeAgainForOrder(trx, {
    orderId: order.id,
    orderNumber: order.order_number,
    stock,
    names,
    now: at,
    actor,
    refuse: (name, wanted, free) => ORDER_MONEY_MESSAGES.notEnoughToReopen(name, wanted, free, status),
  });
  if (order.restocked_at) {
    await trx.updateTable('orders').set({ restocked_at: null, updated_at: at.toISOString() }).where('id', '=', order.id).execute();
    order.restocked_at = null;
  }
  if (taken.length) await recordOrderEvent(trx, order.id, 'stock.taken', actor, { to: status, units: taken });
}

/** Shipped orders keep their units out unless the owner chooses lines: the parcel left the shelf. */
function hasShipped(order: OrderRow): boolean {
  return Boolean(order.shipped_at) || order.status === 'shipped' || order.status === 'delivered';
}

/**
 * The stock side of a status change, inside the caller's transaction, after lockOrderProducts and
 * the order's own lock: cancelling a paid order returns the units the owner chose (by default
 * every unit of an order not yet shipped, none of a shipped one; recorded as 'cancelled' and
 * 'restocked'); moving a cancelled order out of cancelled takes what was returned again, or
 * refuses (409).
 */
export async function applyStatusStock(
  trx: Trx,
  order: OrderRow,
  status: OrdersTable['status'],
  actor: OrderEventActor,
  stock: Map<string, LockedStock>,
  returnLines?: ReturnLine[],
): Promise<void> {
  if (order.status === status) return;
  if (status === 'cancelled') {
    await recordOrderEvent(trx, order.id, 'cancelled', actor, { from: order.status });
    const lines = returnLines ?? (hasShipped(order) ? [] : await allOut(trx, order.id));
    await returnUnits(trx, order, stock, lines, actor, 'cancelled');
  } else if (order.status === 'cancelled' && tookItsUnits(order)) {
    await takeAgain(trx, order, stock, actor, status);
  }
}

/** The order's lines with what each has out of stock and returned, for the refund and cancel dialogs. */
export async function orderReturnLines(db: Kysely<Database>, orderId: string): Promise<OrderStockLine[]> {
  const exists = await db.selectFrom('orders').select('id').where('id', '=', orderId).executeTakeFirst();
  if (!exists) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
  return orderStockLines(db, orderId);
}

type RefundDeps = { stripe: Stripe | null };

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
async function askProvider(
  deps: RefundDeps,
  order: { id: string; payment_provider: string | null; payment_session_id: string | null },
  refundId: string,
  amountCents: number,
): Promise<string> {
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
      if (isStripeError(err, 'StripeConnectionError')) throw new ProviderNoAnswer();
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
  options: RefundOptions = {},
): Promise<{ refund: RefundView }> {
  const pending = await openRefund(db, orderId, input, actor);
  return settleRefund(db, deps, orderId, pending, actor, options);
}

/**
 * Step 1 of a refund: under the order's lock, the amount is checked against what was paid less
 * what is refunded or being refunded, the units to return are checked, and the refund is written
 * 'pending' (so a second refund at the same moment sees it). `returnLater`: units the caller
 * returns itself in the settling transaction (a cancel's), checked here, before any money moves.
 */
export async function openRefund(
  db: Kysely<Database>,
  orderId: string,
  input: RefundInput,
  actor: OrderEventActor,
  { returnLater }: { returnLater?: ReturnLine[] } = {},
): Promise<PendingRefund> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  return transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (!order.payment_provider || !tookMoney(order)) throw new HttpError(409, ORDER_MONEY_MESSAGES.notPaid);
    const inFlight = await trx
      .selectFrom('refunds')
      .select(sql<number | string | null>`sum(amount_cents)`.as('n'))
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const left = Number(order.total_cents) - Number(order.refunded_cents) - Number(inFlight?.n ?? 0);
    if (left <= 0) throw new HttpError(400, ORDER_MONEY_MESSAGES.nothingLeft);
    if (input.amountCents > left)
      throw new HttpError(400, ORDER_MONEY_MESSAGES.tooMuch(input.amountCents, left, Number(order.total_cents)));
    const returnLines = await chosenReturnLines(trx, orderId, input);
    if (returnLater?.length) await chosenReturnLines(trx, orderId, { ...input, returnLines: returnLater });
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
        restock: returnLines.length || returnLater?.length ? 1 : 0,
        return_lines: returnLines.length ? JSON.stringify(returnLines) : null,
        error: null,
        actor_user_id: actor.userId,
        actor_label: actor.label,
        created_at: new Date().toISOString(),
        settled_at: null,
      })
      .execute();
    return {
      id,
      provider: order.payment_provider,
      payment_session_id: order.payment_session_id,
      returnLines,
      amountCents: input.amountCents,
      reason: input.reason ?? null,
    };
  });
}

type RefundOptions = {
  /** The customer's e-mail: `order-refunded` unless given (the sold-out apology). */
  templateId?: string;
  variables?: Record<string, unknown>;
  /**
   * More of the same step, in the settling transaction after the refund is recorded, with the
   * order's products locked first: a cancel that refunds (orders/cancel-order.ts). It sends its own
   * e-mail, so the refund's is not queued.
   */
  alsoInTransaction?: (trx: Kysely<Database>, order: OrderRow, stock: Map<string, LockedStock>) => Promise<void>;
  /** false: a full refund leaves an unshipped order's status alone (the sold-out apology cancels it itself). */
  cancelUnshipped?: boolean;
};

/**
 * The units the owner chose to return with a refund, checked when it is asked (before any money
 * moves): lines of this order, each no more than it has out of stock less what refunds still
 * pending will return. `restock` alone means every unit still out.
 */
async function chosenReturnLines(trx: Trx, orderId: string, input: RefundInput): Promise<StockLine[]> {
  const out = await orderStockOut(trx, orderId);
  const pending = await trx
    .selectFrom('refunds')
    .select('return_lines')
    .where('order_id', '=', orderId)
    .where('status', '=', 'pending')
    .where('return_lines', 'is not', null)
    .execute();
  const promised = new Map<string, number>();
  for (const r of pending)
    for (const l of parseJson<ReturnLine[]>(r.return_lines, []).map(withVariant))
      promised.set(l.variantId, (promised.get(l.variantId) ?? 0) + l.quantity);
  const free = (variantId: string) => Math.max(0, (out.get(variantId)?.out ?? 0) - (promised.get(variantId) ?? 0));
  if (!input.returnLines?.length) {
    if (!input.restock) return [];
    return [...out]
      .map(([variantId, o]) => ({ productId: o.productId, variantId, quantity: free(variantId) }))
      .filter((l) => l.quantity > 0);
  }
  const names = await orderLineNames(trx, orderId);
  const asked = new Map<string, StockLine>();
  for (const l of input.returnLines.map(withVariant)) {
    if (l.quantity <= 0) continue;
    asked.set(l.variantId, { ...l, quantity: (asked.get(l.variantId)?.quantity ?? 0) + l.quantity });
  }
  for (const [variantId, l] of asked) {
    const name = names.get(variantId);
    if (name === undefined) throw new HttpError(400, ORDER_STOCK_MESSAGES.notInOrder);
    if (l.quantity > free(variantId)) throw new HttpError(400, ORDER_STOCK_MESSAGES.notOut(name, l.quantity, free(variantId)));
  }
  return [...asked.values()];
}

/**
 * A payment came after its reservation lapsed and the units were gone (decision 0022): the order
 * is refunded in full, cancelled, and the shopper gets the `order-sold-out` apology instead of a
 * confirmation. Nothing was taken from stock, so nothing returns.
 */
export async function refundSoldOutOrder(db: Kysely<Database>, deps: RefundDeps, orderId: string, shortfall: string[]): Promise<void> {
  const order = await db
    .selectFrom('orders')
    .select(['total_cents', 'refunded_cents', 'status'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return;
  const left = Number(order.total_cents) - Number(order.refunded_cents);
  if (left > 0) {
    await refundOrder(
      db,
      deps,
      orderId,
      { amountCents: left, reason: `Sold out while the customer was paying: ${shortfall.join('; ')}` },
      SYSTEM_ACTOR,
      {
        cancelUnshipped: false,
        templateId: 'order-sold-out',
        variables: { soldOutItems: shortfall.join('; ') },
      },
    );
  }
  const at = new Date().toISOString();
  const r = await db
    .updateTable('orders')
    .set({ status: 'cancelled', updated_at: at })
    .where('id', '=', orderId)
    .where('status', '<>', 'cancelled')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1)
    await recordOrderEvent(db, orderId, 'cancelled', SYSTEM_ACTOR, { from: order.status, cause: 'sold out' });
}

/** How long after a refund was first asked a retry still reuses Stripe's idempotency key safely. */
const RETRY_WINDOW_MS = 23 * 60 * 60 * 1000;

export type PendingRefund = {
  id: string;
  provider: string;
  payment_session_id: string | null;
  amountCents: number;
  returnLines: ReturnLine[];
  reason: string | null;
};

/**
 * Asks the provider for a pending refund (again, for a retry: the same idempotency key, so Stripe
 * answers with the refund it made if the first request reached it, and makes it now if not), then
 * settles it. The settling transaction re-reads the refund under the order's lock: when two
 * requests settle the same refund, the second finds it settled and changes nothing.
 */
export async function settleRefund(
  db: Kysely<Database>,
  deps: RefundDeps,
  orderId: string,
  pending: PendingRefund,
  actor: OrderEventActor,
  options: RefundOptions = {},
): Promise<{ refund: RefundView }> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  let providerRefundId: string;
  try {
    providerRefundId = await askProvider(
      deps,
      { id: orderId, payment_provider: pending.provider, payment_session_id: pending.payment_session_id },
      pending.id,
      pending.amountCents,
    );
  } catch (err) {
    if (err instanceof ProviderNoAnswer) {
      // Not known to have failed: the refund stays pending and its amount held back (so nothing
      // can be refunded twice) until a retry (same idempotency key) settles it.
      await db.updateTable('refunds').set({ error: err.message }).where('id', '=', pending.id).where('status', '=', 'pending').execute();
      throw err;
    }
    await db
      .updateTable('refunds')
      .set({
        status: 'failed',
        error: err instanceof HttpError ? err.message : 'The payment provider could not be reached',
        settled_at: new Date().toISOString(),
      })
      .where('id', '=', pending.id)
      .where('status', '=', 'pending')
      .execute();
    throw err;
  }

  await transactionWithRetry(db, async (trx) => {
    const stock =
      pending.returnLines.length || options.alsoInTransaction
        ? await lockOrderProducts(trx, dialect, orderId)
        : new Map<string, LockedStock>();
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirstOrThrow();
    const still = await trx.selectFrom('refunds').select('status').where('id', '=', pending.id).executeTakeFirst();
    if (still?.status !== 'pending') return;
    const at = new Date().toISOString();
    await trx
      .updateTable('refunds')
      .set({ status: 'succeeded', provider_refund_id: providerRefundId, settled_at: at, error: null })
      .where('id', '=', pending.id)
      .execute();
    const refunded = Number(order.refunded_cents) + pending.amountCents;
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
      amountCents: pending.amountCents,
      refundedCents: refunded,
      full,
      provider: pending.provider,
      providerRefundId,
      ...(pending.reason ? { reason: pending.reason } : {}),
    });
    if (pending.returnLines.length) {
      // Checked when asked; a line another return emptied meanwhile gives back what is still out.
      const out = await orderStockOut(trx, orderId);
      const lines = pending.returnLines.map(withVariant).map((l) => ({
        ...l,
        quantity: Math.min(l.quantity, out.get(l.variantId)?.out ?? 0),
      }));
      await returnUnits(trx, order, stock, lines, actor, 'refunded');
    }
    // Refunded in full: the sale is undone, so its coupon use comes back and its points go (once).
    if (full) await giveBackCouponAndPoints(trx, order, actor, 'refunded');
    await recordAudit(trx, {
      by: { actorId: actor.userId, actingAsId: actor.actingAsUserId ?? null },
      action: 'order.refunded',
      targetUserId: order.user_id,
      details: { orderId, orderNumber: order.order_number, refundId: pending.id, amountCents: pending.amountCents, full },
    });
    if (options.alsoInTransaction) return options.alsoInTransaction(trx, order, stock);
    // Refunded in full before it shipped: nothing is left to send, so the order is cancelled (what
    // the owner chose to return stays as chosen; the refund's e-mail below is the customer's news).
    if (full && options.cancelUnshipped !== false && order.status !== 'cancelled' && !hasShipped(order) && order.label_state === null)
      await changeStatusLocked(trx, dialect, order, 'cancelled', stock, {
        actor,
        returnLines: [],
        notify: false,
        cause: ORDER_STATE_MESSAGES.cancelledByFullRefund,
      });
    const user = order.user_id
      ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', order.user_id).executeTakeFirst()
      : undefined;
    const to = order.email ?? user?.email;
    if (to) {
      const address = parseJson<{ name?: string } | string | null>(order.shipping_address, null);
      await queueEmail(trx, {
        to,
        orderId,
        actor,
        templateId: options.templateId ?? 'order-refunded',
        variables: {
          ...options.variables,
          orderNumber: order.order_number,
          customerName: user?.full_name ?? (typeof address === 'object' && address?.name) ?? 'Customer',
          refundAmount: formatCents(pending.amountCents),
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
 * Asks again for a refund the provider never answered (it stays pending, its amount held back):
 * under the same idempotency key, so it is made at most once whatever happened to the first request.
 */
export async function retryRefund(
  db: Kysely<Database>,
  deps: RefundDeps,
  orderId: string,
  refundId: string,
  actor: OrderEventActor,
): Promise<{ refund: RefundView }> {
  const row = await db
    .selectFrom('refunds as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.id', 'r.status', 'r.provider', 'r.amount_cents', 'r.return_lines', 'r.reason', 'r.created_at', 'o.payment_session_id'])
    .where('r.id', '=', refundId)
    .where('r.order_id', '=', orderId)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, ORDER_MONEY_MESSAGES.refundNotFound);
  if (row.status !== 'pending') throw new HttpError(409, ORDER_MONEY_MESSAGES.refundSettled);
  // Stripe keeps an idempotency key for 24 hours: past that a retry could refund a second time.
  if (row.provider === 'stripe' && Date.now() - Date.parse(row.created_at) > RETRY_WINDOW_MS)
    throw new HttpError(409, ORDER_MONEY_MESSAGES.retryTooLate);
  return settleRefund(
    db,
    deps,
    orderId,
    {
      id: row.id,
      provider: row.provider,
      payment_session_id: row.payment_session_id,
      amountCents: Number(row.amount_cents),
      returnLines: parseJson<ReturnLine[]>(row.return_lines, []),
      reason: row.reason,
    },
    actor,
  );
}

/**
 * Paid orders stay on the books: only unpaid checkouts and orders the owner entered (no payment
 * provider, never paid) may be deleted. Their refunds and timeline go with them (a deletable
 * order has no refunds).
 */
export async function deleteOrderIfUnpaid(db: Kysely<Database>, orderId: string, actor: OrderEventActor): Promise<void> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    // An order typed in with products holds its units: they go back before it goes (products locked first).
    const stock = await lockOrderProducts(trx, dialect, orderId);
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (tookMoney(order) || Number(order.refunded_cents) > 0) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    const refunds = await trx.selectFrom('refunds').select('id').where('order_id', '=', orderId).limit(1).execute();
    if (refunds.length) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    if (order.payment_provider === null) await returnUnits(trx, order, stock, await allOut(trx, orderId), actor, 'deleted');
    await trx.deleteFrom('orders').where('id', '=', orderId).execute();
    // The order's timeline goes with it: who deleted it stays in the audit log.
    await recordAudit(trx, {
      by: { actorId: actor.userId, actingAsId: actor.actingAsUserId ?? null },
      action: 'order.deleted',
      targetUserId: order.user_id,
      details: { orderId, orderNumber: order.order_number },
    });
  });
}
