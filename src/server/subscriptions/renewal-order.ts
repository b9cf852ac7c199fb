import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../db/schema.js';
import type { PendingWrite } from '../db/query-helpers.js';
import { variantsForCheckout } from '../inventory/stock.js';
import { reserveForCheckout, RESERVE_MS, type ReserveUnits } from '../inventory/reservations.js';
import { readShippingOptionRows } from '../shipping/service.js';
import { createOrder, newOrderId, type NewOrderLine, type NewOrderMoney } from '../orders/create-order.js';
import { SYSTEM_ACTOR } from '../orders/events.js';
import { openPaymentSessionWrite } from '../payments/sessions.js';
import { PAYMENT_SESSION_TTL_MS } from '../payments/session-times.js';
import { randomString } from '../lib/ids.js';
import { chooseShippingOption, subtotalCents, taxCents } from '../../shared/pricing.js';
import { discountForDelivery } from '../../shared/subscriptions.js';
import { chargedUnit, termsOf, toldStatesAt } from './told-prices.js';
import { sizeAndColor, variantLabel } from '../../shared/variants.js';
import { DEFAULT_CART_COLOR, DEFAULT_CART_SIZE } from '../../shared/stored-cart.js';

type Subscription = Selectable<SubscriptionsTable>;

/** A renewal priced at today's prices: its lines, its money, and what it cannot have now. */
export type PricedRenewal = {
  lines: NewOrderLine[];
  money: NewOrderMoney;
  shippingOptionId: string | null;
  discountPercent: number;
  units: ReserveUnits;
  /** Names of what is out of stock (or no longer sold): nothing is charged while any is. */
  missing: string[];
  /** Each plan item's price per unit on this delivery (those left out of it too): what the customer was told, or less. */
  unitPrices: Map<string, number>;
  /** One-time items left out of this delivery (out of stock or no longer sold): they wait for the next. */
  extrasLeftOut: string[];
};

type CheckoutVariant = Awaited<ReturnType<typeof variantsForCheckout>>[number];

/** One line of a renewal's order: on the plan (its interval, this delivery's discount and the unit price told) or a one-time extra at the shop's price. */
function renewalLine(
  v: CheckoutVariant,
  quantity: number,
  plan: { everyWeeks: number; discountPercent: number; unitCents: number } | null,
): NewOrderLine {
  const { size, color } = sizeAndColor(v.optionNames, v.values, { size: DEFAULT_CART_SIZE, color: DEFAULT_CART_COLOR });
  return {
    productId: v.productId,
    variantId: v.variantId,
    productName: v.name,
    variantLabel: variantLabel(v.values),
    image: v.image ?? (JSON.parse(v.images) as string[])[0] ?? null,
    sku: v.sku,
    quantity,
    priceCents: plan ? plan.unitCents : v.priceCents,
    size,
    color,
    isFreeGift: false,
    everyWeeks: plan?.everyWeeks ?? null,
    planDiscountPercent: plan?.discountPercent ?? null,
  };
}

/**
 * Prices the subscription's next delivery as any order is priced (decision 0058): each plan item at
 * the price the customer was told for a delivery due then, or today's price when lower, less the
 * told discount for this delivery (told-prices.ts), shipping by the subscription's option
 * (or free, when the owner gives subscriptions free shipping), tax on goods and delivery. Reads
 * stock without locks: the reservation decides, under its own conditional update.
 */
export async function priceRenewal(
  db: Kysely<Database>,
  sub: Subscription,
  { freeShipping }: { freeShipping: boolean },
): Promise<PricedRenewal> {
  // The items, less any the customer left out of this delivery only, and the one-time extras.
  const allItems = await db
    .selectFrom('subscription_items')
    .select(['product_id', 'variant_id', 'quantity', 'skip_next', 'agreed_price_cents'])
    .where('subscription_id', '=', sub.id)
    .orderBy('variant_id')
    .execute();
  const items = allItems.filter((i) => i.skip_next === 0);
  const extras = await db
    .selectFrom('subscription_extras')
    .select(['product_id', 'variant_id', 'quantity'])
    .where('subscription_id', '=', sub.id)
    .orderBy('created_at')
    .orderBy('variant_id')
    .execute();
  const variants = new Map(
    (await variantsForCheckout(db, [...new Set([...allItems.map((i) => i.variant_id), ...extras.map((e) => e.variant_id)])])).map((v) => [
      v.variantId,
      v,
    ]),
  );
  const terms = termsOf(sub);
  const discountPercent = discountForDelivery(terms, sub.deliveries + 1);
  // Never more than the customer was told for a delivery due then (decision 0058, "Price changes").
  const told = await toldStatesAt(db, sub, allItems, sub.next_renewal_at);
  const unitPrices = new Map<string, number>();
  const charged = new Map<string, ReturnType<typeof chargedUnit>>();
  for (const i of allItems) {
    const v = variants.get(i.variant_id);
    if (!v) continue;
    const unit = chargedUnit(told.get(i.variant_id) ?? null, v.priceCents, terms, sub.deliveries + 1);
    charged.set(i.variant_id, unit);
    unitPrices.set(i.variant_id, unit.unitCents);
  }
  const lines: NewOrderLine[] = [];
  const units: ReserveUnits = new Map();
  const missing: string[] = [];
  for (const i of items) {
    const v = variants.get(i.variant_id);
    const unit = charged.get(i.variant_id);
    if (!v || !unit || !v.enabled || !v.itemId) {
      missing.push(v?.name ?? i.product_id);
      continue;
    }
    if (v.onHand - v.reserved < i.quantity) missing.push(v.name);
    lines.push(renewalLine(v, i.quantity, { everyWeeks: sub.every_weeks, ...unit }));
    units.set(v.variantId, { productId: v.productId, itemId: v.itemId, quantity: i.quantity });
  }
  // One-time extras at the shop's price (no plan, no discount), only when every unit is there now:
  // an extra never holds up the delivery it rides with.
  const extrasLeftOut: string[] = [];
  for (const e of extras) {
    const v = variants.get(e.variant_id);
    const taken = units.get(e.variant_id)?.quantity ?? 0;
    if (!v || !v.enabled || !v.itemId || v.onHand - v.reserved < taken + e.quantity) {
      extrasLeftOut.push(v?.name ?? e.product_id);
      continue;
    }
    lines.push(renewalLine(v, e.quantity, null));
    units.set(v.variantId, { productId: v.productId, itemId: v.itemId, quantity: taken + e.quantity });
  }
  const subtotal = subtotalCents(lines);
  const options = (await readShippingOptionRows(db)).map((o) => ({
    id: o.id,
    priceCents: Number(o.price_cents),
    enabled: o.enabled === 1,
    minimumOrderCents: o.minimum_order_cents === null ? null : Number(o.minimum_order_cents),
  }));
  const option = chooseShippingOption(options, subtotal, sub.shipping_option_id);
  const shipping = freeShipping || !option ? 0 : option.priceCents;
  const tax = taxCents(subtotal, 0, shipping);
  return {
    lines,
    money: { subtotalCents: subtotal, discountCents: 0, shippingCents: shipping, taxCents: tax, totalCents: subtotal + shipping + tax },
    shippingOptionId: option?.id ?? sub.shipping_option_id,
    discountPercent,
    units,
    missing,
    unitPrices,
    extrasLeftOut,
  };
}

/** A renewal's payment session id, in the card page's scheme (no page is shown: the card is charged off-session). */
export function newRenewalSessionId(): string {
  return `cs_renew_${randomString(24)}`;
}

/**
 * Writes the renewal's order (origin 'renewal', pending, unpaid), its payment session and its
 * stock reservation, in the caller's transaction; false when a unit was taken meanwhile (the caller
 * rolls back: the reservation's rows were written).
 */
export async function createRenewalOrder(
  trx: Kysely<Database>,
  sub: Subscription,
  priced: PricedRenewal,
  { cycle, now }: { cycle: number; now: Date },
): Promise<{ orderId: string; sessionId: string } | null> {
  const orderId = newOrderId();
  const sessionId = newRenewalSessionId();
  const writes: PendingWrite[] = [];
  await createOrder(
    trx,
    {
      id: orderId,
      origin: 'renewal',
      status: 'pending',
      lines: priced.lines,
      money: priced.money,
      customer: { userId: sub.user_id, email: sub.email, shippingAddress: sub.shipping_address, guestTokenHash: null },
      session: { id: sessionId, provider: sub.provider },
      shippingOptionId: priced.shippingOptionId,
      placed: { actor: SYSTEM_ACTOR, data: { totalCents: priced.money.totalCents, subscriptionId: sub.id, cycle, renewal: true } },
      at: now,
    },
    { writeWith: writes },
  );
  writes.push(
    openPaymentSessionWrite(trx, {
      id: sessionId,
      orderId,
      provider: sub.provider,
      amountCents: priced.money.totalCents,
      url: '',
      now,
      expiresAt: new Date(now.getTime() + PAYMENT_SESSION_TTL_MS),
    }),
  );
  const { short } = await reserveForCheckout(trx, {
    orderId,
    units: priced.units,
    holder: { ip: 'subscription', deviceId: `sub:${sub.id}`, userId: sub.user_id },
    now,
    expiresAt: new Date(now.getTime() + RESERVE_MS),
    windowMs: RESERVE_MS,
    writeWith: writes,
  });
  if (short) return null;
  return { orderId, sessionId };
}
