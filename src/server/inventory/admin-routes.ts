import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { pageQuery } from '../../shared/schemas/paging.js';
import { StockAdjustmentInput, StockThresholdInput } from '../../shared/schemas/inventory.js';
import { sessionActor } from '../orders/events.js';
import { adjustStock, setLowStockThreshold, stockHistory, stockView } from './admin.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const HistoryQuery = pageQuery(20);

/**
 * The back office's stock routes: a product's stock and ledger, an adjustment or a count, and its
 * low-stock threshold. Registered by app.ts inside the admin surface, whose guard covers them.
 */
export async function registerAdminInventoryRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.get('/api/admin/products/:id/stock', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const { page, pageSize } = parseInput(HistoryQuery, req.query);
    return stockHistory(db, id, { page, pageSize });
  });
  app.post('/api/admin/products/:id/stock', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(StockAdjustmentInput, req.body);
    requireAdmin(req);
    return { stock: await adjustStock(db, id, input, sessionActor(req.session)) };
  });
  app.put('/api/admin/products/:id/stock/threshold', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const { lowStockThreshold } = parseInput(StockThresholdInput, req.body);
    await setLowStockThreshold(db, id, lowStockThreshold);
    return { stock: await stockView(db, id) };
  });
}
