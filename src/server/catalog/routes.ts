import type { FastifyInstance, FastifyReply } from 'fastify';
import { ProductIdParam, ProductListQuery } from '../../shared/schemas/catalog.js';
import { parseInput, notFound } from '../http/errors.js';
import type { AppDeps } from '../app.js';
import { MicroCache } from '../http/micro-cache.js';
import { getProduct, listCategories, listFeaturedProducts, listProducts } from './service.js';
import { access } from '../http/access.js';

/** How long a catalogue answer is reused (stock and prices are re-checked at checkout anyway). */
export const CATALOGUE_CACHE_MS = 1000;

function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(body);
}

export function registerCatalogRoutes(app: FastifyInstance, { db }: AppDeps): void {
  // Past its second an answer is still served (for up to 4 s more) while one request rebuilds it,
  // so a slow rebuild (a search over a large catalogue) never holds the others up.
  const cache = new MicroCache<string>(CATALOGUE_CACHE_MS, 1000, 4000);
  const json = (value: unknown) => JSON.stringify(value);

  app.get('/api/products', access.public, async (req, reply) => {
    const filter = parseInput(ProductListQuery, req.query);
    return sendJson(reply, await cache.get(`list:${JSON.stringify(filter)}`, async () => json(await listProducts(db, filter))));
  });

  app.get('/api/products/featured', access.public, async (_req, reply) => {
    return sendJson(reply, await cache.get('featured', async () => json({ items: await listFeaturedProducts(db) })));
  });

  app.get('/api/products/:id', access.public, async (req, reply) => {
    const { id } = parseInput(ProductIdParam, req.params);
    const body = await cache.get(`product:${id}`, async () => {
      const product = await getProduct(db, id);
      return json(product ? { product } : null);
    });
    if (body === 'null') throw notFound('Product not found');
    return sendJson(reply, body);
  });

  app.get('/api/categories', access.public, async (_req, reply) => {
    return sendJson(reply, await cache.get('categories', async () => json({ items: await listCategories(db) })));
  });
}
