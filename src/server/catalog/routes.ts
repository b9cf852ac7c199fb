import type { FastifyInstance } from 'fastify';
import { ProductIdParam, ProductListQuery } from '../../shared/schemas/catalog.js';
import { parseInput, notFound } from '../http/errors.js';
import type { AppDeps } from '../app.js';
import { getProduct, listCategories, listFeaturedProducts, listProducts } from './service.js';

export function registerCatalogRoutes(app: FastifyInstance, { db }: AppDeps): void {
  app.get('/api/products', async (req, reply) => {
    const filter = parseInput(ProductListQuery, req.query);
    reply.header('Cache-Control', 'no-cache');
    return listProducts(db, filter);
  });

  app.get('/api/products/featured', async (_req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return { items: await listFeaturedProducts(db) };
  });

  app.get('/api/products/:id', async (req, reply) => {
    const { id } = parseInput(ProductIdParam, req.params);
    const product = await getProduct(db, id);
    if (!product) throw notFound('Product not found');
    reply.header('Cache-Control', 'no-cache');
    return { product };
  });

  app.get('/api/categories', async (_req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return { items: await listCategories(db) };
  });
}
