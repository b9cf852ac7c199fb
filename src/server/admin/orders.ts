import { isPostgres } from '../db/query-helpers.js';
import { sql, type Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { queueEmail } from '../email/outbox.js';
import { endOpenSession, newOrderId } from '../checkout/service.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { ADMIN_MESSAGES, splitAdminTotal } from '../../shared/schemas/admin.js';
import { trackingCodeOf, type OrderView } from '../../shared/schemas/orders.js';
import { getOrderForViewer } from '../orders/service.js';
import { parseJson } from '../lib/json.js';
import { indexOrderSearch, ordersMatching } from '../orders/search-terms.js';
import { MicroCache } from '../http/micro-cache.js';

const ADMIN = { userId: null, isAdmin: true, deviceHash: null } as const;

export type AdminOrderRow = {
  id: string;
  orderNumber: string;
  createdAt: string;
  userId: string;
  email: string | null;
  customerName: string | null;
  status: OrdersTable['status'];
  paymentStatus: OrdersTable['payment_status'];
  itemCount: number;
  totalCents: number;
  /** Paid for units that were no longer in stock: what was short (the owner must restock or refund). */
  stockShortfall: string | null;
};

/**
 * How many orders match: a plain count of the status index or the table, or, for a search, the
 * distinct ids the search words share (read from the word index, not from the orders).
 */
/** Totals for the list's pager, reused for a second (served stale while one request recounts). */
const orderCounts = new MicroCache<{ n: number | string } | undefined>(1000, 500, 4000);

function countOrders(
  db: Kysely<Database>,
  status: OrdersTable['status'] | undefined,
  matching: ReturnType<typeof ordersMatching>,
  search: string | undefined,
): Promise<{ n: number | string } | undefined> {
  // Counting a million orders takes PostgreSQL ~50 ms of both cores: a pager total that large is
  // recounted every 30 seconds (and at once after any back-office write), a small one every second.
  return orderCounts.get(
    `${status ?? ''}|${search ?? ''}`,
    () => countOrdersNow(db, status, matching),
    (c) => (Number(c?.n ?? 0) > 10_000 ? 30_000 : 1000),
  );
}

function countOrdersNow(
  db: Kysely<Database>,
  status: OrdersTable['status'] | undefined,
  matching: ReturnType<typeof ordersMatching>,
): Promise<{ n: number | string } | undefined> {
  const [first, ...rest] = matching;
  if (first && !status) {
    if (rest.length === 0) return first.clearSelect().select(sql<number | string>`count(distinct order_id)`.as('n')).executeTakeFirst();
    const shared = rest.reduce((acc, next) => acc.intersect(next), first);
    return db.selectFrom(shared.as('m')).select(sql<number | string>`count(*)`.as('n')).executeTakeFirst();
  }
  let counted = db.selectFrom('orders as o');
  if (status) counted = counted.where('o.status', '=', status);
  for (const ids of matching) counted = counted.where('o.id', 'in', ids);
  return counted.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst();
}

type AdminOrderQuery = { page: number; pageSize: number; search?: string; status?: OrdersTable['status'] };

/**
 * Every order for the back office, newest first, searchable by id, e-mail or name, filterable by
 * status, as the JSON text the route sends. A page is reused for a second (answered from the last
 * read while one request re-reads, for at most four seconds more); any back-office write clears
 * it, so the owner always sees their own changes, and a new shop order appears within a second or
 * two. It is kept serialized, so a reused page costs the same whatever it holds.
 */
export function listAdminOrdersJson(db: Kysely<Database>, q: AdminOrderQuery): Promise<string> {
  return orderPages.get(JSON.stringify([q.page, q.pageSize, q.status ?? '', q.search ?? '']), async () => JSON.stringify(await readAdminOrders(db, q)));
}

const orderPages = new MicroCache<string>(1000, 200, 4000);

async function readAdminOrders(db: Kysely<Database>, q: AdminOrderQuery) {
  let base = db.selectFrom('orders as o');
  if (q.status) base = base.where('o.status', '=', q.status);
  // Words of the search are looked up in the order search index (orders/search-terms.ts).
  const matching = q.search ? ordersMatching(db, q.search) : [];
  // SQLite intersects the words' order ids first (from the index alone), reads and sorts only the
  // orders every word finds, and counts them in the same query (a window count), so the word index
  // is read once. PostgreSQL does better with one hashed semi-join per word, walking the orders
  // newest first, and a separate count (a window count would make it read every match).
  const [firstWord, ...otherWords] = matching;
  const countInPage = Boolean(firstWord) && !isPostgres(db);
  if (firstWord && countInPage) base = base.where('o.id', 'in', otherWords.reduce((acc, next) => acc.intersect(next), firstWord));
  else for (const ids of matching) base = base.where('o.id', 'in', ids);
  const [rows, count] = await Promise.all([
    base
      .select([
        (countInPage ? sql<number | string | null>`count(*) over ()` : sql<number | string | null>`null`).as('total_n'),
        'o.id',
        'o.order_number',
        'o.created_at',
        'o.user_id',
        'o.email',
        'o.status',
        'o.payment_status',
        'o.total_cents',
        'o.shipping_address',
        'o.stock_shortfall',
      ])
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    countInPage ? undefined : countOrders(db, q.status, matching, q.search),
  ]);
  const total = !countInPage
    ? Number(count?.n ?? 0)
    : rows.length > 0
      ? Number(rows[0]!.total_n)
      : q.page === 1
        ? 0
        : Number((await countOrders(db, q.status, matching, q.search))?.n ?? 0);
  // Names and item counts only for the page's orders (not for every match the sort went through).
  const ids = rows.map((r) => r.id);
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is string => id !== null))];
  const [itemRows, userRows] = await Promise.all([
    ids.length
      ? db.selectFrom('order_items').select(['order_id', sql<number | string>`sum(quantity)`.as('n')]).where('order_id', 'in', ids).groupBy('order_id').execute()
      : [],
    userIds.length ? db.selectFrom('users').select(['id', 'full_name']).where('id', 'in', userIds).execute() : [],
  ]);
  const itemCounts = new Map(itemRows.map((r) => [r.order_id, Number(r.n)]));
  const names = new Map(userRows.map((u) => [u.id, u.full_name]));
  return {
    items: rows.map(
      (r): AdminOrderRow => ({
        id: r.id,
        orderNumber: r.order_number,
        createdAt: r.created_at,
        userId: r.user_id ?? 'guest',
        email: r.email,
        customerName: (r.user_id ? names.get(r.user_id) : undefined) ?? parseJson<{ name?: string }>(r.shipping_address, {}).name ?? null,
        status: r.status,
        paymentStatus: r.payment_status,
        itemCount: itemCounts.get(r.id) ?? 0,
        totalCents: r.total_cents,
        stockShortfall: r.stock_shortfall,
      }),
    ),
    page: q.page,
    pageSize: q.pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / q.pageSize)),
  };
}

function addressText(raw: string | null): string {
  const a = parseJson<Record<string, string> | string | null>(raw, raw);
  if (!a) return '';
  if (typeof a === 'string') return a;
  return [a.name, a.address, [a.city, a.state].filter(Boolean).join(', ') + (a.zip ? ` ${a.zip}` : ''), a.country].filter(Boolean).join('\n');
}

/**
 * Any status may follow any other (the owner's call). A change queues the status-update e-mail
 * when the order has an e-mail address or a signed-up customer.
 */
export async function updateOrderStatus(db: Kysely<Database>, orderId: string, status: OrdersTable['status']): Promise<OrderView> {
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    // The order row first, then its payment session: the shop's one lock order (docs/decisions/0005).
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    if (order.status === status) return;
    // Cancelling an order still waiting for payment ends its payment session and gives back what it held.
    if (status === 'cancelled' && order.payment_status === 'unpaid' && order.payment_session_id) {
      await endOpenSession(trx, dialect, order.id, order.payment_session_id, 'cancelled');
    }
    await trx.updateTable('orders').set({ status, updated_at: nowIso() }).where('id', '=', orderId).execute();
    const user = order.user_id ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', order.user_id).executeTakeFirst() : undefined;
    const to = order.email ?? user?.email;
    if (!to) return;
    const address = parseJson<{ name?: string } | string | null>(order.shipping_address, null);
    const tracking = order.shipstation_tracking_number ?? (status !== 'pending' ? trackingCodeOf(order.id) : null);
    await queueEmail(trx, {
      to,
      templateId: 'order-status-update',
      variables: {
        orderNumber: order.order_number,
        customerName: user?.full_name ?? (typeof address === 'object' && address?.name) ?? 'Customer',
        status: status.charAt(0).toUpperCase() + status.slice(1),
        trackingNumber: tracking ?? '',
        trackingSection: tracking ? `<p>Tracking number: <strong>${tracking}</strong></p>` : '',
        shippingAddress: addressText(order.shipping_address),
      },
      textVariables: { trackingSection: tracking ? `Tracking number: ${tracking}` : '' },
    });
  });
  return (await getOrderForViewer(db, orderId, ADMIN))!;
}

async function resolveUserId(db: Kysely<Database>, userId: string): Promise<{ id: string | null; email: string | null }> {
  if (userId === 'guest') return { id: null, email: null };
  const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new HttpError(400, ADMIN_MESSAGES.userNotFound);
  return { id: user.id, email: user.email };
}

/** An order entered by the owner (phone or shop sale): the given status, no items, the total split 85/8/7. */
export async function createAdminOrder(
  db: Kysely<Database>,
  input: { user_id: string; shipping_address: string; total_amount: number; status: OrdersTable['status']; email?: string },
): Promise<OrderView> {
  const user = await resolveUserId(db, input.user_id);
  const totalCents = Math.round(input.total_amount * 100);
  const split = splitAdminTotal(totalCents);
  const id = newOrderId();
  const at = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('orders')
      .values({
        id,
        order_number: id.slice(-8).toUpperCase(),
        user_id: user.id,
        email: input.email ?? user.email,
        status: input.status,
        payment_status: 'unpaid',
        payment_provider: null,
        payment_session_id: null,
        shipping_address: JSON.stringify(input.shipping_address),
        billing_address: null,
        subtotal_cents: split.subtotalCents,
        discount_cents: 0,
        shipping_cents: split.shippingCents,
        tax_cents: split.taxCents,
        total_cents: totalCents,
        coupon_code: null,
        shipping_option_id: null,
        shipstation_data: null,
        shipstation_tracking_number: null,
        guest_token_hash: null,
        created_at: at,
        updated_at: at,
        paid_at: null,
      })
      .execute();
    await indexOrderSearch(trx, id);
  });
  return (await getOrderForViewer(db, id, ADMIN))!;
}

export async function updateAdminOrder(
  db: Kysely<Database>,
  orderId: string,
  input: { user_id: string; shipping_address: string; total_amount: number; status: OrdersTable['status'] },
): Promise<OrderView> {
  const existing = await db.selectFrom('orders').select(['id', 'status']).where('id', '=', orderId).executeTakeFirst();
  if (!existing) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
  const user = await resolveUserId(db, input.user_id);
  const totalCents = Math.round(input.total_amount * 100);
  const split = splitAdminTotal(totalCents);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('orders')
      .set({
        user_id: user.id,
        shipping_address: JSON.stringify(input.shipping_address),
        total_cents: totalCents,
        subtotal_cents: split.subtotalCents,
        tax_cents: split.taxCents,
        shipping_cents: split.shippingCents,
        discount_cents: 0,
        updated_at: nowIso(),
      })
      .where('id', '=', orderId)
      .execute();
    await indexOrderSearch(trx, orderId);
  });
  if (existing.status !== input.status) return updateOrderStatus(db, orderId, input.status);
  return (await getOrderForViewer(db, orderId, ADMIN))!;
}

export async function deleteOrder(db: Kysely<Database>, orderId: string): Promise<void> {
  const r = await db.deleteFrom('orders').where('id', '=', orderId).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
}
