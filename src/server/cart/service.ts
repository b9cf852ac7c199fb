import type { Kysely, Selectable } from 'kysely';
import type { CouponsTable, Database, ShippingOptionsTable } from '../db/schema.js';
import { MicroCache } from '../http/micro-cache.js';
import type { Dialect } from '../db/database.js';
import { variantLevels, variantsForCheckout } from '../inventory/stock.js';
import { isOwnHold, liveHolds, reservedByDevice, reservedByVariant, type VariantKey } from '../inventory/reservations.js';
import { heldUntil } from './held-lines.js';
import { variantsForPricing, type VariantForPricing } from '../catalog/variant-pricing.js';
import { parseJson } from '../lib/json.js';
import { computeTotals, nextShippingUnlock, availableShippingOptions } from '../../shared/pricing.js';
import { findCoupon, lockCoupon, validateCouponForCart, type CouponCustomer } from '../coupons/service.js';
import { readShippingOptionRows, toShippingView } from '../shipping/service.js';
import type { CartLineInput, Quote, QuoteLine } from '../../shared/schemas/checkout.js';
import { DEFAULT_CART_COLOR, DEFAULT_CART_SIZE } from '../../shared/stored-cart.js';
import { defaultVariantIdOf, lineTitle, sizeAndColor, variantLabel } from '../../shared/variants.js';

const QUOTE_TERMS_MS = 1000;
const couponTerms = new MicroCache<Selectable<CouponsTable> | undefined>(QUOTE_TERMS_MS);
const shippingTerms = new MicroCache<Selectable<ShippingOptionsTable>[]>(QUOTE_TERMS_MS);
const variantTerms = new MicroCache<VariantForPricing[]>(QUOTE_TERMS_MS);
const stockTerms = new MicroCache<[Map<string, number>, Map<string, number>]>(QUOTE_TERMS_MS, 1000, 0, true);
const ownStock = new MicroCache<Map<string, number>>(QUOTE_TERMS_MS, 1000, 0, true);

/** Who is pricing: the shopper, for the coupon's one-per-customer rule (coupons/service.ts). */
export type PricingContext = CouponCustomer;

type MergedLine = {
  productId: string;
  variantId: string;
  quantity: number;
  size: string;
  color: string;
  /** The request named no variant (read as the product's first). */
  unnamed: boolean;
};

/** Lines of the same variant (and size and colour, as the specification's cart keeps them) are one line. */
function mergeLines(lines: CartLineInput[]): MergedLine[] {
  const merged = new Map<string, MergedLine>();
  for (const l of lines) {
    const variantId = l.variantId ?? defaultVariantIdOf(l.productId);
    const size = l.size || DEFAULT_CART_SIZE;
    const color = l.color || DEFAULT_CART_COLOR;
    const key = JSON.stringify([l.productId, variantId, size, color]);
    const prev = merged.get(key);
    if (prev) {
      prev.quantity += l.quantity;
      prev.unnamed ||= !l.variantId;
    } else merged.set(key, { productId: l.productId, variantId, quantity: l.quantity, size, color, unnamed: !l.variantId });
  }
  return [...merged.values()];
}

/** The variants the coupon's gift may be: the one it names (if still for sale), else its product's enabled ones in order. */
function giftCandidates<V extends VariantForPricing>(variants: V[], productId: string, named: string | null | undefined): V[] {
  const ofProduct = variants.filter((v) => v.productId === productId && v.enabled);
  return named ? ofProduct.filter((v) => v.variantId === named) : ofProduct;
}

/** A variant's picture: its own, else its product's first. */
function imageOf(v: VariantForPricing): string | null {
  return v.image ?? parseJson<string[]>(v.images, [])[0] ?? null;
}

export type PricedCart = Quote & {
  couponId: string | null;
  /** Checkout (lock) only: each variant's stock item and SKU, read with its price (for the reservation and the order's lines). */
  variants?: ReadonlyMap<string, { itemId: string | null; sku: string | null }>;
  /** Lines of a product sold in versions (it has options) that named none: the product and its option names. */
  unchosen: { name: string; optionNames: string[] }[];
};

/**
 * Prices a cart from the database: each line from its variant (current names, prices and stock,
 * less what open checkouts keep), the coupon and its free gift, the shipping options the subtotal
 * allows, and the totals. With `lock` (checkout), everything is read fresh and the coupon row is
 * locked for the rest of the transaction (its limits are counted under it), then `afterLocks`
 * runs. Stock is not locked: the checkout reserves it last, with one conditional update per item
 * (inventory/reservations.ts, decision 0023); the figures here only let a cart already short be
 * told so at once.
 */
export async function priceCart(
  db: Kysely<Database>,
  dialect: Dialect,
  input: { lines: CartLineInput[]; couponCode: string | null; shippingOptionId?: string | null },
  ctx: PricingContext,
  { lock = false, afterLocks }: { lock?: boolean; afterLocks?: () => Promise<void> } = {},
): Promise<PricedCart> {
  const lines = mergeLines(input.lines);
  // Independent reads go out together (on PostgreSQL they overlap; SQLite runs them in turn).
  // A quote may use terms a second old; checkout (lock) always reads the rows themselves.
  const couponCode = input.couponCode;
  const [couponSeen, options] = await Promise.all([
    !couponCode ? undefined : lock ? lockCoupon(db, dialect, couponCode) : couponTerms.get(couponCode, () => findCoupon(db, couponCode)),
    lock ? readShippingOptionRows(db) : shippingTerms.get('all', () => readShippingOptionRows(db)),
  ]);
  const coupon = couponSeen;
  // The coupon's gift: the variant it names, else its product's first enabled variant with a unit to give.
  const giftProductId = coupon?.free_product_id ?? null;
  const giftId = giftProductId ? (coupon?.free_variant_id ?? defaultVariantIdOf(giftProductId)) : null;
  const ids = [...new Set([...lines.map((l) => l.variantId), ...(giftId ? [giftId] : [])])].sort();
  // A quote shows prices and stock at most a second old, like the catalogue; checkout re-reads them.
  const idsKey = ids.join('\n');
  let variants: VariantForPricing[];
  let levels: Map<string, number>;
  let held: Map<string, number>;
  let checkoutVariants: Map<string, { itemId: string | null; sku: string | null }> | undefined;
  if (lock) {
    if (afterLocks) await afterLocks();
    // One read of the variants with their products and their stock items' level and units kept for
    // checkouts (the counter every reservation moves). The counter may still count a reservation
    // that lapsed in the last poll, never fewer than are kept, so it can only make stock look short:
    // then, and only then, the reservations themselves are summed, as before.
    const rows = await variantsForCheckout(db, ids, giftProductId);
    variants = rows;
    checkoutVariants = new Map(rows.map((r) => [r.variantId, { itemId: r.itemId, sku: r.sku }]));
    levels = new Map(rows.map((r) => [r.variantId, r.onHand]));
    held = new Map(rows.map((r) => [r.variantId, r.reserved]));
    const want = new Map<string, number>();
    for (const l of lines) want.set(l.variantId, (want.get(l.variantId) ?? 0) + l.quantity);
    const free = (id: string) => (levels.get(id) ?? 0) - (held.get(id) ?? 0) - (want.get(id) ?? 0);
    const giftLooksShort =
      giftProductId !== null && !giftCandidates(rows, giftProductId, coupon?.free_variant_id).some((v) => free(v.variantId) >= 1);
    const looksShort = giftLooksShort || [...want].some(([id]) => free(id) < 0);
    if (looksShort) held = await reservedByVariant(db, rows, ctx.now);
  } else {
    // The lines name their products: the reads of reservations walk the product index at once.
    const keys: VariantKey[] = [
      ...lines.map((l) => ({ productId: l.productId, variantId: l.variantId })),
      ...(giftId && coupon?.free_product_id ? [{ productId: coupon.free_product_id, variantId: giftId }] : []),
    ];
    const [found, [stockLevels, stockHeld], own] = await Promise.all([
      variantTerms.get(`${idsKey}\n${giftProductId ?? ''}`, () => variantsForPricing(db, ids, giftProductId)),
      stockTerms.get(idsKey, () => Promise.all([variantLevels(db, ids), reservedByVariant(db, keys, ctx.now)])),
      // The shopper's own unpaid checkout (back from the payment page) is not someone else's: its
      // units count as theirs, as checkout counts them (it ends that checkout first).
      ctx.deviceHash
        ? ownStock.get(`${ctx.deviceHash}\n${idsKey}`, () => reservedByDevice(db, keys, ctx.deviceHash!, ctx.now))
        : new Map<string, number>(),
    ]);
    variants = found;
    levels = stockLevels;
    held = stockHeld;
    // The gift product's other variants, when the coupon names none and the product has several.
    const more = giftProductId
      ? giftCandidates(found, giftProductId, coupon?.free_variant_id).filter((v) => !ids.includes(v.variantId))
      : [];
    if (more.length) {
      const [moreLevels, moreHeld] = await Promise.all([
        variantLevels(
          db,
          more.map((v) => v.variantId),
        ),
        reservedByVariant(db, more, ctx.now),
      ]);
      levels = new Map([...levels, ...moreLevels]);
      held = new Map([...held, ...moreHeld]);
    }
    if (own.size) held = new Map([...held].map(([id, n]) => [id, Math.max(0, n - (own.get(id) ?? 0))]));
  }
  const byId = new Map(variants.map((v) => [v.variantId, v]));
  const available = (id: string) => Math.max(0, (levels.get(id) ?? 0) - (held.get(id) ?? 0));

  const quoteLines: QuoteLine[] = [];
  const wanted = new Map<string, number>();
  const unchosen: PricedCart['unchosen'] = [];
  for (const l of lines) {
    const found = byId.get(l.variantId);
    // A variant switched off, or one of another product, is no longer for sale on this line.
    const v = found && found.enabled && found.productId === l.productId ? found : undefined;
    if (l.unnamed && found && found.optionNames.length > 0) unchosen.push({ name: found.name, optionNames: found.optionNames });
    wanted.set(l.variantId, (wanted.get(l.variantId) ?? 0) + l.quantity);
    const label = v ? variantLabel(v.values) : '';
    // An option named Size or Colour is the line's size or colour; otherwise the cart's own.
    const { size, color } = v ? sizeAndColor(v.optionNames, v.values, l) : l;
    quoteLines.push({
      productId: l.productId,
      variantId: l.variantId,
      name: v ? lineTitle(v.name, label) : 'Unknown Product',
      productName: v?.name ?? 'Unknown Product',
      variantLabel: label,
      image: v ? imageOf(v) : null,
      priceCents: v?.priceCents ?? 0,
      quantity: l.quantity,
      inventory: v ? available(v.variantId) : 0,
      size,
      color,
      lineTotalCents: (v?.priceCents ?? 0) * l.quantity,
      isFreeGift: false,
      missing: !v,
      insufficientStock: false,
      held: 0,
      heldUntil: null,
    });
  }

  const subtotalForCoupon = quoteLines.reduce((s, l) => s + (l.missing ? 0 : l.lineTotalCents), 0);
  let couponError: string | null = null;
  let applied: Quote['coupon'] = null;
  if (input.couponCode) {
    // max_uses and one per customer: checked here, under the coupon row lock at checkout (coupons/service.ts).
    couponError = await validateCouponForCart(db, coupon, ctx, { subtotalCents: subtotalForCoupon, countHolds: lock });
    if (!couponError && coupon) {
      const candidates = giftProductId ? giftCandidates(variants, giftProductId, coupon.free_variant_id) : [];
      const inStock = candidates.find((v) => available(v.variantId) - (wanted.get(v.variantId) ?? 0) >= 1);
      const gift = inStock ?? candidates[0];
      const giftLabel = gift ? variantLabel(gift.values) : '';
      applied = {
        code: coupon.code,
        discountType: coupon.discount_type,
        discountValue: coupon.discount_value,
        freeProduct: gift ? { id: gift.productId, variantId: gift.variantId, name: lineTitle(gift.name, giftLabel) } : null,
      };
      if (gift && inStock) {
        wanted.set(gift.variantId, (wanted.get(gift.variantId) ?? 0) + 1);
        const { size, color } = sizeAndColor(gift.optionNames, gift.values, { size: DEFAULT_CART_SIZE, color: DEFAULT_CART_COLOR });
        quoteLines.push({
          productId: gift.productId,
          variantId: gift.variantId,
          name: lineTitle(gift.name, giftLabel),
          productName: gift.name,
          variantLabel: giftLabel,
          image: imageOf(gift),
          priceCents: 0,
          quantity: 1,
          inventory: available(gift.variantId),
          size,
          color,
          lineTotalCents: 0,
          isFreeGift: true,
          missing: false,
          insufficientStock: false,
          held: 0,
          heldUntil: null,
        });
      }
    }
  }
  for (const l of quoteLines) {
    if (!l.missing) l.insufficientStock = (wanted.get(l.variantId) ?? 0) > available(l.variantId);
    if (!l.missing) l.held = Math.min(held.get(l.variantId) ?? 0, levels.get(l.variantId) ?? 0);
  }
  // A line short only for units other shoppers' checkouts keep stays in the cart: it says when
  // they come back (the first holds to end that give back enough). Checkout decides on the rows.
  const shortForHolds = lock ? [] : quoteLines.filter((l) => l.insufficientStock && (l.held ?? 0) > 0);
  if (shortForHolds.length) {
    const holds = (await liveHolds(db, shortForHolds, ctx.now)).filter((h) => !isOwnHold(h, ctx.deviceHash, ctx.now));
    for (const l of shortForHolds) {
      const ofVariant = holds.filter((h) => h.variantId === l.variantId);
      l.heldUntil = heldUntil(levels.get(l.variantId) ?? 0, wanted.get(l.variantId) ?? 0, ofVariant);
    }
  }

  const terms = options.map((o) => ({
    id: o.id,
    priceCents: o.price_cents,
    enabled: Boolean(o.enabled),
    minimumOrderCents: o.minimum_order_cents,
  }));
  const totals = computeTotals({
    lines: quoteLines.filter((l) => !l.missing).map((l) => ({ priceCents: l.priceCents, quantity: l.quantity, isFreeGift: l.isFreeGift })),
    coupon: applied ? { discountType: applied.discountType, discountValue: applied.discountValue } : null,
    shippingOptions: terms,
    shippingOptionId: input.shippingOptionId,
  });
  const availableIds = new Set(availableShippingOptions(terms, totals.subtotalCents).map((o) => o.id));
  const unlock = nextShippingUnlock(terms, totals.subtotalCents);
  const enabled = options.filter((o) => o.enabled);
  return {
    lines: quoteLines,
    coupon: applied,
    couponError,
    couponId: applied && coupon ? coupon.id : null,
    shippingOptions: enabled.filter((o) => availableIds.has(o.id)).map(toShippingView),
    allShippingOptions: enabled.map(toShippingView),
    selectedShippingOptionId: totals.shippingOptionId,
    nextShippingUnlock: unlock
      ? {
          optionId: unlock.option.id,
          optionName: options.find((o) => o.id === unlock.option.id)!.name,
          optionPriceCents: unlock.option.priceCents,
          amountCents: unlock.amountCents,
        }
      : null,
    subtotalCents: totals.subtotalCents,
    discountCents: totals.discountCents,
    shippingCents: totals.shippingCents,
    taxCents: totals.taxCents,
    totalCents: totals.totalCents,
    ...(checkoutVariants ? { variants: checkoutVariants } : {}),
    unchosen,
  };
}
