import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import {
  AdminOrderExportQuery,
  AdminOrderInput,
  AdminOrderListQuery,
  AdminOrdersOverviewQuery,
  OrderNoteInput,
  OrderStatusInput,
} from '../../shared/schemas/admin/orders.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { RefundInput } from '../../shared/schemas/admin/order-money.js';
import { looksAutomated } from '../../shared/bot-guard.js';
import { adminStats, recentUsers } from './service.js';
import {
  addOrderNote,
  createAdminOrder,
  deleteOrder,
  getAdminOrder,
  listAdminOrderEvents,
  listAdminOrders,
  updateAdminOrder,
  updateOrderStatus,
} from './admin-orders.js';
import { ordersOverview } from './overview.js';
import { lastDays, periodOf, shopTimeZone } from './shop-calendar.js';
import { CustomerExportQuery } from '../../shared/schemas/reports.js';
import type { PeriodRange } from '../../shared/shop-time.js';
import { orderReturnLines } from './order-units.js';
import { refundOrder, retryRefund } from './refunds.js';
import { cancelWithRefund } from './cancel-order.js';
import { createOrderWithLines } from './owner-orders.js';
import { correctOwnerPaymentMethod, recordOwnerPayment, sendPaymentLink } from './owner-payments.js';
import { CorrectPaymentMethodInput, OWNER_ORDER_MESSAGES, RecordPaymentInput } from '../../shared/schemas/owner-orders.js';
import { customersCsv, orderLinesCsv, ordersCsv } from './exports.js';
import { listOrderEvents, sessionActor, type OrderEventActor } from './events.js';

const Id = z.object({ id: z.string().min(1).max(100) });
/** POST …/payment-link takes no fields: the amount is the order's, as the server has it. */
const PaymentLinkRequest = z.object({}).strict();

/** The admin at the keyboard, as the timeline, refunds and audit log name them. */
function adminActor(req: FastifyRequest): OrderEventActor {
  requireAdmin(req);
  return sessionActor(req.session);
}
const RefundRetryParams = Id.extend({ refundId: z.string().min(1).max(100) });

function sendCsv(reply: FastifyReply, name: string, rows: AsyncGenerator<string>, period?: PeriodRange | null): FastifyReply {
  const day = new Date().toISOString().slice(0, 10);
  // A period's file says which days it holds (the shop's days), so two downloads are told apart.
  const file = period ? `${name}-${period.from}-to-${period.to}` : `${name}-${day}`;
  reply.header('Content-Type', 'text/csv; charset=utf-8');
  reply.header('Content-Disposition', `attachment; filename="${file}.csv"`);
  return reply.send(Readable.from(rows));
}

/**
 * The back office's order routes: the dashboard's figures, the order list, its overview and CSV
 * exports, an order's detail, edits, status, timeline, notes and refunds. Registered by app.ts
 * inside the admin surface, whose guard covers them.
 */
export async function registerAdminOrderRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'db' | 'config' | 'payments'>): Promise<void> {
  const { db, config } = deps;
  app.get('/api/admin/stats', access.admin, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const recent = await recentUsers(db);
    return { stats: await adminStats(db), recentUsers: recent };
  });

  // CSV exports of the filtered order list and of the customers, streamed (orders/exports.ts).
  app.get('/api/admin/exports/orders.csv', access.admin, async (req, reply) => {
    const { lines, ...filters } = parseInput(AdminOrderExportQuery, req.query);
    const timeZone = await shopTimeZone(db);
    const q = { ...filters, timeZone, period: periodOf(filters, timeZone) };
    return lines === '1'
      ? sendCsv(reply, 'order-lines', orderLinesCsv(db, q), q.period)
      : sendCsv(reply, 'orders', ordersCsv(db, q), q.period);
  });
  app.get('/api/admin/exports/customers.csv', access.admin, async (req, reply) => {
    const query = parseInput(CustomerExportQuery, req.query);
    const timeZone = await shopTimeZone(db);
    const period = periodOf(query, timeZone);
    return sendCsv(reply, 'customers', customersCsv(db, { timeZone, period }), period);
  });

  app.get('/api/admin/orders', access.admin, async (req) => listAdminOrders(db, parseInput(AdminOrderListQuery, req.query)));
  // A static path: find-my-way prefers it to /api/admin/orders/:id whatever the order; kept first anyway.
  app.get('/api/admin/orders/overview', access.admin, async (req, reply) => {
    const query = parseInput(AdminOrdersOverviewQuery, req.query);
    reply.header('Cache-Control', 'no-store');
    const timeZone = await shopTimeZone(db);
    return ordersOverview(db, periodOf(query, timeZone) ?? lastDays(query.days, timeZone), timeZone);
  });
  app.get('/api/admin/orders/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const order = await getAdminOrder(db, id);
    if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    return { order };
  });
  app.post('/api/admin/orders', access.admin, async (req, reply) => {
    const input = parseInput(AdminOrderInput, req.body);
    // The form's bot guard: too fast or a filled decoy is ignored without creating anything.
    if (looksAutomated('adminOrder', input)) return reply.code(202).send({ ignored: true });
    // With product lines: priced from the catalogue, stock taken (orders/owner-orders.ts); else the spec's total-only order.
    if (input.lines?.length) {
      if (input.total_amount !== undefined) throw new HttpError(400, OWNER_ORDER_MESSAGES.linesAndTotal);
      return reply.code(201).send({ order: await createOrderWithLines(db, { ...input, lines: input.lines }, adminActor(req)) });
    }
    return reply.code(201).send({ order: await createAdminOrder(db, input, adminActor(req)) });
  });
  app.put('/api/admin/orders/:id', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(AdminOrderInput, req.body);
    if (looksAutomated('adminOrder', input)) return reply.code(202).send({ ignored: true });
    return { order: await updateAdminOrder(db, id, input, adminActor(req)) };
  });
  app.patch('/api/admin/orders/:id/status', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const { status, returnLines, notify, refund } = parseInput(OrderStatusInput, req.body);
    // Cancelling a paid order with its refund: one step (orders/cancel-order.ts).
    if (refund) {
      await cancelWithRefund(db, { payments: deps.payments }, id, { refund, returnLines, notify }, adminActor(req));
      return { order: await getAdminOrder(db, id) };
    }
    // The list's and detail's quick status change: "shipped" only for a paid order (the edit form may set any).
    return {
      order: await updateOrderStatus(db, id, status, { actor: adminActor(req), refuseUnpaidShipping: true, returnLines, notify }),
    };
  });
  // An order the owner typed in: the payment they took themselves, or a link to the card page (orders/owner-payments.ts).
  app.post('/api/admin/orders/:id/payments', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(RecordPaymentInput, req.body);
    await recordOwnerPayment(db, id, input, adminActor(req), config.publicUrl);
    return reply.code(201).send({ order: await getAdminOrder(db, id) });
  });
  // The method of a payment recorded by hand, corrected (cash that was a bank transfer); audited.
  app.patch('/api/admin/orders/:id/payments', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(CorrectPaymentMethodInput, req.body);
    await correctOwnerPaymentMethod(db, id, input, adminActor(req));
    return { order: await getAdminOrder(db, id) };
  });
  app.post('/api/admin/orders/:id/payment-link', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    parseInput(PaymentLinkRequest, req.body ?? {});
    const link = await sendPaymentLink(db, id, adminActor(req), { publicUrl: config.publicUrl, payments: deps.payments });
    return reply.code(201).send({ link, order: await getAdminOrder(db, id) });
  });
  // The order's timeline, newest first, and the owner's notes on it.
  app.get('/api/admin/orders/:id/events', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { events: await listAdminOrderEvents(db, id) };
  });
  app.post('/api/admin/orders/:id/notes', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const { text } = parseInput(OrderNoteInput, req.body);
    await addOrderNote(db, id, text, adminActor(req));
    return reply.code(201).send({ events: await listOrderEvents(db, id) });
  });
  app.delete('/api/admin/orders/:id', access.admin, async (req) => {
    await deleteOrder(db, parseInput(Id, req.params).id, adminActor(req));
    return { ok: true };
  });
  // A full or partial refund through the order's payment provider (orders/refunds.ts).
  app.post('/api/admin/orders/:id/refunds', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    const input = parseInput(RefundInput, req.body);
    const { refund } = await refundOrder(db, { payments: deps.payments }, id, input, adminActor(req));
    const order = await getAdminOrder(db, id);
    return reply.code(201).send({ refund, order });
  });
  // The order's lines with what each has out of stock, for the refund and cancel dialogs' "return to stock".
  app.get('/api/admin/orders/:id/stock-lines', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { items: await orderReturnLines(db, id) };
  });
  // Asks again for a refund the provider never answered (same idempotency key: made at most once).
  app.post('/api/admin/orders/:id/refunds/:refundId/retry', access.admin, async (req) => {
    const { id, refundId } = parseInput(RefundRetryParams, req.params);
    const { refund } = await retryRefund(db, { payments: deps.payments }, id, refundId, adminActor(req));
    return { refund, order: await getAdminOrder(db, id) };
  });
}
