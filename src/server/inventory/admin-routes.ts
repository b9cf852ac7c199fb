import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { pageQuery } from '../../shared/schemas/paging.js';
import { BackInStockWaitingQuery, StockAdjustmentInput, StockThresholdInput } from '../../shared/schemas/inventory.js';
import { sessionActor } from '../lib/actors.js';
import { adjustStock, setLowStockThreshold, stockHistory, type StockTarget } from './admin.js';
import { listWaitingRequests } from './back-in-stock.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const VariantId = z.object({ variantId: z.string().min(1).max(120) });
const HistoryQuery = pageQuery(20);

/**
 * The back office's stock routes: a variant's stock and ledger, an adjustment or a count, and its
 * low-stock threshold, by variant, or by product for a product sold in one variant (a product with
 * several answers 409 "choose a variant"). Registered by app.ts inside the admin surface, whose
 * guard covers them.
 */
export async function registerAdminInventoryRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  const routes = (path: string, targetOf: (params: unknown) => StockTarget) => {
    app.get(`${path}/stock`, access.admin, async (req) => {
      const target = targetOf(req.params);
      const { page, pageSize } = parseInput(HistoryQuery, req.query);
      return stockHistory(db, target, { page, pageSize });
    });
    app.post(`${path}/stock`, access.admin, async (req) => {
      const target = targetOf(req.params);
      const input = parseInput(StockAdjustmentInput, req.body);
      requireAdmin(req);
      return { stock: await adjustStock(db, target, input, sessionActor(req.session)) };
    });
    app.put(`${path}/stock/threshold`, access.admin, async (req) => {
      const target = targetOf(req.params);
      const { lowStockThreshold } = parseInput(StockThresholdInput, req.body);
      return { stock: await setLowStockThreshold(db, target, lowStockThreshold) };
    });
  };
  // What shoppers wait for ("Notify me when it's back"), most awaited first (back-in-stock.ts).
  app.get('/api/admin/back-in-stock', access.admin, async (req) => listWaitingRequests(db, parseInput(BackInStockWaitingQuery, req.query)));
  routes('/api/admin/products/:id', (params) => parseInput(Id, params).id);
  routes('/api/admin/variants/:variantId', (params) => ({ variantId: parseInput(VariantId, params).variantId }));
}
