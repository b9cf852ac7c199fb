import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OrderView } from '../../shared/schemas/orders.js';
import { parseJson } from '../lib/json.js';

export type OrderAccess = { userId: string | null; isAdmin: boolean; deviceHash: string | null };

/** An order, only to its owner: the buyer's account, the browser that placed it, or an admin. */
export async function getOrderForViewer(db: Kysely<Database>, orderId: string, who: OrderAccess): Promise<OrderView | null> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!order) return null;
  const allowed =
    who.isAdmin ||
    (order.user_id !== null && order.user_id === who.userId) ||
    (order.user_id === null && order.guest_token_hash !== null && order.guest_token_hash === who.deviceHash);
  if (!allowed) return null;
  const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).orderBy('id').execute();
  return {
    id: order.id,
    orderNumber: order.order_number,
    userId: order.user_id ?? 'guest',
    email: order.email,
    status: order.status,
    paymentStatus: order.payment_status,
    paymentProvider: order.payment_provider,
    createdAt: order.created_at,
    paidAt: order.paid_at,
    shippingAddress: parseJson(order.shipping_address, null),
    items: items.map((i) => ({
      id: i.id,
      productId: i.product_id,
      name: i.product_name,
      image: i.product_image,
      sku: i.sku,
      size: i.size,
      color: i.color,
      quantity: i.quantity,
      priceCents: i.price_cents,
      lineTotalCents: i.price_cents * i.quantity,
      isFreeGift: Boolean(i.is_free_gift),
    })),
    subtotalCents: order.subtotal_cents,
    discountCents: order.discount_cents,
    shippingCents: order.shipping_cents,
    taxCents: order.tax_cents,
    totalCents: order.total_cents,
    couponCode: order.coupon_code,
    trackingNumber: order.shipstation_tracking_number,
  };
}
