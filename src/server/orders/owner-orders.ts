import type { Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { parseJson } from '../lib/json.js';
import { createOrder, newOrderId } from './create-order.js';
import { takeForOrder } from '../inventory/order-stock.js';
import { variantsForPricing } from '../lib/variant-pricing.js';
import { lineTitle, sizeAndColor, variantLabel, variantOfLine } from '../../shared/variants.js';
import { DEFAULT_CART_COLOR, DEFAULT_CART_SIZE } from '../../shared/stored-cart.js';
import { taxCents } from '../../shared/pricing.js';
import { MAX_ORDER_TOTAL_CENTS } from '../../shared/money.js';
import { OWNER_ORDER_MESSAGES, type OwnerOrderLine } from '../../shared/schemas/owner-orders.js';
import type { OrderView } from '../../shared/schemas/orders.js';
import { recordOrderEvent, type OrderEventActor } from './events.js';
import { getAdminOrder, resolveUserId, storedAddress, type OrderAddressInput } from './admin-orders.js';

type OwnerOrderInput = {
  user_id: string;
  shipping_address: OrderAddressInput;
  status: OrdersTable['status'];
  email?: string;
  note?: string;
  lines: OwnerOrderLine[];
  discountCents?: number;
  shippingCents?: number;
};

/**
 * An order the owner types in with products (a phone or counter sale). Each line is priced from
 * the catalogue as it is now (never from the browser), with the owner's discount and shipping,
 * and tax as at checkout (8% of subtotal − discount + shipping). The units leave stock at once,
 * through the inventory module, last in the transaction as a payment takes them (decision 0023):
 * never from units open checkouts keep; short, the whole order is refused (409, naming what is
 * short). It stays unpaid until the owner records the payment or the customer pays the link
 * (owner-payments.ts); cancelling or deleting it returns its units.
 */
export async function createOrderWithLines(db: Kysely<Database>, input: OwnerOrderInput, actor: OrderEventActor): Promise<OrderView> {
  if (input.status === 'cancelled') throw new HttpError(400, OWNER_ORDER_MESSAGES.newOrderCancelled);
  const user = await resolveUserId(db, input.user_id);
  const wanted = new Map<string, { productId: string; quantity: number }>();
  for (const l of input.lines) {
    const variantId = variantOfLine(l.productId, l.variantId);
    wanted.set(variantId, { productId: l.productId, quantity: (wanted.get(variantId)?.quantity ?? 0) + l.quantity });
  }
  const variants = await variantsForPricing(db, [...wanted.keys()]);
  const byId = new Map(variants.map((v) => [v.variantId, v]));
  for (const [variantId, w] of wanted) {
    const v = byId.get(variantId);
    if (!v || !v.enabled || v.productId !== w.productId) throw new HttpError(400, OWNER_ORDER_MESSAGES.productGone(w.productId));
  }
  const lines = [...wanted].map(([variantId, w]) => ({ variant: byId.get(variantId)!, quantity: w.quantity }));
  const subtotalCents = lines.reduce((n, l) => n + l.variant.priceCents * l.quantity, 0);
  const discountCents = input.discountCents ?? 0;
  if (discountCents > subtotalCents) throw new HttpError(400, OWNER_ORDER_MESSAGES.discountOverSubtotal(subtotalCents));
  const shippingCents = input.shippingCents ?? 0;
  const tax = taxCents(subtotalCents, discountCents, shippingCents);
  const totalCents = subtotalCents - discountCents + shippingCents + tax;
  if (totalCents > MAX_ORDER_TOTAL_CENTS) throw new HttpError(400, OWNER_ORDER_MESSAGES.orderTooLarge);

  const id = newOrderId();
  const orderNumber = id.slice(-8).toUpperCase();
  await transactionWithRetry(db, async (trx) => {
    const now = new Date();
    await createOrder(trx, {
      id,
      origin: 'owner',
      status: input.status,
      lines: lines.map((l) => ({
        productId: l.variant.productId,
        variantId: l.variant.variantId,
        productName: l.variant.name,
        variantLabel: variantLabel(l.variant.values),
        image: l.variant.image ?? parseJson<string[]>(l.variant.images, [])[0] ?? null,
        sku: l.variant.sku,
        quantity: l.quantity,
        priceCents: l.variant.priceCents,
        // An option named Size or Colour is the line's size or colour, as at checkout.
        ...sizeAndColor(l.variant.optionNames, l.variant.values, { size: DEFAULT_CART_SIZE, color: DEFAULT_CART_COLOR }),
        isFreeGift: false,
      })),
      money: { subtotalCents, discountCents, shippingCents, taxCents: tax, totalCents },
      customer: { userId: user.id, email: input.email ?? user.email, shippingAddress: storedAddress(input.shipping_address) },
      placed: {
        actor,
        data: { totalCents, enteredByOwner: true, status: input.status, units: lines.reduce((n, l) => n + l.quantity, 0) },
      },
      at: now,
    });
    if (input.note) await recordOrderEvent(trx, id, 'note', actor, { text: input.note }, now);
    const short = await takeForOrder(trx, {
      orderId: id,
      orderNumber,
      units: lines.map((l) => ({
        productId: l.variant.productId,
        variantId: l.variant.variantId,
        name: lineTitle(l.variant.name, variantLabel(l.variant.values)),
        quantity: l.quantity,
      })),
      now,
      actor,
    });
    if (short.length) throw new HttpError(409, OWNER_ORDER_MESSAGES.notEnoughStock(short));
  });
  return (await getAdminOrder(db, id))!;
}
