import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { getPublicSettings, listFaqs } from './service.js';

export function registerContentRoutes(app: FastifyInstance, { db }: AppDeps): void {
  app.get('/api/settings', async (_req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return { settings: await getPublicSettings(db) };
  });

  app.get('/api/faqs', async (_req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return { items: await listFaqs(db) };
  });
}
