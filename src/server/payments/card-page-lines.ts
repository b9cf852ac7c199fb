import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { lineHeading } from '../../shared/line-options.js';
import { lineTitle } from '../../shared/variants.js';
import { orderLineOptions } from '../catalog/line-options.js';

/** One line of the order as the test card page lists it above the form. */
export type CardPageLine = { title: string; options: string; quantity: number; lineTotalCents: number; isFreeGift: boolean };

/** What the card page shows of the order it takes payment for: its lines and the sums that make its total. */
export type CardPageOrder = {
  lines: CardPageLine[];
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  /** The order has subscription lines: the card paid with is kept for the renewals ([4/8]). */
  keepsMethod: boolean;
};

/**
 * The order's lines (name, the product's own options, quantity, price) and sums for the test card
 * page (decision 0044): the payer sees what they pay for, as on a hosted provider's page.
 */
export async function cardPageOrder(db: Kysely<Database>, orderId: string): Promise<CardPageOrder | null> {
  const [order, items] = await Promise.all([
    db
      .selectFrom('orders')
      .select(['subtotal_cents', 'discount_cents', 'shipping_cents', 'tax_cents'])
      .where('id', '=', orderId)
      .executeTakeFirst(),
    db
      .selectFrom('order_items')
      .select(['product_id', 'variant_id', 'variant_label', 'product_name', 'quantity', 'price_cents', 'is_free_gift', 'every_weeks'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute(),
  ]);
  if (!order) return null;
  const optionsOf = await orderLineOptions(db, items);
  return {
    lines: items.map((i) => {
      const heading = lineHeading({
        name: lineTitle(i.product_name, i.variant_label),
        productName: i.product_name,
        options: optionsOf(i),
      });
      return {
        title: heading.title,
        options: heading.options,
        quantity: i.quantity,
        lineTotalCents: i.price_cents * i.quantity,
        isFreeGift: Boolean(i.is_free_gift),
      };
    }),
    subtotalCents: Number(order.subtotal_cents),
    discountCents: Number(order.discount_cents),
    shippingCents: Number(order.shipping_cents),
    taxCents: Number(order.tax_cents),
    keepsMethod: items.some((i) => i.every_weeks !== null),
  };
}
