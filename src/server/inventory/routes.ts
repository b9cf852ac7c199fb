import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { BackInStockInput } from '../../shared/schemas/inventory.js';
import { requestBackInStockLimited } from './service.js';

const Id = z.object({ id: z.string().min(1).max(100) });

/** The shop's stock routes: "Notify me when it's back" on a sold-out product or variant (no account needed). */
export async function registerInventoryRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.post('/api/products/:id/notify', access.public, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const { email, variantId } = parseInput(BackInStockInput, req.body);
    const answer = await requestBackInStockLimited(db, id, email, req.ip, variantId);
    if (answer.limited) throw new HttpError(429, answer.message, { 'Retry-After': String(answer.retryAfter) });
    return reply.code(answer.created ? 201 : 200).send({ ok: true, message: answer.message });
  });
}
