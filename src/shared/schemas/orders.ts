import { z } from 'zod';

export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled', 'completed'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);

export const OrderAddress = z.object({
  name: z.string().optional(),
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  country: z.string().optional(),
  email: z.string().optional(),
});

export const OrderItemView = z.object({
  id: z.string(),
  productId: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  sku: z.string().nullable(),
  size: z.string(),
  color: z.string(),
  quantity: z.number().int(),
  priceCents: z.number().int(),
  lineTotalCents: z.number().int(),
  isFreeGift: z.boolean(),
});

export const OrderView = z.object({
  id: z.string(),
  orderNumber: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  status: OrderStatus,
  paymentStatus: z.enum(['unpaid', 'paid', 'failed', 'expired', 'refunded']),
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
  /**
   * Admins only: set when the payment arrived for units no longer in stock (the checkout's hold
   * had lapsed), saying what was short. The order is paid; the owner restocks or refunds.
   */
  stockShortfall: z.string().nullable().optional(),
});
export type OrderView = z.infer<typeof OrderView>;

/** The order number shown: the last 8 characters of the id. */
export function orderNumberOf(id: string): string {
  return id.slice(-8);
}

/** The tracking code shown to customers: a two-letter brand prefix and the id's last 6 characters, upper-cased. */
export function trackingCodeOf(id: string): string {
  return `EC${id.slice(-6)}`.toUpperCase();
}
