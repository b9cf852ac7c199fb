import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { getPublicSettings, listFaqs } from './service.js';
import { parseInput } from '../http/errors.js';
import { ContactInput } from '../../shared/schemas/content.js';
import { forwardContactMessagesNow, submitContact } from './contact.js';
import { access } from '../http/access.js';
import { checkoutProviderOf } from '../payments/stripe.js';

export async function registerContentRoutes(app: FastifyInstance, { db, config }: AppDeps): Promise<void> {
  app.get('/api/settings', access.public, async (_req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return { settings: await getPublicSettings(db, checkoutProviderOf(config)) };
  });

  app.get('/api/faqs', access.public, async (_req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return { items: await listFaqs(db) };
  });

  app.post('/api/contact', access.public, async (req) => {
    const input = parseInput(ContactInput, req.body);
    const { stored } = await submitContact(db, input, req.ip, config.publicUrl);
    if (stored) forwardContactMessagesNow(db, app.log);
    return { ok: true };
  });
}
