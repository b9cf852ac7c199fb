import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { listOutbox } from './outbox.js';
import { access } from '../http/access.js';

const OutboxQuery = z
  .object({
    page: z.coerce.number({ message: 'page must be a number' }).int().min(1, 'page must be at least 1').default(1),
    pageSize: z.coerce
      .number({ message: 'pageSize must be a number' })
      .int()
      .min(1, 'pageSize must be at least 1')
      .max(100, 'pageSize cannot exceed 100')
      .default(25),
  })
  .strict();

export function registerEmailRoutes(app: FastifyInstance, { db }: AppDeps): void {
  app.get('/api/admin/email-outbox', access.admin, async (req) => listOutbox(db, parseInput(OutboxQuery, req.query)));
}
