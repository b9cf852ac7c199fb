import type Stripe from 'stripe';
import { newOrderSearchInsert } from '../orders/search-terms.js';
import { refundSoldOutOrder } from '../orders/refunds.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, lockShopperKeys, transactionWithRetry } from '../db/locks.js';
import { GuardFailedAtCommit } from '../db/pg-commit-tail.js';
import { isPostgres, writeTogether, type PendingWrite } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { nowIso, randomString } from '../lib/ids.js';
import { CUSTOMER_ACTOR, orderEventInsert, type OrderEventActor } from '../orders/events.js';
import { recordAudit } from '../accounts/audit.js';
import { formatCents, MAX_ORDER_TOTAL_CENTS } from '../../shared/money.js';
import { normalizeCouponEmail } from '../../shared/coupons.js';
import { CHECKOUT_MESSAGES, type CreateCheckoutSessionInput } from '../../shared/schemas/checkout.js';
import { priceCart, type PricedCart } from '../cart/service.js';
import { holdCouponUse } from '../coupons/service.js';
import { releaseHolds } from './release-holds.js';
import { INVENTORY_MESSAGES } from '../../shared/schemas/inventory.js';
import {
  holderReservations,
  reservedByVariant,
  reserveForCheckout,
  sweepReservations,
  type GiveBack,
  type HolderReservations,
  type Holder as StockHolder,
  type ReserveUnits,
} from '../inventory/reservations.js';
import { lockOrderRows, type LockedOrderRows } from './fulfilment/lock-order-rows.js';
import { paymentRefusal, type ProviderPayment } from './fulfilment/check-payment.js';
import { recordStrayPayment, refundStrayPayment } from '../payments/stray-payments.js';
import type { StrayPaymentReason } from '../db/schema.js';
import { stockShortfall, takeStock } from './fulfilment/take-stock.js';
import { markOrderPaid, markOrderPaidWrites } from './fulfilment/mark-order-paid.js';
import { redeemCoupon } from './fulfilment/redeem-coupon.js';
import { awardLoyalty } from './fulfilment/award-loyalty.js';
import { queueConfirmation } from './fulfilment/queue-confirmation.js';
import { newOrderShopEmailWrites } from '../email/shop-notifications.js';
import { deliveryChoiceData } from '../orders/delivery-choice.js';
import { removeBoughtFromSavedCart } from '../cart/saved-carts.js';
import { endPaymentSessions } from '../payments/service.js';

/** How long the shopper may pay: the built-in card page refuses after this. */
export const PAYMENT_SESSION_TTL_MS = 30 * 60_000;
/** Stripe's session lives a minute longer (its floor is 30 minutes; the minute absorbs clock skew). */
export const PROVIDER_SESSION_TTL_MS = PAYMENT_SESSION_TTL_MS + 60_000;
/** What holds add to the longest payment page: a payment made in its last second, a late webhook, clock skew. */
const HOLD_MARGIN_MS = 10 * 60_000;
/**
 * How long a checkout's stock and coupon holds last: longer than any payment page, so a payment
 * the provider accepts always finds its units still held (41 minutes).
 */
export const HOLD_TTL_MS = PROVIDER_SESSION_TTL_MS + HOLD_MARGIN_MS;

type CheckoutContext = {
  userId: string | null;
  deviceHash: string;
  /** The shopper's address, for the cap on units one shopper may hold. */
  ip: string;
  /** Units one shopper (same IP, browser or account) may hold across open checkouts at once (config). */
  maxUnitsHeld: number;
  now: Date;
  provider: string;
  /** Builds the provider's payment page address for a new session id. */
  sessionUrl: (sessionId: string) => string;
  /** Who places it: the customer, or an admin acting as them (named on the timeline and in the audit log). */
  actor?: OrderEventActor;
};

/** An earlier unpaid checkout of the same browser that a new checkout ended (a Stripe one is also expired at Stripe). */
type SupersededSession = { sessionId: string; provider: string; orderId: string };

type CreatedCheckout = { orderId: string; sessionId: string; url: string; amountCents: number; superseded: SupersededSession[] };

export function newOrderId(): string {
  return `order_${Date.now()}_${randomString(9)}`;
}

type Holder = StockHolder & { email: string };

/**
 * The session reserves its units (kept from other shoppers for the holder's 10 minutes, theirs
 * while their payment page is open; inventory/reservations.ts) and holds its coupon use, in the
 * holder's name. The stock comes last, so the items' rows are locked only until the commit right
 * after (decision 0023); units the browser's earlier checkout gave back are netted in. 409 when a
 * product is short (the transaction rolls back).
 */
async function holdForSession(
  db: Kysely<Database>,
  input: {
    orderId: string;
    priced: PricedCart;
    now: Date;
    who: Holder;
    giveBack: GiveBack;
    /** The order's own rows, written with the reservation (one round trip on PostgreSQL) or, with a coupon, before its hold. */
    orderWrites: PendingWrite[];
    /** PostgreSQL: the stock is reserved with the COMMIT (reserveForCheckout). */
    atCommit: boolean;
    /** The holder's first reservation of each product in the window (holderReservations). */
    firstByProduct?: Map<string, string>;
  },
): Promise<void> {
  const { orderId, priced, who, now } = input;
  const expiresAt = new Date(now.getTime() + HOLD_TTL_MS);
  let orderWrites = input.orderWrites;
  // The coupon's max_uses and one-per-customer checks ran under its row lock in priceCart (coupons/service.ts).
  if (priced.coupon) {
    await writeTogether(db, orderWrites);
    orderWrites = [];
    await holdCouponUse(db, {
      orderId,
      couponCode: priced.coupon.code,
      expiresAt: expiresAt.toISOString(),
      email: who.email,
      deviceId: who.deviceId,
      userId: who.userId,
    });
  }
  const units: ReserveUnits = new Map();
  for (const l of priced.lines) {
    const itemId = priced.variants?.get(l.variantId)?.itemId;
    // A variant with no stock item has nothing to sell (the line was priced as out of stock).
    if (!itemId) throw shortOfStock(l.name, 0, 0);
    units.set(l.variantId, { productId: l.productId, itemId, quantity: (units.get(l.variantId)?.quantity ?? 0) + l.quantity });
  }
  const { short } = await reserveForCheckout(db, {
    orderId,
    units,
    holder: who,
    now,
    expiresAt,
    windowMs: HOLD_TTL_MS,
    giveBack: input.giveBack,
    writeWith: orderWrites,
    atCommit: input.atCommit,
    firstByProduct: input.firstByProduct,
  });
  if (short) {
    const name = priced.lines.find((l) => l.variantId === short.variantId)?.name ?? short.productId;
    throw shortOfStock(name, short.onHand, short.reserved);
  }
}

/** 409 for a product short of stock: units other checkouts keep are said to be so, not "out of stock" (decision 0022). */
function shortOfStock(name: string, onHand: number, reserved: number): HttpError {
  const available = Math.max(0, onHand - reserved);
  return new HttpError(
    409,
    reserved > 0
      ? INVENTORY_MESSAGES.reservedElsewhere(name, available, Math.min(reserved, onHand))
      : CHECKOUT_MESSAGES.outOfStock(name, available),
  );
}

/**
 * A browser has one unpaid checkout at a time: a new one ends the browser's earlier open ones
 * (locking each order, then its session, in id order), so a shopper back from the payment page is
 * not refused by their own holds (stock, the unit cap, or the one-per-customer coupon).
 */
async function endEarlierCheckouts(
  trx: Kysely<Database>,
  dialect: Dialect,
  held: readonly string[],
  giveBack: GiveBack,
): Promise<SupersededSession[]> {
  const ended: SupersededSession[] = [];
  for (const order_id of held) {
    const session = await trx
      .selectFrom('payment_sessions')
      .select(['id', 'provider'])
      .where('order_id', '=', order_id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (session && (await endOpenSession(trx, dialect, order_id, session.id, 'expired', giveBack))) {
      ended.push({ sessionId: session.id, provider: session.provider, orderId: order_id });
    }
  }
  return ended;
}

/** A priced cart past the order ceiling ($999,999.99) is refused, on the quote and at checkout alike. */
export function assertOrderWithinBounds(priced: { totalCents: number }): void {
  if (priced.totalCents > MAX_ORDER_TOTAL_CENTS) throw new HttpError(400, CHECKOUT_MESSAGES.orderTooLarge);
}

/**
 * Re-prices the cart from the database, checks stock, the coupon and the bounds, and creates a
 * pending order with a payment session that holds its stock and coupon use (HOLD_TTL_MS). Rows
 * are locked in the shop's one order (products by id, coupon, the shopper's keys, then orders and
 * sessions; docs/decisions/0005), so concurrent checkouts cannot both take the last unit, and a
 * deadlock or serialization failure is retried rather than answered with a 500.
 */
export async function createCheckout(
  db: Kysely<Database>,
  dialect: Dialect,
  input: CreateCheckoutSessionInput & { appliedCouponCode: string | null },
  ctx: CheckoutContext,
): Promise<CreatedCheckout> {
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

async function createCheckoutOnce(
  db: Kysely<Database>,
  dialect: Dialect,
  input: CreateCheckoutSessionInput & { appliedCouponCode: string | null },
  ctx: CheckoutContext,
  reserveAtCommit: boolean,
): Promise<CreatedCheckout> {
  const who: Holder = { ip: ctx.ip, deviceId: ctx.deviceHash, userId: ctx.userId, email: normalizeCouponEmail(input.customerEmail) };
  return transactionWithRetry(db, async (trx) => {
    const superseded: SupersededSession[] = [];
    // The shopper's reservations, read once under their locks (one statement).
    let mine: HolderReservations | undefined;
    // Units of the browser's earlier checkout, given back with this one's reservation (one write per item).
    const giveBack: GiveBack = new Map();
    const priced = await priceCart(
      trx,
      dialect,
      { lines: input.items, couponCode: input.appliedCouponCode, shippingOptionId: input.shippingOptionId },
      { userId: ctx.userId, deviceHash: ctx.deviceHash, now: ctx.now, email: who.email },
      {
        lock: true,
        afterLocks: async () => {
          await lockShopperKeys(trx, dialect, [
            `hold:ip:${who.ip}`,
            `hold:device:${who.deviceId}`,
            ...(who.userId ? [`hold:user:${who.userId}`] : []),
          ]);
          mine = await holderReservations(trx, who, ctx.now, HOLD_TTL_MS);
          superseded.push(...(await endEarlierCheckouts(trx, dialect, mine.ordersOfDevice, giveBack)));
        },
      },
    );
    assertOrderWithinBounds(priced);
    if (priced.couponError) throw new HttpError(400, priced.couponError);
    if (priced.lines.some((l) => l.missing)) throw new HttpError(400, CHECKOUT_MESSAGES.missingProduct);
    // Never the first version in the shopper's stead: what they pay for is what they chose.
    const unchosen = priced.unchosen[0];
    if (unchosen) throw new HttpError(400, CHECKOUT_MESSAGES.chooseOptions(unchosen.name, unchosen.optionNames));
    // Short already as read: said at once (the reservation at the end is what decides).
    const short = priced.lines.find((l) => l.insufficientStock);
    if (short) {
      const reserved = (await reservedByVariant(trx, [short], ctx.now)).get(short.variantId) ?? 0;
      throw shortOfStock(short.name, short.inventory + reserved, reserved);
    }
    // No option ships this subtotal: refused (nothing can be delivered), with the spend that unlocks one.
    if (!priced.selectedShippingOptionId) {
      const unlock = priced.nextShippingUnlock;
      throw new HttpError(
        409,
        unlock
          ? `${CHECKOUT_MESSAGES.noShipping} ${CHECKOUT_MESSAGES.shippingUnlock(formatCents(unlock.amountCents), unlock.optionName)}`
          : CHECKOUT_MESSAGES.noShipping,
      );
    }
    const units = priced.lines.reduce((n, l) => n + l.quantity, 0);
    // Units still held: what the shopper's checkouts hold, less those of the checkouts just ended.
    mine ??= await holderReservations(trx, who, ctx.now, HOLD_TTL_MS);
    const ended = new Set(superseded.map((x) => x.orderId));
    const held = [...mine.unitsByOrder].reduce((n, [orderId, u]) => (ended.has(orderId) ? n : n + u), 0);
    if (held + units > ctx.maxUnitsHeld) {
      throw new HttpError(409, CHECKOUT_MESSAGES.holdLimit(ctx.maxUnitsHeld));
    }

    const orderId = newOrderId();
    const at = ctx.now.toISOString();
    const sessionId = `cs_${ctx.provider === 'stripe' ? 'live' : 'test'}_${randomString(24)}`;
    const address = { ...input.shippingAddress, country: 'US', email: input.customerEmail };
    const orderNumber = orderId.slice(-8).toUpperCase();
    const email = input.customerEmail.toLowerCase();
    const shippingAddress = JSON.stringify(address);
    const orderInsert = trx.insertInto('orders').values({
      id: orderId,
      order_number: orderNumber,
      user_id: ctx.userId,
      email,
      status: 'pending',
      payment_status: 'unpaid',
      payment_provider: ctx.provider,
      payment_session_id: sessionId,
      shipping_address: shippingAddress,
      billing_address: null,
      subtotal_cents: priced.subtotalCents,
      discount_cents: priced.discountCents,
      shipping_cents: priced.shippingCents,
      tax_cents: priced.taxCents,
      total_cents: priced.totalCents,
      coupon_code: priced.coupon?.code ?? null,
      shipping_option_id: priced.selectedShippingOptionId,
      shipstation_data: null,
      shipstation_tracking_number: null,
      guest_token_hash: ctx.deviceHash,
      created_at: at,
      updated_at: at,
      paid_at: null,
    });
    const placed = orderEventInsert(
      trx,
      orderId,
      'placed',
      ctx.actor ?? CUSTOMER_ACTOR,
      { totalCents: priced.totalCents, provider: ctx.provider, ...deliveryChoiceData(priced) },
      ctx.now,
    );
    const itemsInsert = trx.insertInto('order_items').values(
      priced.lines.map((l, i) => ({
        id: `${orderId}_item${i + 1}`,
        order_id: orderId,
        product_id: l.productId,
        variant_id: l.variantId,
        variant_label: l.variantLabel,
        product_name: l.productName,
        product_image: l.image,
        // The variant's SKU, read with its price.
        sku: priced.variants?.get(l.variantId)?.sku ?? null,
        quantity: l.quantity,
        price_cents: l.priceCents,
        size: l.size,
        color: l.color,
        is_free_gift: l.isFreeGift ? 1 : 0,
      })),
    );

    const expiresAt = new Date(ctx.now.getTime() + PAYMENT_SESSION_TTL_MS).toISOString();
    const url = ctx.sessionUrl(sessionId);
    const sessionInsert = trx.insertInto('payment_sessions').values({
      id: sessionId,
      order_id: orderId,
      provider: ctx.provider,
      status: 'open',
      amount_cents: priced.totalCents,
      url,
      created_at: at,
      expires_at: expiresAt,
      completed_at: null,
    });
    // The order, its search terms (from the row at hand and the account's e-mail and name), its
    // lines, its timeline's first event and its payment session are written with the stock
    // reservation: one round trip on PostgreSQL.
    const account = ctx.userId
      ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', ctx.userId).executeTakeFirst()
      : undefined;
    const orderWrites = [
      orderInsert,
      newOrderSearchInsert(trx, {
        id: orderId,
        order_number: orderNumber,
        email,
        shipping_address: shippingAddress,
        user_email: account?.email ?? null,
        full_name: account?.full_name ?? null,
        total_cents: priced.totalCents,
        // The SKUs came with the prices (no read of their own while the checkout's transaction is open).
        lines: priced.lines.map((l) => ({ name: l.name, sku: priced.variants?.get(l.variantId)?.sku ?? null })),
      }),
      itemsInsert,
      placed,
      sessionInsert,
    ];
    if (ctx.actor?.actingAsUserId) {
      const by = { actorId: ctx.actor.userId, actingAsId: ctx.actor.actingAsUserId };
      await recordAudit(trx, {
        by,
        action: 'order.placed',
        targetUserId: ctx.userId,
        details: { orderId, totalCents: priced.totalCents },
        at: ctx.now,
      });
    }
    await holdForSession(trx, {
      orderId,
      priced,
      now: ctx.now,
      who,
      giveBack,
      orderWrites,
      atCommit: reserveAtCommit,
      firstByProduct: mine.firstByProduct,
    });
    return { orderId, sessionId, url, amountCents: priced.totalCents, superseded };
  });
}

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
    await trx.updateTable('payment_sessions').set({ id: remote.id, url: remote.url }).where('id', '=', local.sessionId).execute();
    await trx.updateTable('orders').set({ payment_session_id: remote.id }).where('id', '=', local.orderId).execute();
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
 * queue the confirmation, and last take the stock, with one conditional update per item, so a sale's
 * stock row is locked only until the commit right after (decision 0023). Running it twice, or twice
 * at once, changes nothing the second time.
 *
 * A payment that came after its reservation lapsed, for units someone else bought meanwhile (the
 * rare loser of a race, decision 0022), takes no stock, counts no coupon use and earns no points
 * (that transaction is rolled back and the shortfall recorded in one of its own): the order is recorded paid with what fell short, then refunded in full and cancelled, and the
 * shopper gets the `order-sold-out` apology (orders/refunds.ts). Should the provider not refund, the
 * order keeps its "Stock short" flag and its failed or pending refund for the owner.
 */
export async function fulfilPaymentSession(
  db: Kysely<Database>,
  dialect: Dialect,
  sessionId: string,
  ctx: {
    publicUrl: string;
    now?: Date;
    stripe?: Stripe | null;
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
        const locked = await lockOrderRows(trx, dialect, sessionId);
        if (locked.alreadyPaid) return { fulfilled: false, orderId: locked.orderId };
        const { rows } = locked;
        const refused = await refuseStrayPayment(trx, rows, ctx.paid ?? null, now);
        if (refused) return refused;
        // The order marked paid is written with its confirmation e-mail (one round trip on PostgreSQL).
        const paid = await markOrderPaidWrites(trx, rows, [], now);
        await redeemCoupon(trx, rows, now);
        await awardLoyalty(trx, rows, now);
        // The shop's own "new order" e-mail goes with them (email/shop-notifications.ts): once, as the payment is.
        await queueConfirmation(trx, rows, ctx.publicUrl, [...paid, ...(await newOrderShopEmailWrites(trx, rows, ctx.publicUrl))]);
        // Last, so the stock rows stay locked only until the commit (decision 0023). An order the
        // owner typed in took its units when it was entered (orders/owner-orders.ts).
        const shortfall = rows.order.payment_provider === null ? [] : await takeStock(trx, rows, now, takeAtCommit);
        if (shortfall.length) throw new SoldOutMeanwhile();
        return { fulfilled: true, orderId: rows.order.id, userId: rows.order.user_id };
      });
    } catch (err) {
      if (err instanceof GuardFailedAtCommit && takeAtCommit) {
        takeAtCommit = false;
        continue;
      }
      if (!(err instanceof SoldOutMeanwhile)) throw err;
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
  if (result.strayId) {
    const { strayId, orderId } = result;
    // A failure leaves the row failed (the owner's, on the order and the dashboard) or refunding (asked again by the worker).
    await refundStrayPayment(db, ctx.stripe ?? null, strayId).catch((err: unknown) => {
      (ctx.log ?? console).error({ err, orderId, strayId }, 'the automatic refund of a stray payment failed');
    });
  }
  if (result.soldOut) {
    await refundSoldOutOrder(db, { stripe: ctx.stripe ?? null }, result.orderId, result.soldOut).catch((err: unknown) => {
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
  const strayId = await recordStrayPayment(trx, rows, reason, paid, now);
  return { fulfilled: false, orderId: rows.order.id, refused: reason, strayId };
}

/** Thrown to roll back a payment's transaction whose take found units gone. */
class SoldOutMeanwhile extends Error {}
/** Thrown to roll back the shortfall's transaction when the units were back: the payment takes them after all. */
class UnitsBack extends Error {}

/** A declined card leaves the order unpaid and the session open, so the shopper may try again. */
export async function recordDeclinedPayment(db: Kysely<Database>, sessionId: string): Promise<void> {
  const session = await db.selectFrom('payment_sessions').select('order_id').where('id', '=', sessionId).executeTakeFirst();
  if (!session) return;
  await db
    .updateTable('orders')
    .set({ updated_at: nowIso() })
    .where('id', '=', session.order_id)
    .where('payment_status', '=', 'unpaid')
    .execute();
}

/**
 * Ends an open session of an unpaid order, the order locked first and the session second (the
 * shop's one lock order): the session is expired, its holds released, the order marked expired
 * (or cancelled). False when there was nothing to end (already paid, or already ended).
 */
export async function endOpenSession(
  trx: Kysely<Database>,
  dialect: Dialect,
  orderId: string,
  sessionId: string,
  reason: 'cancelled' | 'expired',
  giveBack?: GiveBack,
): Promise<boolean> {
  const order = await forUpdate(
    trx.selectFrom('orders').select(['id', 'payment_status', 'payment_provider']).where('id', '=', orderId),
    dialect,
  ).executeTakeFirst();
  if (!order || order.payment_status === 'paid') return false;
  const ended = (await endPaymentSessions(trx, orderId, sessionId)) === 1;
  // A payment link the owner sent for an order they typed in: only the link ends; the order
  // stays as it was (unpaid, its units out for it, its status the owner's).
  if (order.payment_provider === null || !ended) return ended;
  await releaseHolds(trx, orderId, 'ended', giveBack);
  await trx
    .updateTable('orders')
    .set({ payment_status: 'expired', status: reason === 'cancelled' ? 'cancelled' : 'pending', updated_at: nowIso() })
    .where('id', '=', orderId)
    .where('payment_status', '=', 'unpaid')
    .execute();
  return true;
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
