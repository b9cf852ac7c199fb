import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import type { CouponCustomer } from '../coupons/service.js';
import { HttpError } from '../http/errors.js';
import { CHECKOUT_MESSAGES, type CartLineInput, type Quote } from '../../shared/schemas/checkout.js';
import { MAX_ORDER_TOTAL_CENTS } from '../../shared/money.js';
import { defaultVariantIdOf } from '../../shared/variants.js';
import { mergeLines, type StockView } from './pricing/lines.js';
import { readTerms } from './pricing/terms.js';
import { readCheckoutStock } from './pricing/checkout-stock.js';
import { readQuoteStock } from './pricing/quote-stock.js';
import { priceLines } from './pricing/price-lines.js';
import { applyCoupon } from './pricing/apply-coupon.js';
import { markStock } from './pricing/mark-stock.js';
import { cartTotals } from './pricing/totals.js';
import { plansForVariants } from '../lib/subscription-plans.js';

/** Who is pricing: the shopper, for the coupon's one-per-customer rule (coupons/service.ts). */
export type PricingContext = CouponCustomer;

export type PricedCart = Quote & {
  couponId: string | null;
  /** Checkout (lock) only: each variant's stock item and SKU, read with its price (for the reservation and the order's lines). */
  variants?: ReadonlyMap<string, { itemId: string | null; sku: string | null }>;
  /** Lines of a product sold in versions (it has options) that named none: the product and its option names. */
  unchosen: { name: string; optionNames: string[] }[];
};

/**
 * A priced cart past the order ceiling ($999,999.99) is refused, on the quote (routes.ts) and at
 * checkout alike (checkout/create/check-bounds.ts).
 */
export function assertOrderWithinBounds(priced: { totalCents: number }): void {
  if (priced.totalCents > MAX_ORDER_TOTAL_CENTS) throw new HttpError(400, CHECKOUT_MESSAGES.orderTooLarge);
}

/**
 * Prices a cart from the database: each line from its variant (current names, prices and stock,
 * less what open checkouts keep; a subscription line less its plan's discount), the coupon and its free gift, the shipping options the subtotal
 * allows, and the totals, as named steps (./pricing/). With `lock` (checkout), everything is read
 * fresh and the coupon row is locked for the rest of the transaction (its limits are counted under
 * it), then `afterLocks` runs. Stock is not locked: the checkout reserves it last, with one
 * conditional update per item (inventory/reservations.ts, decision 0023); the figures here only let
 * a cart already short be told so at once.
 */
export async function priceCart(
  db: Kysely<Database>,
  dialect: Dialect,
  input: { lines: CartLineInput[]; couponCode: string | null; shippingOptionId?: string | null },
  ctx: PricingContext,
  { lock = false, afterLocks }: { lock?: boolean; afterLocks?: () => Promise<void> } = {},
): Promise<PricedCart> {
  const lines = mergeLines(input.lines);
  const { coupon, options } = await readTerms(db, dialect, input.couponCode, lock);
  // The coupon's gift: the variant it names, else its product's first enabled variant with a unit to give.
  const giftProductId = coupon?.free_product_id ?? null;
  const giftId = giftProductId ? (coupon?.free_variant_id ?? defaultVariantIdOf(giftProductId)) : null;
  const ids = [...new Set([...lines.map((l) => l.variantId), ...(giftId ? [giftId] : [])])].sort();
  const gift = { giftProductId, giftVariantId: coupon?.free_variant_id };
  let stock: StockView;
  if (lock) {
    if (afterLocks) await afterLocks();
    stock = await readCheckoutStock(db, { ids, lines, ...gift, now: ctx.now });
  } else {
    stock = await readQuoteStock(db, { ids, lines, giftId, ...gift }, ctx);
  }
  const { variants, levels, held, checkoutVariants } = stock;
  const available = (id: string) => Math.max(0, (levels.get(id) ?? 0) - (held.get(id) ?? 0));
  // Subscription lines (issue [4/8]) are priced with their plan: one indexed read, only for a cart that has one.
  const subscribed = lines.filter((l) => l.everyWeeks !== null);
  const plans = subscribed.length ? await plansForVariants(db, subscribed) : undefined;
  const { quoteLines, wanted, unchosen } = priceLines(lines, new Map(variants.map((v) => [v.variantId, v])), available, plans);
  const { couponError, applied } = await applyCoupon(db, coupon, ctx, {
    couponCode: input.couponCode,
    lock,
    quoteLines,
    variants,
    wanted,
    available,
  });
  await markStock(db, quoteLines, { wanted, levels, held, available, lock }, ctx);
  return {
    lines: quoteLines,
    coupon: applied,
    couponError,
    couponId: applied && coupon ? coupon.id : null,
    ...cartTotals(quoteLines, applied, options, input.shippingOptionId),
    ...(checkoutVariants ? { variants: checkoutVariants } : {}),
    unchosen,
  };
}
