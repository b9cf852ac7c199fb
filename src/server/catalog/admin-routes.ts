import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { AdminProductListQuery, ProductInput, ProductUpdateInput } from '../../shared/schemas/admin/products.js';
import { CategoryInput } from '../../shared/schemas/admin/categories.js';
import { ProductVariantsInput } from '../../shared/schemas/admin/variants.js';
import { requireAdmin } from '../http/auth.js';
import { sessionActor } from '../lib/actors.js';
import { auditPriceEdits } from '../audit/audit.js';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import {
  createProduct,
  deleteCategory,
  deleteProduct,
  listAdminCategories,
  listAdminProducts,
  updateProduct,
  upsertCategory,
} from './admin-catalog.js';
import { MAX_IMAGE_BYTES, storeImage } from './uploads.js';
import { bulkProducts } from './bulk-products.js';
import { productVariantsView, replaceProductVariants } from './variants.js';
import { BulkProductInput } from '../../shared/schemas/bulk.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const UploadKind = z.object({ kind: z.enum(['products', 'categories', 'content']).default('products') }).strict();

/**
 * The back office's product, category and image-upload routes. Registered by app.ts inside the
 * admin surface, whose guard covers them; the multipart parser it adds serves the uploads.
 */
export async function registerAdminCatalogRoutes(app: FastifyInstance, { db, files }: Pick<AppDeps, 'db' | 'files'>): Promise<void> {
  // Registered in the admin surface: its guard covers every route here, however the path is spelled.
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } });

  app.get('/api/admin/products', access.admin, async (req) => listAdminProducts(db, parseInput(AdminProductListQuery, req.query)));
  app.post('/api/admin/products', access.admin, async (req, reply) => {
    const input = parseInput(ProductInput, req.body);
    requireAdmin(req);
    return reply.code(201).send({ product: await createProduct(db, input, sessionActor(req.session)) });
  });
  app.put('/api/admin/products/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(ProductUpdateInput, req.body);
    return { product: await auditPriceEdits(db, req.session, id, () => updateProduct(db, id, input)) };
  });
  // A product's options and all its variants (switched off ones too), and the whole set replaced at once.
  app.get('/api/admin/products/:id/variants', access.admin, async (req) => productVariantsView(db, parseInput(Id, req.params).id));
  app.put('/api/admin/products/:id/variants', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(ProductVariantsInput, req.body);
    requireAdmin(req);
    return auditPriceEdits(db, req.session, id, () => replaceProductVariants(db, id, input, sessionActor(req.session)));
  });
  app.delete('/api/admin/products/:id', access.admin, async (req) => {
    await deleteProduct(db, parseInput(Id, req.params).id);
    return { ok: true };
  });
  // Bulk: change category, set or unset featured, delete; each product reported (catalog/bulk-products.ts).
  app.post('/api/admin/products/bulk', access.admin, async (req) => ({
    results: await bulkProducts(db, parseInput(BulkProductInput, req.body), req.log),
  }));
  // Every category, the empty ones too (hidden from shoppers until they have an active product), with their counts.
  app.get('/api/admin/categories', access.admin, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { items: await listAdminCategories(db) };
  });
  app.post('/api/admin/categories', access.admin, async (req, reply) =>
    reply.code(201).send({ category: await upsertCategory(db, parseInput(CategoryInput, req.body), 'create') }),
  );
  app.put('/api/admin/categories/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(CategoryInput, { ...(req.body as object), id });
    return { category: await upsertCategory(db, input, 'update') };
  });
  app.delete('/api/admin/categories/:id', access.admin, async (req) => {
    await deleteCategory(db, parseInput(Id, req.params).id);
    return { ok: true };
  });
  // Images for products, categories and content pages (catalog/uploads.ts), served by files/routes.ts.
  app.post('/api/admin/uploads', access.admin, async (req, reply) => {
    const { kind } = parseInput(UploadKind, req.query);
    if (!req.isMultipart()) throw new HttpError(400, 'Send the image as multipart/form-data in a field named "file"');
    // A body that ends before its closing boundary (the connection dropped, or it was cut short) is
    // the sender's: 400, and nothing was stored (the file is only written once it is whole).
    const cutOff = (err: unknown): never => {
      if (req.raw.destroyed || /unexpected end of (multipart data|form)/i.test(err instanceof Error ? err.message : '')) {
        throw new HttpError(400, ADMIN_MESSAGES.uploadCutOff);
      }
      throw err;
    };
    const file = await req.file().catch(cutOff);
    if (!file) throw new HttpError(400, 'Choose an image to upload');
    const buf = await file.toBuffer().catch((err: { code?: string }) => {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, ADMIN_MESSAGES.imageSize);
      return cutOff(err);
    });
    return reply.code(201).send({ url: await storeImage(files, kind, buf) });
  });
}
