import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { paymentMode } from './test-payments.js';

/**
 * The back office's view of payments (admin surface): whether they take real money, for its
 * banner. Stray payments' routes are orders' (orders/stray-payment-routes.ts): they write the
 * order's timeline.
 */
export async function registerAdminPaymentRoutes(app: FastifyInstance, { config }: AppDeps): Promise<void> {
  app.get('/api/admin/payment-mode', access.admin, async () => paymentMode(config));
}
