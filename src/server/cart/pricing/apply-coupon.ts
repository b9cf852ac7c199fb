import type { Kysely, Selectable } from 'kysely';
import type { CouponsTable, Database } from '../../db/schema.js';
import type { VariantForPricing } from '../../lib/variant-pricing.js';
import { validateCouponForCart, type CouponCustomer } from '../../coupons/service.js';
import type { Quote, QuoteLine } from '../../../shared/schemas/checkout.js';
import { DEFAULT_CART_COLOR, DEFAULT_CART_SIZE } from '../../../shared/stored-cart.js';
import { lineTitle, sizeAndColor, variantLabel } from '../../../shared/variants.js';
import { giftCandidates } from './lines.js';
import { quoteLineOf } from './price-lines.js';

/**
 * The coupon on the priced lines: its limits (max_uses and one per customer, checked under the
 * coupon row lock at checkout; coupons/service.ts), and its free gift, the variant it names or its
 * product's first with a unit to give, added as a line of its own (and to `wanted`) when in stock.
 */
export async function applyCoupon(
  db: Kysely<Database>,
  coupon: Selectable<CouponsTable> | undefined,
  ctx: CouponCustomer,
  o: {
    couponCode: string | null;
    lock: boolean;
    quoteLines: QuoteLine[];
    variants: VariantForPricing[];
    wanted: Map<string, number>;
    available: (variantId: string) => number;
  },
): Promise<{ couponError: string | null; applied: Quote['coupon'] }> {
  if (!o.couponCode) return { couponError: null, applied: null };
  const subtotalCents = o.quoteLines.reduce((s, l) => s + (l.missing ? 0 : l.lineTotalCents), 0);
  const couponError = await validateCouponForCart(db, coupon, ctx, { subtotalCents, countHolds: o.lock });
  if (couponError || !coupon) return { couponError, applied: null };
  const giftProductId = coupon.free_product_id ?? null;
  const candidates = giftProductId ? giftCandidates(o.variants, giftProductId, coupon.free_variant_id) : [];
  const inStock = candidates.find((v) => o.available(v.variantId) - (o.wanted.get(v.variantId) ?? 0) >= 1);
  const gift = inStock ?? candidates[0];
  const applied: Quote['coupon'] = {
    code: coupon.code,
    discountType: coupon.discount_type,
    discountValue: coupon.discount_value,
    freeProduct: gift ? { id: gift.productId, variantId: gift.variantId, name: lineTitle(gift.name, variantLabel(gift.values)) } : null,
  };
  if (gift && inStock) {
    o.wanted.set(gift.variantId, (o.wanted.get(gift.variantId) ?? 0) + 1);
    const { size, color } = sizeAndColor(gift.optionNames, gift.values, { size: DEFAULT_CART_SIZE, color: DEFAULT_CART_COLOR });
    o.quoteLines.push(quoteLineOf(gift, { quantity: 1, size, color, isFreeGift: true }, o.available(gift.variantId)));
  }
  return { couponError: null, applied };
}
