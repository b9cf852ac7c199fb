import type { PaymentProviders } from '../payments/provider.js';
import { offlinePaymentProviders } from '../payments/providers.js';
import { adoptHostedPage } from '../payments/sessions.js';
import { refundSoldOutOrder } from '../orders/sold-out-refund.js';
import { recordOrderEvent } from '../orders/events.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { planEachOnce } from '../db/pg-connection.js';
import { GuardFailedAtCommit } from '../db/pg-commit-tail.js';
import { isPostgres } from '../db/query-helpers.js';
import { lapseReservations, sweepReservations } from '../inventory/reservations.js';
import { lockOrderRows, type LockedOrderRows } from './fulfilment/lock-order-rows.js';
import { paymentRefusal, type ProviderPayment } from './fulfilment/check-payment.js';
import { recordStrayPayment, refundStrayPayment } from '../payments/stray-payments.js';
import type { StrayPaymentReason } from '../db/schema.js';
import { stockShortfall, takeStock } from './fulfilment/take-stock.js';
import { markOrderPaid, markOrderPaidWrites } from './fulfilment/mark-order-paid.js';
import { redeemCoupon } from './fulfilment/redeem-coupon.js';
import { awardLoyalty } from '../orders/paid/award-loyalty.js';
import { startOrderSubscriptions } from './fulfilment/start-subscriptions.js';
import { queueConfirmation } from '../orders/paid/queue-confirmation.js';
import { newOrderShopEmailWrites } from '../email/shop-notifications.js';
import { orderLineOptions } from '../catalog/line-options.js';
import { removeBoughtFromSavedCart } from '../cart/saved-carts.js';
import { pointOrderAtSession, touchUnpaidOrder } from '../orders/checkout-state.js';
import { variantOfLine } from '../../shared/variants.js';
import { HOLD_TTL_MS } from './hold-times.js';
import { endOpenSession } from '../orders/end-open-session.js';

// The payment pages' lives are payments' (payments/session-times.ts); the holds outlast them (./hold-times.ts).
import { PAYMENT_SESSION_TTL_MS, PROVIDER_SESSION_TTL_MS } from '../payments/session-times.js';
export { PAYMENT_SESSION_TTL_MS, PROVIDER_SESSION_TTL_MS, HOLD_TTL_MS };
// Checkout creation is named steps (./create/); what callers used from here stays importable here.
export { createCheckout } from './create/create-checkout.js';
export { endOpenSession };

/**
 * The hosted payment page exists: the local session takes the provider's session id (its primary
 * key) and page, and the order points at it, in one transaction.
 */
export async function adoptProviderSession(
  db: Kysely<Database>,
  local: { sessionId: string; orderId: string },
  remote: { id: string; url: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await adoptHostedPage(trx, local.sessionId, remote);
    await pointOrderAtSession(trx, local.orderId, remote.id);
  });
}

type FulfilResult = {
  fulfilled: boolean;
  orderId: string;
  /** Set when the payment could not be taken for its order (check-payment.ts): why. */
  refused?: StrayPaymentReason;
  /** A refused payment the provider took (Stripe): recorded, and refunded after the commit. */
  strayId?: string;
  /** The buyer's account, when one paid: its saved cart loses the bought lines after the commit. */
  userId?: string | null;
  /** Set when the payment came after its reservation lapsed and units were gone: what was short (refunded in full). */
  soldOut?: string[];
};

/**
 * The one step that turns a payment into an order, for every provider. Named steps
 * (./fulfilment/) run in order in one transaction: lock the order's rows in the shop's one lock
 * order (or stop: paid already), mark the order paid, count the coupon use, award loyalty points,
 * start its subscriptions (subscription lines: issue [4/8]), queue the confirmation, and last take the stock, with one conditional update per item, so a sale's
 * stock row is locked only until the commit right after (decision 0023). Running it twice, or twice
 * at once, changes nothing the second time.
 *
 * A payment that came after its reservation lapsed, for units someone else bought meanwhile (the
 * rare loser of a race, decision 0022), takes no stock, counts no coupon use and earns no points
 * (that transaction is rolled back and the shortfall recorded in one of its own): the order is recorded paid with what fell short, then refunded in full and cancelled, and the
 * shopper gets the `order-sold-out` apology (orders/sold-out-refund.ts). Should the provider not refund, the
 * order keeps its "Stock short" flag and its failed or pending refund for the owner.
 */
export async function fulfilPaymentSession(
  db: Kysely<Database>,
  dialect: Dialect,
  sessionId: string,
  ctx: {
    publicUrl: string;
    now?: Date;
    /** The app's payment providers (a refused or sold-out payment is refunded through them); none: the offline ones. */
    payments?: PaymentProviders;
    log?: { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void };
    /** What the provider says it took, when it says (Stripe's session): checked against the order's total. */
    paid?: ProviderPayment | null;
  },
): Promise<FulfilResult> {
  const now = ctx.now ?? new Date();
  let result: FulfilResult | null = null;
  // On PostgreSQL the take goes with the COMMIT, guarded (db/pg-commit-tail.ts); when its guard
  // fails (units short, or an alert to send), the payment runs again taking the careful way.
  let takeAtCommit = dialect === 'postgres';
  // A shortfall found by the take is recorded in a transaction of its own (the take's writes are
  // rolled back); should the units be back by then, the payment takes them after all.
  for (let attempt = 1; result === null; attempt++) {
    try {
      result = await transactionWithRetry(db, async (trx): Promise<FulfilResult> => {
        await planEachOnce(trx);
        const locked = await lockOrderRows(trx, dialect, sessionId);
        if (locked.alreadyPaid) return { fulfilled: false, orderId: locked.orderId };
        const refused = await refuseStrayPayment(trx, locked.rows, ctx.paid ?? null, now);
        if (refused) return refused;
        // The order marked paid is written with its confirmation e-mail (one round trip on PostgreSQL).
        const paid = await markOrderPaidWrites(trx, locked.rows, [], now);
        await redeemCoupon(trx, locked.rows, now);
        await awardLoyalty(trx, locked.rows, now);
        // Subscription lines start their subscriptions (a guest's account made first), told in the confirmation.
        const subscribed = await startOrderSubscriptions(trx, locked.rows, { payment: ctx.paid ?? null, now, publicUrl: ctx.publicUrl });
        const rows = subscribed?.rows ?? locked.rows;
        // The shop's own "new order" e-mail goes with them (email/shop-notifications.ts): once, as the payment is.
        await queueConfirmation(
          trx,
          rows,
          ctx.publicUrl,
          [...paid, ...(await newOrderShopEmailWrites(trx, rows, ctx.publicUrl, () => orderLineOptions(trx, rows.items)))],
          subscribed?.confirmation ?? null,
        );
        // Last, so the stock rows stay locked only until the commit (decision 0023). An order the
        // owner typed in took its units when it was entered (orders/owner-orders.ts).
        const shortfall = rows.order.origin === 'owner' ? [] : await takeStock(trx, rows, now, takeAtCommit);
        if (shortfall.length) throw new SoldOutMeanwhile([...new Set(rows.items.map((i) => variantOfLine(i.product_id, i.variant_id)))]);
        return { fulfilled: true, orderId: rows.order.id, userId: rows.order.user_id };
      });
    } catch (err) {
      if (err instanceof GuardFailedAtCommit && takeAtCommit) {
        takeAtCommit = false;
        continue;
      }
      if (!(err instanceof SoldOutMeanwhile)) throw err;
      // Recounted, not trusted: holds whose firm time ran out but that the watcher has not counted
      // out yet (up to its 250 ms) keep nothing from this payer. Committed on its own, as the
      // watcher's count is, so the take that follows sees it (decision 0042).
      await transactionWithRetry(db, (trx) => lapseReservations(trx, now, err.variantIds));
      result = await transactionWithRetry(db, async (trx): Promise<FulfilResult | null> => {
        const locked = await lockOrderRows(trx, dialect, sessionId);
        if (locked.alreadyPaid) return { fulfilled: false, orderId: locked.orderId };
        const { rows } = locked;
        const refused = await refuseStrayPayment(trx, rows, ctx.paid ?? null, now);
        if (refused) return refused;
        const shortfall = await stockShortfall(trx, rows, now);
        if (shortfall.length === 0 && attempt < 3) throw new UnitsBack();
        await markOrderPaid(trx, rows, shortfall, now);
        return { fulfilled: true, orderId: rows.order.id, userId: rows.order.user_id, soldOut: shortfall };
      }).catch((e: unknown) => {
        if (e instanceof UnitsBack) return null;
        throw e;
      });
    }
  }
  if (result.fulfilled && result.userId) {
    const { orderId, userId } = result;
    await removeBoughtFromSavedCart(db, userId, orderId, now).catch((err: unknown) => {
      // The cart keeps those lines (the confirmation page takes them out in the browser that paid).
      (ctx.log ?? console).error({ err, orderId }, 'could not take the bought lines out of the saved cart');
    });
  }
  const providers = ctx.payments ?? offlinePaymentProviders(ctx.publicUrl);
  if (result.strayId) {
    const { strayId, orderId } = result;
    // A failure leaves the row failed (the owner's, on the order and the dashboard) or refunding (asked again by the worker).
    await refundStrayPayment(db, providers, strayId, recordOrderEvent).catch((err: unknown) => {
      (ctx.log ?? console).error({ err, orderId, strayId }, 'the automatic refund of a stray payment failed');
    });
  }
  if (result.soldOut) {
    await refundSoldOutOrder(db, { payments: providers }, result.orderId, result.soldOut).catch((err: unknown) => {
      // The order keeps its "Stock short" flag and the refund its state: the owner settles it.
      (ctx.log ?? console).error({ err, orderId: result.orderId }, 'the automatic refund of a sold-out order failed');
    });
  }
  return result;
}

/**
 * A payment this order may not take (paid another way, cancelled, its session ended or replaced,
 * its total changed), judged on the locked rows: the built-in card page takes no money and says
 * so; a provider's payment is recorded for its refund. Null when the payment is the order's.
 */
async function refuseStrayPayment(
  trx: Kysely<Database>,
  rows: LockedOrderRows,
  paid: ProviderPayment | null,
  now: Date,
): Promise<FulfilResult | null> {
  const reason = paymentRefusal(rows, paid, now);
  if (!reason) return null;
  if (rows.session.provider === 'test') return { fulfilled: false, orderId: rows.order.id, refused: reason };
  const strayId = await recordStrayPayment(trx, rows, reason, paid, now, recordOrderEvent);
  return { fulfilled: false, orderId: rows.order.id, refused: reason, strayId };
}

/** Thrown to roll back a payment's transaction whose take found units gone. */
class SoldOutMeanwhile extends Error {
  constructor(readonly variantIds: string[]) {
    super('sold out meanwhile');
  }
}
/** Thrown to roll back the shortfall's transaction when the units were back: the payment takes them after all. */
class UnitsBack extends Error {}

/** A declined card leaves the order unpaid and the session open, so the shopper may try again. */
export async function recordDeclinedPayment(db: Kysely<Database>, sessionId: string): Promise<void> {
  const session = await db.selectFrom('payment_sessions').select('order_id').where('id', '=', sessionId).executeTakeFirst();
  if (!session) return;
  await touchUnpaidOrder(db, session.order_id);
}

/** Ends an unpaid session (cancelled by the shopper or run out): its stock and coupon hold end. */
export async function expirePaymentSession(db: Kysely<Database>, sessionId: string, reason: 'cancelled' | 'expired'): Promise<void> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    const seen = await trx.selectFrom('payment_sessions').select(['order_id', 'status']).where('id', '=', sessionId).executeTakeFirst();
    if (!seen || seen.status !== 'open') return;
    await endOpenSession(trx, dialect, seen.order_id, sessionId, reason);
  });
}

/**
 * Housekeeping: sessions whose holds have run out (HOLD_TTL_MS after they opened, some minutes
 * after the payment page closed) are closed. Holds stop counting at their expiry even before this.
 */
export async function expireStaleSessions(db: Kysely<Database>, now = new Date()): Promise<number> {
  const holdsEnded = new Date(now.getTime() - (HOLD_TTL_MS - PAYMENT_SESSION_TTL_MS));
  const stale = await db
    .selectFrom('payment_sessions')
    .select('id')
    .where('status', '=', 'open')
    .where('expires_at', '<=', holdsEnded.toISOString())
    .limit(500)
    .execute();
  for (const s of stale) await expirePaymentSession(db, s.id, 'expired');
  // Ended reservations are kept while they count for their holder's window, then go.
  await sweepReservations(db, now, 2 * HOLD_TTL_MS);
  return stale.length;
}
