import type { Kysely, Selectable } from 'kysely';
import type { CouponsTable, Database, ProductsTable, ShippingOptionsTable } from '../db/schema.js';
import { MicroCache } from '../http/micro-cache.js';
import type { Dialect } from '../db/database.js';
import { levelsOf, productsWithStockCounters } from '../inventory/stock.js';
import { reservedByDevice, reservedUnits } from '../inventory/reservations.js';
import { parseJson } from '../lib/json.js';
import { computeTotals, nextShippingUnlock, availableShippingOptions } from '../../shared/pricing.js';
import { findCoupon, lockCoupon, validateCouponForCart, type CouponCustomer } from '../coupons/service.js';
import { readShippingOptionRows, toShippingView } from '../shipping/service.js';
import type { CartLineInput, Quote, QuoteLine } from '../../shared/schemas/checkout.js';
import { DEFAULT_CART_COLOR, DEFAULT_CART_SIZE } from '../../shared/stored-cart.js';

const QUOTE_TERMS_MS = 1000;
const couponTerms = new MicroCache<Selectable<CouponsTable> | undefined>(QUOTE_TERMS_MS);
const shippingTerms = new MicroCache<Selectable<ShippingOptionsTable>[]>(QUOTE_TERMS_MS);
const productTerms = new MicroCache<Pick<Selectable<ProductsTable>, 'id' | 'name' | 'price_cents' | 'images'>[]>(QUOTE_TERMS_MS);
const stockTerms = new MicroCache<[Map<string, number>, Map<string, number>]>(QUOTE_TERMS_MS, 1000, 0, true);
const ownStock = new MicroCache<Map<string, number>>(QUOTE_TERMS_MS, 1000, 0, true);

/** Who is pricing: the shopper, for the coupon's one-per-customer rule (coupons/service.ts). */
export type PricingContext = CouponCustomer;

function mergeLines(lines: CartLineInput[]): { productId: string; quantity: number; size: string; color: string }[] {
  const merged = new Map<string, { productId: string; quantity: number; size: string; color: string }>();
  for (const l of lines) {
    const size = l.size || DEFAULT_CART_SIZE;
    const color = l.color || DEFAULT_CART_COLOR;
    const key = JSON.stringify([l.productId, size, color]);
    const prev = merged.get(key);
    if (prev) prev.quantity += l.quantity;
    else merged.set(key, { productId: l.productId, quantity: l.quantity, size, color });
  }
  return [...merged.values()];
}

export type PricedCart = Quote & {
  couponId: string | null;
  /** Checkout (lock) only: each product's SKU, read with its price (for the order's search terms). */
  skus?: ReadonlyMap<string, string | null>;
};

/**
 * Prices a cart from the database: current names, prices and stock (less what open checkouts
 * keep), the coupon and its free gift, the shipping options the subtotal allows, and the totals.
 * With `lock` (checkout), everything is read fresh and the coupon row is locked for the rest of the
 * transaction (its limits are counted under it), then `afterLocks` runs. Stock is not locked: the
 * checkout reserves it last, with one conditional update per item (inventory/reservations.ts,
 * decision 0023); the figures here only let a cart already short be told so at once.
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
  const giftId = coupon?.free_product_id ?? null;
  const ids = [...new Set([...lines.map((l) => l.productId), ...(giftId ? [giftId] : [])])].sort();
  const productQuery = (of: string[]) =>
    db
      .selectFrom('products')
      .select(['id', 'name', 'price_cents', 'images'])
      .where('id', 'in', of.length ? of : ['']);
  // A quote shows prices and stock at most a second old, like the catalogue; checkout re-reads them.
  const idsKey = ids.join('\n');
  let products: Awaited<ReturnType<ReturnType<typeof productQuery>['execute']>>;
  let levels: Map<string, number>;
  let held: Map<string, number>;
  let skus: Map<string, string | null> | undefined;
  if (lock) {
    if (afterLocks) await afterLocks();
    // One read of the products with their stock items' level and units kept for checkouts (the
    // counter every reservation moves). The counter may still count a reservation that lapsed in
    // the last poll, never fewer than are kept, so it can only make stock look short: then, and only
    // then, the reservations themselves are summed, as before.
    const rows = await productsWithStockCounters(db, ids);
    products = rows.map(({ id, name, price_cents, images }) => ({ id, name, price_cents, images }));
    skus = new Map(rows.map((r) => [r.id, r.sku]));
    levels = new Map(rows.map((r) => [r.id, r.onHand]));
    held = new Map(rows.map((r) => [r.id, r.reserved]));
    const want = new Map<string, number>(giftId ? [[giftId, 1]] : []);
    for (const l of lines) want.set(l.productId, (want.get(l.productId) ?? 0) + l.quantity);
    const looksShort = [...want].some(([id, n]) => (levels.get(id) ?? 0) - (held.get(id) ?? 0) < n);
    if (looksShort) held = await reservedUnits(db, ids, ctx.now);
  } else {
    let own: Map<string, number>;
    [products, [levels, held], own] = await Promise.all([
      productTerms.get(idsKey, () => productQuery(ids).execute()),
      stockTerms.get(idsKey, () => Promise.all([levelsOf(db, ids), reservedUnits(db, ids, ctx.now)])),
      // The shopper's own unpaid checkout (back from the payment page) is not someone else's: its
      // units count as theirs, as checkout counts them (it ends that checkout first).
      ctx.deviceHash
        ? ownStock.get(`${ctx.deviceHash}\n${idsKey}`, () => reservedByDevice(db, ids, ctx.deviceHash!, ctx.now))
        : new Map<string, number>(),
    ]);
    if (own.size) held = new Map([...held].map(([id, n]) => [id, Math.max(0, n - (own.get(id) ?? 0))]));
  }
  const byId = new Map(products.map((p) => [p.id, p]));
  const available = (id: string) => Math.max(0, (levels.get(id) ?? 0) - (held.get(id) ?? 0));

  const quoteLines: QuoteLine[] = [];
  const wanted = new Map<string, number>();
  for (const l of lines) {
    const p = byId.get(l.productId);
    wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
    quoteLines.push({
      productId: l.productId,
      name: p?.name ?? 'Unknown Product',
      image: p ? (parseJson<string[]>(p.images, [])[0] ?? null) : null,
      priceCents: p?.price_cents ?? 0,
      quantity: l.quantity,
      inventory: p ? available(p.id) : 0,
      size: l.size,
      color: l.color,
      lineTotalCents: (p?.price_cents ?? 0) * l.quantity,
      isFreeGift: false,
      missing: !p,
      insufficientStock: false,
    });
  }

  const subtotalForCoupon = quoteLines.reduce((s, l) => s + (l.missing ? 0 : l.lineTotalCents), 0);
  let couponError: string | null = null;
  let applied: Quote['coupon'] = null;
  if (input.couponCode) {
    // max_uses and one per customer: checked here, under the coupon row lock at checkout (coupons/service.ts).
    couponError = await validateCouponForCart(db, coupon, ctx, { subtotalCents: subtotalForCoupon, countHolds: lock });
    if (!couponError && coupon) {
      const gift = giftId ? byId.get(giftId) : undefined;
      applied = {
        code: coupon.code,
        discountType: coupon.discount_type,
        discountValue: coupon.discount_value,
        freeProduct: gift ? { id: gift.id, name: gift.name } : null,
      };
      if (gift && available(gift.id) - (wanted.get(gift.id) ?? 0) >= 1) {
        wanted.set(gift.id, (wanted.get(gift.id) ?? 0) + 1);
        quoteLines.push({
          productId: gift.id,
          name: gift.name,
          image: parseJson<string[]>(gift.images, [])[0] ?? null,
          priceCents: 0,
          quantity: 1,
          inventory: available(gift.id),
          size: DEFAULT_CART_SIZE,
          color: DEFAULT_CART_COLOR,
          lineTotalCents: 0,
          isFreeGift: true,
          missing: false,
          insufficientStock: false,
        });
      }
    }
  }
  for (const l of quoteLines) {
    if (!l.missing) l.insufficientStock = (wanted.get(l.productId) ?? 0) > available(l.productId);
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
    ...(skus ? { skus } : {}),
  };
}
