import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { z } from 'zod';
import { pageQuery } from '../../shared/schemas/paging.js';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { adminStats, getOrderForViewer } from '../orders/service.js';
import {
  AdminOrderInput,
  AdminOrderListQuery,
  AdminOrdersOverviewQuery,
  AdminUserListQuery,
  ADMIN_MESSAGES,
  CategoryInput,
  OrderNoteInput,
  OrderStatusInput,
  ProductInput,
  RefundInput,
  ShippingEnabledInput,
  ShippingOptionInput,
  UserPatchInput,
} from '../../shared/schemas/admin.js';
import {
  addOrderNote,
  createAdminOrder,
  deleteOrder,
  listAdminOrdersJson,
  updateAdminOrder,
  updateOrderStatus,
} from '../orders/admin-orders.js';
import {
  createProduct,
  deleteCategory,
  deleteProduct,
  listAdminProducts,
  updateProduct,
  upsertCategory,
} from '../catalog/admin-catalog.js';
import {
  createShippingOption,
  deleteShippingOption,
  listShippingOptions,
  setShippingOptionEnabled,
  updateShippingOption,
} from '../shipping/service.js';
import { listUsers, patchUser } from '../accounts/admin-users.js';
import { registerAdminCouponRoutes } from '../coupons/admin-routes.js';
import { ordersOverview } from '../orders/overview.js';
import { refundOrder, retryRefund } from '../orders/refunds.js';
import { accountActor, listOrderEvents } from '../orders/events.js';
import { createStripeClient } from '../payments/stripe.js';
import { MAX_IMAGE_BYTES, storeImage } from '../catalog/uploads.js';
import { FORM_MIN_FILL_MS } from '../../shared/schemas/auth.js';
import { access, declarePublicFiles } from '../http/access.js';
import { registerAdminExports } from '../orders/exports.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const RefundRetryParams = Id.extend({ refundId: z.string().min(1).max(100) });
const PageQuery = pageQuery(50);
const UploadKind = z.object({ kind: z.enum(['products', 'categories', 'content']).default('products') }).strict();
const ADMIN_VIEW = { userId: null, isAdmin: true, deviceHash: null } as const;

export async function registerAdminRoutes(app: FastifyInstance, { db, config }: AppDeps): Promise<void> {
  // Registered in the admin surface: its guard covers every route here, however the path is spelled.
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } });

  app.get('/api/admin/stats', access.admin, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const recent = await db
      .selectFrom('users')
      .select(['id', 'email', 'full_name', 'role', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(5)
      .execute();
    return {
      stats: await adminStats(db),
      recentUsers: recent.map((u) => ({ id: u.id, email: u.email, fullName: u.full_name, role: u.role, createdAt: u.created_at })),
    };
  });

  // ---- Orders ----
  // CSV exports of the filtered order list and of the customers, streamed (admin/exports.ts).
  registerAdminExports(app, db);
  const refundStripe = createStripeClient(config);
  app.get('/api/admin/orders', access.admin, async (req, reply) =>
    reply.type('application/json; charset=utf-8').send(await listAdminOrdersJson(db, parseInput(AdminOrderListQuery, req.query))),
  );
  // A static path: find-my-way prefers it to /api/admin/orders/:id whatever the order; kept first anyway.
  app.get('/api/admin/orders/overview', access.admin, async (req, reply) => {
    const { days } = parseInput(AdminOrdersOverviewQuery, req.query);
    reply.header('Cache-Control', 'no-store');
    return ordersOverview(db, days);
  });
  app.get('/api/admin/orders/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const order = await getOrderForViewer(db, id, ADMIN_VIEW);
    if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    return { order };
  });
  app.post('/api/admin/orders', access.admin, async (req, reply) => {
    const input = parseInput(AdminOrderInput, req.body);
    // The form's bot guard: too fast or a filled decoy is ignored without creating anything.
    if (input.website || input.elapsedMs === undefined || input.elapsedMs < FORM_MIN_FILL_MS)
      return reply.code(202).send({ ignored: true });
    return reply.code(201).send({ order: await createAdminOrder(db, input, accountActor(requireAdmin(req))) });
  });
  app.put('/api/admin/orders/:id', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(AdminOrderInput, req.body);
    if (input.website || input.elapsedMs === undefined || input.elapsedMs < FORM_MIN_FILL_MS)
      return reply.code(202).send({ ignored: true });
    return { order: await updateAdminOrder(db, id, input, accountActor(requireAdmin(req))) };
  });
  app.patch('/api/admin/orders/:id/status', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const { status } = parseInput(OrderStatusInput, req.body);
    // The list's and detail's quick status change: "shipped" only for a paid order (the edit form may set any).
    return { order: await updateOrderStatus(db, id, status, { actor: accountActor(requireAdmin(req)), refuseUnpaidShipping: true }) };
  });
  // The order's timeline, newest first, and the owner's notes on it.
  app.get('/api/admin/orders/:id/events', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const order = await db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst();
    if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    return { events: await listOrderEvents(db, id) };
  });
  app.post('/api/admin/orders/:id/notes', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const { text } = parseInput(OrderNoteInput, req.body);
    await addOrderNote(db, id, text, accountActor(requireAdmin(req)));
    return reply.code(201).send({ events: await listOrderEvents(db, id) });
  });
  app.delete('/api/admin/orders/:id', access.admin, async (req) => {
    await deleteOrder(db, parseInput(Id, req.params).id);
    return { ok: true };
  });
  // A full or partial refund through the order's payment provider (order-money.ts).
  app.post('/api/admin/orders/:id/refunds', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(RefundInput, req.body);
    const { refund } = await refundOrder(db, { stripe: refundStripe }, id, input, accountActor(requireAdmin(req)));
    const order = await getOrderForViewer(db, id, ADMIN_VIEW);
    return reply.code(201).send({ refund, order });
  });
  // Asks again for a refund the provider never answered (same idempotency key: made at most once).
  app.post('/api/admin/orders/:id/refunds/:refundId/retry', access.admin, async (req) => {
    const { id, refundId } = parseInput(RefundRetryParams, req.params);
    const { refund } = await retryRefund(db, { stripe: refundStripe }, id, refundId, accountActor(requireAdmin(req)));
    return { refund, order: await getOrderForViewer(db, id, ADMIN_VIEW) };
  });

  // ---- Products and categories ----
  app.get('/api/admin/products', access.admin, async (req) => listAdminProducts(db, parseInput(PageQuery, req.query)));
  app.post('/api/admin/products', access.admin, async (req, reply) =>
    reply.code(201).send({ product: await createProduct(db, parseInput(ProductInput, req.body)) }),
  );
  app.put('/api/admin/products/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { product: await updateProduct(db, id, parseInput(ProductInput, req.body)) };
  });
  app.delete('/api/admin/products/:id', access.admin, async (req) => {
    await deleteProduct(db, parseInput(Id, req.params).id);
    return { ok: true };
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
  app.post('/api/admin/uploads', access.admin, async (req, reply) => {
    const { kind } = parseInput(UploadKind, req.query);
    if (!req.isMultipart()) throw new HttpError(400, 'Send the image as multipart/form-data in a field named "file"');
    const file = await req.file();
    if (!file) throw new HttpError(400, 'Choose an image to upload');
    const buf = await file.toBuffer().catch((err: { code?: string }) => {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, ADMIN_MESSAGES.imageSize);
      throw err;
    });
    return reply.code(201).send({ url: await storeImage(config.uploadDir, kind, buf) });
  });

  // ---- Coupons (coupons/admin-routes.ts), shipping options, users ----
  registerAdminCouponRoutes(app, { db, config });

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

  app.get('/api/admin/users', access.admin, async (req) => listUsers(db, parseInput(AdminUserListQuery, req.query)));
  app.patch('/api/admin/users/:id', access.admin, async (req) => {
    const admin = requireAdmin(req);
    const { id } = parseInput(Id, req.params);
    return { user: await patchUser(db, admin.id, id, parseInput(UserPatchInput, req.body)) };
  });
}

/** Uploaded images, served to everyone (pages surface); file names are random and never reused. */
export async function registerUploadedFiles(app: FastifyInstance, { config }: AppDeps): Promise<void> {
  const uploads = path.resolve(config.uploadDir);
  fs.mkdirSync(uploads, { recursive: true });
  await app.register(async (files) => {
    declarePublicFiles(files);
    await files.register(fastifyStatic, {
      root: uploads,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
      setHeaders: (res) => {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  });
}
