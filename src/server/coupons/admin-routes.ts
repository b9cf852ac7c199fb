import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageQuery } from '../../shared/schemas/paging.js';
import { CouponDeleteQuery, CouponInput } from '../../shared/schemas/admin/coupons.js';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { createCoupon, deleteCoupon, listCoupons, setCouponActive, updateCoupon } from './admin-coupons.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const PageQuery = pageQuery(50);
const ActiveInput = z.object({ isActive: z.boolean({ message: 'isActive must be true or false' }) }).strict();

/** The back office's coupon routes; registered by app.ts inside the admin surface, whose guard covers them. */
export async function registerAdminCouponRoutes(app: FastifyInstance, { db, payments }: Pick<AppDeps, 'db' | 'payments'>): Promise<void> {
  app.get('/api/admin/coupons', access.admin, async (req) => listCoupons(db, parseInput(PageQuery, req.query)));
  // Null in local mode (no Stripe key): coupon actions that ask for Stripe answer stripe 'disabled'.
  const stripe = payments.stripeClient;
  app.post('/api/admin/coupons', access.admin, async (req, reply) => {
    const input = parseInput(CouponInput, req.body);
    const result = await createCoupon(db, input, { stripe, syncStripe: input.syncStripe });
    if (result.stripe?.status === 'failed')
      req.log.warn({ couponId: result.coupon.id, stripe: result.stripe }, 'Stripe refused the coupon');
    return reply.code(201).send(result);
  });
  app.put('/api/admin/coupons/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { coupon: await updateCoupon(db, id, parseInput(CouponInput, req.body)) };
  });
  app.patch('/api/admin/coupons/:id/active', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { coupon: await setCouponActive(db, id, parseInput(ActiveInput, req.body).isActive) };
  });
  app.delete('/api/admin/coupons/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const { syncStripe } = parseInput(CouponDeleteQuery, req.query);
    const result = await deleteCoupon(db, id, { stripe, syncStripe: syncStripe === 'true' });
    if (result.stripe?.status === 'failed') req.log.warn({ couponId: id, stripe: result.stripe }, 'Stripe refused the coupon delete');
    return { ok: true as const, ...result };
  });
}
