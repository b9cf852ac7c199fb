import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PendingWrite } from '../../db/query-helpers.js';
import type { PricedCart } from '../../cart/service.js';
import { recordAudit } from '../../audit/audit.js';
import { createOrder } from '../../orders/create-order.js';
import { CUSTOMER_ACTOR } from '../../orders/events.js';
import { deliveryChoiceData } from '../../orders/delivery-choice.js';
import type { CheckoutContext, CheckoutInput } from './types.js';

/**
 * The checkout's order (orders/create-order.ts): pending and unpaid, priced as `priced`, for the
 * session that will take its money; its writes go into `writes`, run with the stock reservation
 * (one round trip on PostgreSQL). An admin acting as the customer is named in the audit log.
 */
export async function createCheckoutOrder(
  trx: Kysely<Database>,
  o: { orderId: string; sessionId: string; priced: PricedCart; input: CheckoutInput; ctx: CheckoutContext },
  writes: PendingWrite[],
): Promise<void> {
  const { orderId, priced, input, ctx } = o;
  const address = { ...input.shippingAddress, country: 'US', email: input.customerEmail };
  await createOrder(
    trx,
    {
      id: orderId,
      origin: 'checkout',
      status: 'pending',
      // The variant's SKU came with its price (no read of its own while the checkout's transaction is open).
      lines: priced.lines.map((l) => ({
        productId: l.productId,
        variantId: l.variantId,
        productName: l.productName,
        variantLabel: l.variantLabel,
        image: l.image,
        sku: priced.variants?.get(l.variantId)?.sku ?? null,
        quantity: l.quantity,
        priceCents: l.priceCents,
        size: l.size,
        color: l.color,
        isFreeGift: l.isFreeGift,
        // A subscription line (issue [4/8]): its price is already less the plan's discount.
        everyWeeks: l.everyWeeks ?? null,
        planDiscountPercent: l.planDiscountPercent ?? null,
      })),
      money: priced,
      customer: {
        userId: ctx.userId,
        email: input.customerEmail.toLowerCase(),
        shippingAddress: JSON.stringify(address),
        guestTokenHash: ctx.deviceHash,
      },
      session: { id: o.sessionId, provider: ctx.provider },
      couponCode: priced.coupon?.code ?? null,
      shippingOptionId: priced.selectedShippingOptionId,
      placed: {
        actor: ctx.actor ?? CUSTOMER_ACTOR,
        data: { totalCents: priced.totalCents, provider: ctx.provider, ...deliveryChoiceData(priced) },
      },
      at: ctx.now,
    },
    { writeWith: writes },
  );
  if (ctx.actor?.actingAsUserId) {
    await recordAudit(trx, {
      by: { actorId: ctx.actor.userId, actingAsId: ctx.actor.actingAsUserId },
      action: 'order.placed',
      targetUserId: ctx.userId,
      details: { orderId, totalCents: priced.totalCents },
      at: ctx.now,
    });
  }
}
