import type { FastifyInstance, FastifyReply } from 'fastify';
import { ProductIdParam, ProductListQuery, type ProductListFilter } from '../../shared/schemas/catalog.js';
import { parseInput, notFound } from '../http/errors.js';
import type { AppDeps } from '../app.js';
import { MicroCache } from '../http/micro-cache.js';
import { getProductDetail, listCategories, listFeaturedProducts, listProductsJson } from './service.js';
import { catalogueIndex } from './search-index.js';
import { listRelatedProducts } from './related.js';
import { access } from '../http/access.js';

/** How long a catalogue answer is reused (stock and prices are re-checked at checkout anyway). */
export const CATALOGUE_CACHE_MS = 1000;

/**
 * The list's query in its everyday forms (a search text, a page number, a category, the featured
 * flag) read without the schema, which costs more than the rest of a cached answer; anything else
 * (a value the schema would refuse or coerce, an unknown key, a repeated key, a sort or a price
 * range) answers null and goes through `ProductListQuery`, which stays the rule and gives the error
 * messages.
 */
function readListQuery(query: unknown): ProductListFilter | null {
  if (query === null || typeof query !== 'object') return null;
  let search: string | undefined;
  let category: string | undefined;
  let featured: boolean | undefined;
  let page = 1;
  let pageSize = 24;
  const q = query as Record<string, unknown>;
  for (const key in q) {
    const value = q[key];
    if (typeof value !== 'string') return null;
    if (key === 'search') {
      if (value.length > 100 || value.includes('\u0000')) return null;
      search = value.trim() || undefined;
    } else if (key === 'page') {
      if (!/^[1-9][0-9]{0,4}$/.test(value)) return null;
      page = Number(value);
    } else if (key === 'pageSize') {
      if (!/^[1-9][0-9]?$/.test(value)) return null;
      pageSize = Number(value);
    } else if (key === 'category') {
      if (!/^[a-z0-9-]{0,50}$/.test(value)) return null;
      category = value === '' || value === 'all' ? undefined : value;
    } else if (key === 'featured') {
      if (value !== 'true' && value !== 'false') return null;
      featured = value === 'true';
    } else return null;
  }
  // The schema's key order, so both readings give the same cache key.
  return { search, category, featured, sort: undefined, page, pageSize, minPriceCents: undefined, maxPriceCents: undefined };
}

function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(body);
}

export async function registerCatalogRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  // Past its second an answer is still served (for up to 4 s more) while one request rebuilds it,
  // so a slow rebuild never holds the others up.
  const cache = new MicroCache<string>(CATALOGUE_CACHE_MS, 1000, 4000, true);
  // The list's answers come from the in-memory index (search-index.ts); the few most asked are
  // kept whole for their second, so a popular search is not matched again for every shopper.
  const lists = new MicroCache<string>(CATALOGUE_CACHE_MS, 200, 0, true);
  const json = (value: unknown) => JSON.stringify(value);
  // The index is built when the server is ready, not at the first shopper's request.
  app.addHook('onReady', async () => {
    void catalogueIndex(db)
      .warm()
      .catch((err: unknown) => app.log.warn({ err }, 'Could not build the catalogue index; the first list request will try again'));
  });

  app.get('/api/products', access.public, async (req, reply) => {
    const filter = readListQuery(req.query) ?? parseInput(ProductListQuery, req.query);
    return sendJson(reply, await lists.get(JSON.stringify(filter), () => listProductsJson(db, filter)));
  });

  app.get('/api/products/featured', access.public, async (_req, reply) => {
    return sendJson(reply, await cache.get('featured', async () => json({ items: await listFeaturedProducts(db) })));
  });

  app.get('/api/products/:id', access.public, async (req, reply) => {
    const { id } = parseInput(ProductIdParam, req.params);
    // { product, options, variants, stock } (catalog/service.ts getProductDetail).
    const body = await cache.get(`product:${id}`, async () => json(await getProductDetail(db, id)));
    if (body === 'null') throw notFound('Product not found');
    return sendJson(reply, body);
  });

  app.get('/api/categories', access.public, async (_req, reply) => {
    return sendJson(reply, await cache.get('categories', async () => json({ items: await listCategories(db) })));
  });
}

/** GET /api/products/:id/related → { items: ProductCardItem[] } (404 for an unknown product). */
export async function registerRelatedProductRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  const cache = new MicroCache<string>(CATALOGUE_CACHE_MS, 1000, 0, true);
  app.get('/api/products/:id/related', access.public, async (req, reply) => {
    const { id } = parseInput(ProductIdParam, req.params);
    const body = await cache.get(id, async () => {
      const items = await listRelatedProducts(db, id);
      return items ? JSON.stringify({ items }) : 'null';
    });
    if (body === 'null') throw notFound('Product not found');
    return reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(body);
  });
}
