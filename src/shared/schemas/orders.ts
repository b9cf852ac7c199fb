import { z } from 'zod';
import { orderNumberOf as numberOf } from '../order-words.js';

// The order's words a customer reads live in a zod-free module (first-load and lazy pages alike).
export { BEING_PREPARED_LABEL, isToShipOrder, orderNumberLabel, orderNumberOf } from '../order-words.js';

export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled', 'completed'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);

const OrderAddress = z.object({
  name: z.string().optional(),
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  country: z.string().optional(),
  email: z.string().optional(),
});

const OrderItemView = z.object({
  id: z.string(),
  productId: z.string(),
  /** The variant sold (the product's first for lines from before variants). */
  variantId: z.string().default(''),
  /** The line's title: 'Concentrated Cleaner — Lavender, 1 L', or the product's name alone. */
  name: z.string(),
  /** The product's name as sold, and the variant's option values ('' for a product without options). */
  productName: z.string().default(''),
  variantLabel: z.string().default(''),
  /** The product's own option names and values ([] without options), worded by shared/line-options.ts. */
  options: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  image: z.string().nullable(),
  sku: z.string().nullable(),
  size: z.string(),
  color: z.string(),
  quantity: z.number().int(),
  priceCents: z.number().int(),
  lineTotalCents: z.number().int(),
  isFreeGift: z.boolean(),
  /** A subscription line (issue [4/8]): its interval in weeks and the plan's discount; null or absent: bought once. */
  everyWeeks: z.number().int().nullable().optional(),
  planDiscountPercent: z.number().int().nullable().optional(),
});

/** The shipping method and its estimate as chosen at checkout (null for orders from before it was kept). */
export const OrderDelivery = z.object({ method: z.string(), estimatedDays: z.string() });
export type OrderDelivery = z.infer<typeof OrderDelivery>;

/**
 * How an order was made: the shopper's checkout, the owner's hand, or a subscription's renewal
 * (issue [4/8]: charged on the shop's schedule, otherwise an order like a checkout's).
 */
export const ORDER_ORIGINS = ['checkout', 'owner', 'renewal'] as const;
export type OrderOrigin = (typeof ORDER_ORIGINS)[number];

export const OrderView = z.object({
  id: z.string(),
  orderNumber: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  status: OrderStatus,
  /** 'partially_refunded' when part of the payment went back (the table keeps 'paid'; see orders/refunds.ts). */
  paymentStatus: z.enum(['unpaid', 'paid', 'failed', 'expired', 'refunded', 'partially_refunded']),
  paymentProvider: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /** An object from checkout, or free text on orders the owner entered. */
  shippingAddress: z.union([OrderAddress, z.string()]).nullable(),
  items: z.array(OrderItemView),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  shippingCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  couponCode: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  /** The carrier code ShipStation named for the label (e.g. 'usps', 'stamps_com'; see shared/carriers.ts), or null. */
  carrier: z.string().nullable(),
  /** When the order shipped (label bought or marked shipped), or null. */
  shippedAt: z.string().nullable(),
  /**
   * Admins only: set when the payment arrived for units no longer in stock (the checkout's hold
   * had lapsed), saying what was short. The order is paid; the owner restocks or refunds.
   */
  stockShortfall: z.string().nullable().optional(),
  /** What has been refunded (0 when nothing); the customer's receipt shows it too. */
  refundedCents: z.number().int().optional(),
  /** Admins only: what was paid less what was refunded (0 for an order never paid). */
  netCents: z.number().int().optional(),
  /** Admins only: the order's refunds, oldest first. */
  refunds: z.array(z.lazy(() => RefundView)).optional(),
  /** Admins only: when the order's units were returned to stock (cancelled or refunded with restock), or null. */
  restockedAt: z.string().nullable().optional(),
  /** The customer's part of the order's history, oldest first (customers' views only). */
  timeline: z.array(z.lazy(() => OrderTimelineEntry)).optional(),
  /** Customers' views: the shipping method and estimate as chosen at checkout (null when not kept). */
  delivery: OrderDelivery.nullable().optional(),
  /** Admins only: the name of the shipping method chosen at checkout (null for owner-entered orders). */
  shippingMethod: z.string().nullable().optional(),
  /** Admins only: what the customer paid (the total once paid, else 0). */
  paidCents: z.number().int().optional(),
  /** Admins only: the order's one shipping label: 'bought', being bought, or none (null). */
  labelState: z.enum(['buying', 'bought', 'voiding']).nullable().optional(),
  /** Admins only: the shipping address changed after the label was bought (void it and buy a new one). */
  labelAddressChanged: z.boolean().optional(),
  /** Admins only: the open payment link of an order the owner typed in (orders/owner-payments.ts), or null. */
  paymentLink: z.object({ url: z.string(), expiresAt: z.string(), amountCents: z.number().int() }).nullable().optional(),
  /** Admins only: how the order was made (the shopper's checkout or the owner's hand; orders/placed.ts). */
  origin: z.enum(ORDER_ORIGINS).optional(),
  /** Admins only: a placed order (took money, or entered by the owner), not a mere checkout attempt. */
  placed: z.boolean().optional(),
  /** Admins only: its units left stock (it took money, or the owner entered it): cancelling it asks which go back. */
  tookStock: z.boolean().optional(),
  /** Admins only: it has left (shipped or delivered, or a label bought): a return's units default to none. */
  hasShipped: z.boolean().optional(),
  /** Admins only: it may be given a label or marked shipped (paid, or the owner's and not yet paid). */
  shippable: z.boolean().optional(),
  /** Admins only: the statuses the server allows this order to move to now, its own included (orders/status-rules.ts). */
  allowedStatuses: z.array(OrderStatus).optional(),
  /** Admins only: why no label can be bought for it now (null: "Send to ShipStation" is offered). */
  labelRefusal: z.string().nullable().optional(),
  /** Admins only: where its bought label is printed (the shop's own address, admin-only), or null. */
  labelPrintUrl: z.string().nullable().optional(),
});
export type OrderView = z.infer<typeof OrderView>;
export type OrderPaymentStatus = OrderView['paymentStatus'];

/** One refund of an order (admin order JSON), failed ones too. */
export const RefundView = z.object({
  id: z.string(),
  amountCents: z.number().int(),
  provider: z.string(),
  providerRefundId: z.string().nullable(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  reason: z.string().nullable(),
  restock: z.boolean(),
  error: z.string().nullable(),
  /** Who asked for it: the admin's e-mail. */
  actor: z.string(),
  createdAt: z.string(),
});
export type RefundView = z.infer<typeof RefundView>;

/** Orders that may be shipped: paid ones (partly refunded still counts as paid). */
export function isPaidOrder(paymentStatus: string): boolean {
  return paymentStatus === 'paid' || paymentStatus === 'partially_refunded';
}

/**
 * What may be given a label or marked shipped from the list: a paid order, or one the owner entered
 * by hand and not yet paid (the owner takes the payment themselves and vouches for it). The server's
 * SQL form is orders/placed.ts shippableSql.
 */
export function isShippableOrder(paymentStatus: string, origin: OrderOrigin): boolean {
  return isPaidOrder(paymentStatus) || (origin === 'owner' && paymentStatus === 'unpaid');
}

/** One step of the order the customer sees on the receipt: placed, paid, shipped (with tracking), refunded, cancelled. */
export const OrderTimelineEntry = z.object({
  type: z.enum(['placed', 'paid', 'shipped', 'refunded', 'cancelled']),
  at: z.string(),
  trackingNumber: z.string().nullable().optional(),
  /** The carrier code of a 'shipped' step, when known. */
  carrier: z.string().nullable().optional(),
  amountCents: z.number().int().nullable().optional(),
});
export type OrderTimelineEntry = z.infer<typeof OrderTimelineEntry>;

/** One event of an order's full history, for the owner (GET /api/admin/orders/:id/events, newest first). */
export const OrderEventView = z.object({
  id: z.string(),
  type: z.string(),
  /** Who did it: an account's e-mail, 'customer', 'system' or 'Stripe'. */
  actor: z.string(),
  actorUserId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  customerVisible: z.boolean(),
  createdAt: z.string(),
});
export type OrderEventView = z.infer<typeof OrderEventView>;
export const OrderEventsResponse = z.object({ events: z.array(OrderEventView) });

/**
 * The specification's "tracking code": a two-letter brand prefix and the order number (decision
 * 0044: the specification's last 6 characters made a second spelling of one order, `EC3N0EWV` beside
 * `#AX3N0EWV`; the prefix now leads the order number itself, `ECAX3N0EWV`). No carrier knows it, so
 * the shop shows it as the order's reference, never as a tracking number (that is only ever a
 * carrier's number: `trackingNumber`).
 */
export function orderReferenceOf(id: string): string {
  return `EC${numberOf(id)}`;
}

/** The reference as the shop printed it before (EC and the id's last 6): e-mails already sent carry it, so search still finds it. */
export function formerOrderReferenceOf(id: string): string {
  return `EC${id.slice(-6)}`.toUpperCase();
}

/** Label for the brand code wherever it is shown (e-mails, back office, the customer's pages). */
export const ORDER_REFERENCE_LABEL = 'Order reference';

/** @deprecated The brand code is an order reference, not tracking: use `orderReferenceOf`. */
export const trackingCodeOf = orderReferenceOf;

/** One variant's line of the overview's sales by product (variantLabel '' for a product without options). */
export const VariantSalesView = z.object({
  variantId: z.string(),
  label: z.string(),
  units: z.number().int(),
  netSalesCents: z.number().int(),
});

/** A product's line of the overview's sales by product: its units and net sales, and each variant's. */
export const ProductSalesView = z.object({
  productId: z.string(),
  name: z.string(),
  units: z.number().int(),
  netSalesCents: z.number().int(),
  variants: z.array(VariantSalesView),
});
export type ProductSalesView = z.infer<typeof ProductSalesView>;

/**
 * The overview's money for a period, each amount counted on the day it moved (decision 0046): the
 * payments taken in it (with their lines' subtotal, discounts, shipping and tax) and the refunds
 * made in it. Revenue is taken less refunded.
 */
export const OverviewMoneyView = z.object({
  takenCents: z.number().int(),
  refundedCents: z.number().int(),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  shippingCents: z.number().int(),
  taxCents: z.number().int(),
});
export type OverviewMoneyView = z.infer<typeof OverviewMoneyView>;

/** The admin-only address of an order's label, to print (shipping-labels/routes.ts). */
export function labelPrintPath(orderId: string): string {
  return `/api/admin/orders/${encodeURIComponent(orderId)}/label`;
}
