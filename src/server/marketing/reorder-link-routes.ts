import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { HttpError, notFound, parseInput } from '../http/errors.js';
import { REORDER_MESSAGES } from '../../shared/schemas/reorder-reminders.js';
import { noteReorderClick, reorderBatchOfToken, reorderPreview, type ReorderBatch } from './reorder-link.js';

const TokenParam = z.object({ token: z.string().max(200) }).strict();
const NoBody = z.union([z.undefined(), z.null(), z.object({}).strict()]);

/** The reorder reminder's link (store surface, marketing/reorder-link.ts): read it (GET), or use it (POST). Neither signs anyone in. */
export async function registerReorderLinkRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  const batchOf = async (params: unknown, now: Date): Promise<ReorderBatch> => {
    const { token } = parseInput(TokenParam, params);
    const batch = await reorderBatchOfToken(db, token);
    if (!batch) throw notFound(REORDER_MESSAGES.linkUnknown);
    if (Date.parse(batch.expiresAt) <= now.getTime()) throw new HttpError(410, REORDER_MESSAGES.linkExpired);
    return batch;
  };

  app.get('/api/reorder/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const now = new Date();
    return reorderPreview(db, await batchOf(req.params, now), now);
  });

  app.post('/api/reorder/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    parseInput(NoBody, req.body);
    const now = new Date();
    const batch = await batchOf(req.params, now);
    await noteReorderClick(db, batch.id, now);
    return reorderPreview(db, batch, now);
  });
}
