import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, notFound, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { BackInStockInput, StockWatchQuery, type StockWatchAnswer } from '../../shared/schemas/inventory.js';
import { requestBackInStockLimited } from './service.js';
import { createStockWatches, STOCK_WATCH_WAIT_MS, stockStamp } from './stock-watch.js';

const Id = z.object({ id: z.string().min(1).max(100) });

/** The shop's stock routes: "Notify me when it's back" on a sold-out product or variant (no account needed). */
export async function registerInventoryRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.post('/api/products/:id/notify', access.public, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const { email, variantId } = parseInput(BackInStockInput, req.body);
    const answer = await requestBackInStockLimited(db, id, email, req.ip, variantId);
    if (answer.limited) throw new HttpError(429, answer.message, { 'Retry-After': String(answer.retryAfter) });
    // The same answer for a new request and one already waiting: nobody learns who asked for what.
    return reply.code(202).send({ ok: true, message: answer.message });
  });

  // An open page waits here for the stock it shows to move (stock-watch.ts).
  const watches = createStockWatches();
  app.addHook('preClose', (done) => {
    watches.endAll();
    done();
  });
  app.get('/api/stock/watch', access.public, async (req, reply): Promise<StockWatchAnswer> => {
    const { products, seen } = parseInput(StockWatchQuery, req.query);
    reply.header('Cache-Control', 'no-store');
    const before = await stockStamp(db, products);
    if (before.known.size < products.length) throw notFound('Product not found');
    if (seen !== before.stamp) return { changed: seen !== undefined, stamp: before.stamp };
    const leave = new AbortController();
    reply.raw.on('close', () => leave.abort());
    const how = await watches.next(products, STOCK_WATCH_WAIT_MS, leave.signal);
    const after = await stockStamp(db, products);
    return { changed: how === 'changed' || after.stamp !== seen, stamp: after.stamp };
  });
}
