import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Dialect } from '../../db/database.js';
import { lockShopperKeys } from '../../db/locks.js';
import { priceCart, type PricedCart } from '../../cart/service.js';
import { holderReservations, type GiveBack, type HolderReservations } from '../../inventory/reservations.js';
import { HOLD_TTL_MS } from '../hold-times.js';
import { endEarlierCheckouts } from './end-earlier-checkouts.js';
import type { CheckoutContext, CheckoutInput, Holder, SupersededSession } from './types.js';

export type PricedAndLocked = {
  priced: PricedCart;
  /** The shopper's reservations, read once under their locks (one statement). */
  mine: HolderReservations;
  /** The browser's earlier checkouts this one ended. */
  superseded: SupersededSession[];
  /** Their units, given back with this checkout's reservation (one write per item). */
  giveBack: GiveBack;
};

/**
 * Re-prices the cart from the database under the checkout's locks, in the shop's one lock order
 * (decision 0023): the coupon row (priceCart), then the shopper's keys (IP, browser, account), then
 * the browser's earlier checkouts (each order, then its session), which end here. Stock is not
 * locked: it is reserved last (reserve-stock.ts), so its rows stay locked only until the commit.
 */
export async function priceAndLock(
  trx: Kysely<Database>,
  dialect: Dialect,
  input: CheckoutInput,
  ctx: CheckoutContext,
  who: Holder,
): Promise<PricedAndLocked> {
  const superseded: SupersededSession[] = [];
  const giveBack: GiveBack = new Map();
  let mine: HolderReservations | undefined;
  const priced = await priceCart(
    trx,
    dialect,
    { lines: input.items, couponCode: input.appliedCouponCode, shippingOptionId: input.shippingOptionId },
    { userId: ctx.userId, deviceHash: ctx.deviceHash, now: ctx.now, email: who.email },
    {
      lock: true,
      afterLocks: async () => {
        const keys = [`hold:ip:${who.ip}`, `hold:device:${who.deviceId}`, ...(who.userId ? [`hold:user:${who.userId}`] : [])];
        await lockShopperKeys(trx, dialect, keys);
        mine = await holderReservations(trx, who, ctx.now, HOLD_TTL_MS);
        superseded.push(...(await endEarlierCheckouts(trx, dialect, mine.ordersOfDevice, giveBack)));
      },
    },
  );
  mine ??= await holderReservations(trx, who, ctx.now, HOLD_TTL_MS);
  return { priced, mine, superseded, giveBack };
}
