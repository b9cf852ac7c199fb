import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Dialect } from '../../db/database.js';
import { transactionWithRetry } from '../../db/locks.js';
import { planEachOnce } from '../../db/pg-connection.js';
import { GuardFailedAtCommit } from '../../db/pg-commit-tail.js';
import type { PendingWrite } from '../../db/query-helpers.js';
import { newOrderId } from '../../orders/create-order.js';
import { normalizeCouponEmail } from '../../../shared/coupons.js';
import { HOLD_TTL_MS } from '../hold-times.js';
import { priceAndLock } from './price-and-lock.js';
import { checkBounds } from './check-bounds.js';
import { checkUnitCap } from './check-unit-cap.js';
import { createCheckoutOrder } from './create-checkout-order.js';
import { newCheckoutSessionId, openPayment } from './open-payment.js';
import { holdCoupon } from './hold-coupon.js';
import { reserveStock } from './reserve-stock.js';
import { checkSubscriber, checkSubscriptionLines, hasSubscriptionLines } from './check-subscriptions.js';
import { consentWrite } from '../../subscriptions/consents.js';
import type { CheckoutContext, CheckoutInput, CreatedCheckout, Holder } from './types.js';

/**
 * Re-prices the cart from the database, checks stock, the coupon and the bounds, and creates a
 * pending order with a payment session that holds its stock and coupon use (HOLD_TTL_MS), as named
 * steps in one transaction (./create/, as ./fulfilment/ is for a payment). Rows are locked in the
 * shop's one order (decision 0023, which replaced 0005's): the coupon row, the shopper's keys, the
 * browser's earlier orders and their sessions, and the stock items last, with one conditional
 * update each, so concurrent checkouts cannot both take the last unit and a stock row stays locked
 * only until the commit. A deadlock or serialization failure is retried rather than answered with a 500.
 */
export async function createCheckout(
  db: Kysely<Database>,
  dialect: Dialect,
  input: CheckoutInput,
  ctx: CheckoutContext,
): Promise<CreatedCheckout> {
  // Subscription lines: the terms ticked, a guest's e-mail free (before anything is locked).
  await checkSubscriber(db, input, ctx);
  // On PostgreSQL the stock is reserved with the COMMIT, guarded (db/pg-commit-tail.ts); should a
  // unit be gone by then, the checkout runs again the careful way, which says what is short.
  if (dialect === 'postgres') {
    try {
      return await createCheckoutOnce(db, dialect, input, ctx, true);
    } catch (err) {
      if (!(err instanceof GuardFailedAtCommit)) throw err;
    }
  }
  return createCheckoutOnce(db, dialect, input, ctx, false);
}

function createCheckoutOnce(
  db: Kysely<Database>,
  dialect: Dialect,
  input: CheckoutInput,
  ctx: CheckoutContext,
  reserveAtCommit: boolean,
): Promise<CreatedCheckout> {
  const who: Holder = { ip: ctx.ip, deviceId: ctx.deviceHash, userId: ctx.userId, email: normalizeCouponEmail(input.customerEmail) };
  return transactionWithRetry(db, async (trx) => {
    await planEachOnce(trx);
    const { priced, mine, superseded, giveBack } = await priceAndLock(trx, dialect, input, ctx, who);
    checkSubscriptionLines(priced);
    await checkBounds(trx, priced, ctx.now);
    checkUnitCap(priced, mine, superseded, ctx.maxUnitsHeld);
    const orderId = newOrderId();
    const sessionId = newCheckoutSessionId(ctx.provider);
    const expiresAt = new Date(ctx.now.getTime() + HOLD_TTL_MS);
    // The order, its lines, search terms and first event, and its payment session are written with
    // the stock reservation (one round trip on PostgreSQL), or, with a coupon, before its hold.
    const writes: PendingWrite[] = [];
    await createCheckoutOrder(trx, { orderId, sessionId, priced, input, ctx }, writes);
    // The subscription terms the shopper ticked, as built from these very lines (issue [4/8]).
    const consent = consentWrite(trx, { orderId, lines: priced.lines, acceptedAt: ctx.now });
    if (consent) writes.push(consent);
    const { url } = openPayment(trx, { orderId, sessionId, amountCents: priced.totalCents, ctx }, writes);
    await holdCoupon(trx, { orderId, priced, who, expiresAt }, writes);
    const stock = {
      orderId,
      priced,
      who,
      now: ctx.now,
      expiresAt,
      giveBack,
      atCommit: reserveAtCommit,
      firstByProduct: mine.firstByProduct,
    };
    await reserveStock(trx, stock, writes);
    // The payment page keeps the card for the renewals (the provider's part: payments/).
    const keepMethod = hasSubscriptionLines(input);
    return { orderId, sessionId, url, amountCents: priced.totalCents, superseded, keepMethod };
  });
}
