import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { auditByOf } from '../audit/audit.js';
import { SubscriptionPlanInput } from '../../shared/subscriptions.js';
import { SubscriptionSettingsInput } from '../../shared/schemas/admin/subscription-plans.js';
import { productPlansView, removeVariantPlan, saveProductPlan, saveVariantPlan } from './admin-plans.js';
import { readSubscriptionSettings, saveSubscriptionSettings } from './settings.js';

const ProductParams = z.object({ productId: z.string().min(1).max(100) }).strict();
const VariantParams = z.object({ productId: z.string().min(1).max(100), variantId: z.string().min(1).max(100) }).strict();

/**
 * The owner's Subscribe and save (issue [4/8] item 1): a product's plan and its variants' own,
 * and the shop-wide subscription settings. Registered by app.ts inside the admin surface, whose
 * guard covers every route here however the path is spelled, and which bumps the shop's change
 * signal after each successful write.
 */
export async function registerAdminSubscriptionRoutes(
  app: FastifyInstance,
  { db, dialect }: Pick<AppDeps, 'db' | 'dialect'>,
): Promise<void> {
  const by = (req: Parameters<typeof requireAdmin>[0]) =>
    auditByOf({ user: requireAdmin(req), impersonator: req.session?.impersonator ?? null });

  app.get('/api/admin/products/:productId/subscription-plans', access.admin, async (req) =>
    productPlansView(db, parseInput(ProductParams, req.params).productId),
  );
  app.put('/api/admin/products/:productId/subscription-plan', access.admin, async (req) => {
    const { productId } = parseInput(ProductParams, req.params);
    const terms = parseInput(SubscriptionPlanInput, req.body);
    return saveProductPlan(db, dialect, productId, terms, by(req));
  });
  app.put('/api/admin/products/:productId/variants/:variantId/subscription-plan', access.admin, async (req) => {
    const { productId, variantId } = parseInput(VariantParams, req.params);
    const terms = parseInput(SubscriptionPlanInput, req.body);
    return saveVariantPlan(db, dialect, productId, variantId, terms, by(req));
  });
  app.delete('/api/admin/products/:productId/variants/:variantId/subscription-plan', access.admin, async (req) => {
    const { productId, variantId } = parseInput(VariantParams, req.params);
    return removeVariantPlan(db, dialect, productId, variantId, by(req));
  });

  app.get('/api/admin/subscription-settings', access.admin, async () => readSubscriptionSettings(db));
  app.put('/api/admin/subscription-settings', access.admin, async (req) =>
    saveSubscriptionSettings(db, parseInput(SubscriptionSettingsInput, req.body), by(req)),
  );
}
