import type { Kysely } from 'kysely';
import type { Database, OrderOrigin, OrdersTable } from '../db/schema.js';
import { writeTogether, type PendingWrite } from '../db/query-helpers.js';
import { randomString } from '../lib/ids.js';
import { lineTitle } from '../../shared/variants.js';
import { orderEventInsert, type OrderEventActor } from './events.js';
import { newOrderSearchInsert } from './search-terms.js';
import { insertRows } from '../db/compiled-once.js';

/** A new order's id: its time and a random tail (the order number is the tail's last 8, upper-cased). */
export function newOrderId(): string {
  return `order_${Date.now()}_${randomString(9)}`;
}

/** One line of a new order, priced by its maker (checkout from the cart, the owner from the catalogue). */
export type NewOrderLine = {
  productId: string;
  variantId: string;
  productName: string;
  variantLabel: string;
  image: string | null;
  sku: string | null;
  quantity: number;
  priceCents: number;
  size: string;
  color: string;
  isFreeGift: boolean;
  /** A subscription line (issue [4/8]): its interval in weeks and the plan's discount already taken off `priceCents`. Absent: one-time. */
  everyWeeks?: number | null;
  planDiscountPercent?: number | null;
};

/** The order's money in cents; total = subtotal − discount + shipping + tax, checked by its maker. */
export type NewOrderMoney = { subtotalCents: number; discountCents: number; shippingCents: number; taxCents: number; totalCents: number };

/**
 * What makes an order, whoever makes it: a checkout, the owner (with lines or a bare total) and,
 * later, a subscription's renewal (one more `origin`).
 */
export type NewOrder = {
  id: string;
  origin: OrderOrigin;
  status: OrdersTable['status'];
  lines: readonly NewOrderLine[];
  money: NewOrderMoney;
  customer: {
    userId: string | null;
    email: string | null;
    /** The stored address (JSON of an object from checkout, or of the owner's free text). */
    shippingAddress: string;
    /** The browser that placed a checkout (its guest link); null for the owner's orders. */
    guestTokenHash?: string | null;
  };
  /** The payment session that will take the money (a checkout's); none for the owner's order, paid later or by a link. */
  session?: { id: string; provider: string } | null;
  couponCode?: string | null;
  shippingOptionId?: string | null;
  /** The `placed` event: who placed it and what its timeline says. */
  placed: { actor: OrderEventActor; data: Record<string, unknown> };
  at: Date;
};

/**
 * Writes a new order: its row, its lines, its search terms and its `placed` event, in the caller's
 * transaction (the one place an order is made; decision 0048). With `writeWith`, the writes are
 * handed to the caller to run later in that transaction with its own (one round trip on
 * PostgreSQL, db/query-helpers.ts writeTogether); otherwise they run now.
 */
export async function createOrder(
  trx: Kysely<Database>,
  order: NewOrder,
  { writeWith }: { writeWith?: PendingWrite[] } = {},
): Promise<void> {
  const writes = await newOrderWrites(trx, order);
  if (writeWith) writeWith.push(...writes);
  else await writeTogether(trx, writes);
}

async function newOrderWrites(trx: Kysely<Database>, o: NewOrder): Promise<PendingWrite[]> {
  const at = o.at.toISOString();
  const orderNumber = o.id.slice(-8).toUpperCase();
  // The search terms come from the row at hand and the account's e-mail and name (orders/search-terms.ts).
  const account = o.customer.userId
    ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', o.customer.userId).executeTakeFirst()
    : undefined;
  const writes: PendingWrite[] = [
    insertRows(trx, 'orders', [
      {
        id: o.id,
        order_number: orderNumber,
        origin: o.origin,
        user_id: o.customer.userId,
        email: o.customer.email,
        status: o.status,
        payment_status: 'unpaid',
        // Names how the money comes; null until an owner's order is paid (owner-payments.ts).
        payment_provider: o.session?.provider ?? null,
        payment_session_id: o.session?.id ?? null,
        shipping_address: o.customer.shippingAddress,
        billing_address: null,
        subtotal_cents: o.money.subtotalCents,
        discount_cents: o.money.discountCents,
        shipping_cents: o.money.shippingCents,
        tax_cents: o.money.taxCents,
        total_cents: o.money.totalCents,
        coupon_code: o.couponCode ?? null,
        shipping_option_id: o.shippingOptionId ?? null,
        shipstation_data: null,
        shipstation_tracking_number: null,
        guest_token_hash: o.customer.guestTokenHash ?? null,
        created_at: at,
        updated_at: at,
        paid_at: null,
      },
    ]),
    newOrderSearchInsert(trx, {
      id: o.id,
      order_number: orderNumber,
      email: o.customer.email,
      shipping_address: o.customer.shippingAddress,
      user_email: account?.email ?? null,
      full_name: account?.full_name ?? null,
      total_cents: o.money.totalCents,
      lines: o.lines.map((l) => ({ name: lineTitle(l.productName, l.variantLabel), sku: l.sku })),
    }),
  ];
  if (o.lines.length) {
    writes.push(
      insertRows(
        trx,
        'order_items',
        o.lines.map((l, i) => ({
          id: `${o.id}_item${i + 1}`,
          order_id: o.id,
          product_id: l.productId,
          variant_id: l.variantId,
          variant_label: l.variantLabel,
          product_name: l.productName,
          product_image: l.image,
          sku: l.sku,
          quantity: l.quantity,
          price_cents: l.priceCents,
          size: l.size,
          color: l.color,
          is_free_gift: l.isFreeGift ? 1 : 0,
          every_weeks: l.everyWeeks ?? null,
          plan_discount_percent: l.everyWeeks != null ? (l.planDiscountPercent ?? null) : null,
        })),
      ),
    );
  }
  writes.push(orderEventInsert(trx, o.id, 'placed', o.placed.actor, o.placed.data, o.at));
  return writes;
}
