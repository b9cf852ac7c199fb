import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { deviceHash } from '../lib/device.js';
import { QuoteInput } from '../../shared/schemas/checkout.js';
import { assertOrderWithinBounds, priceCart } from './service.js';

/** The cart's price as the server reckons it: lines, coupon, shipping, tax (store surface). */
export async function registerCartRoutes(app: FastifyInstance, { db, dialect }: AppDeps): Promise<void> {
  app.post('/api/cart/quote', { config: { ...access.public.config, changesNoSession: true } }, async (req, reply) => {
    const input = parseInput(QuoteInput, req.body);
    reply.header('Cache-Control', 'no-store');
    const {
      couponId: _couponId,
      unchosen: _unchosen,
      ...quote
    } = await priceCart(
      db,
      dialect,
      { lines: input.lines, couponCode: input.couponCode, shippingOptionId: input.shippingOptionId },
      { userId: req.session?.user.id ?? null, deviceHash: deviceHash(req), now: new Date() },
    );
    assertOrderWithinBounds(quote);
    return quote;
  });
}
