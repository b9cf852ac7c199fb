import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ShippingEnabledInput, ShippingOptionInput } from '../../shared/schemas/admin/shipping.js';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import {
  createShippingOption,
  deleteShippingOption,
  listShippingOptions,
  setShippingOptionEnabled,
  updateShippingOption,
} from './service.js';

const Id = z.object({ id: z.string().min(1).max(100) });

/** The back office's shipping-option routes; registered by app.ts inside the admin surface, whose guard covers them. */
export async function registerAdminShippingRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.get('/api/admin/shipping-options', access.admin, async () => ({ items: await listShippingOptions(db) }));
  app.post('/api/admin/shipping-options', access.admin, async (req, reply) =>
    reply.code(201).send({ option: await createShippingOption(db, parseInput(ShippingOptionInput, req.body)) }),
  );
  app.put('/api/admin/shipping-options/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { option: await updateShippingOption(db, id, parseInput(ShippingOptionInput, req.body)) };
  });
  app.patch('/api/admin/shipping-options/:id/enabled', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { option: await setShippingOptionEnabled(db, id, parseInput(ShippingEnabledInput, req.body).enabled) };
  });
  app.delete('/api/admin/shipping-options/:id', access.admin, async (req) => {
    await deleteShippingOption(db, parseInput(Id, req.params).id);
    return { ok: true };
  });
}
