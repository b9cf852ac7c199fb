import { isPostgres } from '../db/query-helpers.js';
import { reservationEnds } from '../inventory/reservations.js';
import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { z } from 'zod';
import type { Database, OrdersTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { createOrder, newOrderId } from './create-order.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { splitAdminTotal, type AdminOrderAddress } from '../../shared/schemas/admin/orders.js';
import type { OrderView } from '../../shared/schemas/orders.js';
import { storedAddressLines } from '../email/order-email-variables.js';
import { listOrderEvents, recordOrderEvent, SYSTEM_ACTOR, type OrderEvent, type OrderEventActor } from './events.js';
import { getOrderForViewer } from './service.js';
import { changeStatusLocked, type StatusChangeOptions as StatusOptions } from './status-change.js';
import { allowedStatuses } from './status-rules.js';
import { expireOwnerPaymentLinks } from './owner-payments.js';
import { OWNER_ORDER_MESSAGES } from '../../shared/schemas/owner-orders.js';
import { deleteOrderIfUnpaid } from './delete-order.js';
import { lockOrderProducts } from './order-units.js';
import { paymentStatusOf } from './payment-status.js';
import type { OrderStatusFilter, PaymentFilter } from '../../shared/schemas/admin/orders.js';
import { toShipSql } from './money-taken.js';
import type { OrderPaymentStatus } from '../../shared/schemas/orders.js';
import { parseJson } from '../lib/json.js';
import { indexOrderSearch, ordersMatching } from './search-terms.js';
import { isPlaced, placedSql } from './placed.js';
import { MicroCache } from '../http/micro-cache.js';
import { inPeriodSql, periodOf, shopTimeZone } from './shop-calendar.js';
import type { PeriodRange } from '../../shared/shop-time.js';

const ADMIN = { userId: null, isAdmin: true, deviceHash: null } as const;

type AdminOrderRow = {
  id: string;
  orderNumber: string;
  createdAt: string;
  userId: string;
  email: string | null;
  customerName: string | null;
  status: OrdersTable['status'];
  /** 'partially_refunded' when part of the payment went back (orders/payment-status.ts). */
  paymentStatus: OrderPaymentStatus;
  /** Entered by the owner (no payment provider): a placed order, whatever its payment state. */
  ownerEntered: boolean;
  /** Its units left stock (it took money, or the owner entered it): cancelling it asks which go back. */
  tookStock: boolean;
  itemCount: number;
  totalCents: number;
  refundedCents: number;
  /** An unpaid checkout whose payment page may still be open: when its stock hold ends (null otherwise). */
  holdEndsAt: string | null;
  /** Paid for units that were no longer in stock: what was short (the owner must restock or refund). */
  stockShortfall: string | null;
  /** The statuses the row's menu may offer: the server's one table of moves (status-rules.ts). */
  allowedStatuses: OrdersTable['status'][];
};

/**
 * How many orders match: a plain count of the status index or the table, or, for a search, the
 * distinct ids the search words share (read from the word index, not from the orders).
 */
/** Totals for the list's pager, reused for a second (served stale while one request recounts). */
const orderCounts = new MicroCache<{ n: number | string } | undefined>(1000, 500, 4000);

function countOrders(
  db: Kysely<Database>,
  status: OrderStatusFilter | undefined,
  matching: ReturnType<typeof ordersMatching>,
  search: string | undefined,
  payment: PaymentFilter | undefined,
  period: PeriodRange | null,
): Promise<{ n: number | string } | undefined> {
  // Counting a million orders takes PostgreSQL ~50 ms of both cores: a pager total that large is
  // recounted every 30 seconds (and at once after any back-office write), a small one every second.
  return orderCounts.get(
    `${status ?? ''}|${search ?? ''}|${payment ?? ''}|${period?.start ?? ''}|${period?.end ?? ''}`,
    () => countOrdersNow(db, status, matching, payment, period),
    (c) => (Number(c?.n ?? 0) > 10_000 ? 30_000 : 1000),
  );
}

function countOrdersNow(
  db: Kysely<Database>,
  status: OrderStatusFilter | undefined,
  matching: ReturnType<typeof ordersMatching>,
  payment: PaymentFilter | undefined,
  period: PeriodRange | null,
): Promise<{ n: number | string } | undefined> {
  if (payment === undefined || payment === 'paid') {
    // The filters that keep most orders are counted as every order less the few they leave out
    // (placed: the unpaid checkouts; paid: the unpaid and refunded ones), so the big count is the
    // plain one (the narrowest index or the word index) and the small one a range of orders_payment_idx.
    const left = payment === 'paid' ? NOT_PAID_IN_FULL : paymentCondition('abandoned');
    return Promise.all([countWhere(db, status, matching, null, period), countWhere(db, status, matching, left, period)]).then(
      ([all, out]) => ({
        n: Number(all?.n ?? 0) - Number(out?.n ?? 0),
      }),
    );
  }
  return countWhere(db, status, matching, paymentCondition(payment), period);
}

function countWhere(
  db: Kysely<Database>,
  status: OrderStatusFilter | undefined,
  matching: ReturnType<typeof ordersMatching>,
  paid: RawBuilder<SqlBool> | null,
  period: PeriodRange | null,
): Promise<{ n: number | string } | undefined> {
  const [first, ...rest] = matching;
  if (first && !status && !paid && !period) {
    if (rest.length === 0)
      return first
        .clearSelect()
        .select(sql<number | string>`count(distinct order_id)`.as('n'))
        .executeTakeFirst();
    const shared = rest.reduce((acc, next) => acc.intersect(next), first);
    return db
      .selectFrom(shared.as('m'))
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirst();
  }
  let counted = db.selectFrom('orders as o');
  if (status) counted = counted.where(statusCondition(status));
  if (paid) counted = counted.where(paid);
  if (period) counted = counted.where(inPeriodSql(period, 'o'));
  for (const ids of matching) counted = counted.where('o.id', 'in', ids);
  return counted.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst();
}

type AdminOrderQuery = {
  page: number;
  pageSize: number;
  search?: string;
  status?: OrderStatusFilter;
  payment?: PaymentFilter;
  /** Placed from one of the shop's days to another (its time zone), both counted. */
  from?: string;
  to?: string;
};

/** The list's status filter as a condition on `orders as o` (`to_ship`: money-taken.ts). */
function statusCondition(status: OrderStatusFilter): RawBuilder<SqlBool> {
  return status === 'to_ship' ? toShipSql('o') : sql<SqlBool>`o.status = ${status}`;
}

/** Not paid: still open, declined, or ended unpaid. */
const UNPAID = sql<SqlBool>`o.payment_status in ('unpaid', 'failed', 'expired')`;
/** What the `paid` filter leaves out, as ranges of orders_payment_idx: unpaid, refunded, partly refunded. */
const NOT_PAID_IN_FULL = sql<SqlBool>`(o.payment_status in ('unpaid', 'failed', 'expired', 'refunded') or (o.payment_status = 'paid' and o.refunded_cents > 0))`;

/**
 * The list's payment filter as a condition on `orders as o` (null: every order). Without a filter
 * the list shows placed orders: paid (refunded or not) or entered by the owner; unpaid checkouts
 * only under `unpaid` or `abandoned`. A partly refunded order is stored as 'paid' with a refunded
 * sum. Each can be read and counted from orders_payment_idx (migration 0007); the default view is
 * counted as every order less the unpaid checkouts (countOrdersNow).
 */
function paymentCondition(payment: PaymentFilter | undefined): RawBuilder<SqlBool> | null {
  switch (payment) {
    case 'all':
      return null;
    case 'paid':
      return sql<SqlBool>`o.payment_status = 'paid' and o.refunded_cents = 0`;
    case 'partially_refunded':
      return sql<SqlBool>`o.refunded_cents > 0 and o.payment_status = 'paid'`;
    case 'refunded':
      return sql<SqlBool>`o.payment_status = 'refunded'`;
    case 'unpaid':
      return UNPAID;
    case 'abandoned':
      return sql<SqlBool>`${UNPAID} and o.origin = 'checkout'`;
    default:
      return placedSql('o');
  }
}

/** A page of the back office's order list, with the pager's figures. */
type AdminOrderPage = {
  items: AdminOrderRow[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  /** The shop's time zone: the list dates its orders by the shop's days, as its period filter does. */
  timeZone: string;
};

/**
 * Every order for the back office, newest first, searchable by id, e-mail or name, filterable by
 * status. A page is reused for a second (answered from the last read while one request re-reads,
 * for at most four seconds more); any back-office write clears it, so the owner always sees their
 * own changes, and a new shop order appears within a second or two.
 */
export function listAdminOrders(db: Kysely<Database>, q: AdminOrderQuery): Promise<AdminOrderPage> {
  return orderPages.get(
    JSON.stringify([q.page, q.pageSize, q.status ?? '', q.search ?? '', q.payment ?? '', q.from ?? '', q.to ?? '']),
    () => readAdminOrders(db, q),
  );
}

const orderPages = new MicroCache<AdminOrderPage>(1000, 200, 4000);

async function readAdminOrders(db: Kysely<Database>, q: AdminOrderQuery): Promise<AdminOrderPage> {
  let base = db.selectFrom('orders as o');
  if (q.status) base = base.where(statusCondition(q.status));
  // A period is a range of the created_at index the list already walks.
  const timeZone = await shopTimeZone(db);
  const period = q.from && q.to ? periodOf(q, timeZone) : null;
  if (period) base = base.where(inPeriodSql(period, 'o'));
  // Most orders are paid: SQLite (without statistics) would read them all through the payment index
  // and sort them; the unary + keeps it walking the orders newest first. PostgreSQL's statistics do that.
  const paid =
    q.payment === 'paid' && !isPostgres(db)
      ? sql<SqlBool>`+o.payment_status = 'paid' and +o.refunded_cents = 0`
      : paymentCondition(q.payment);
  if (paid) base = base.where(paid);
  // Words of the search are looked up in the order search index (orders/search-terms.ts).
  const matching = q.search ? ordersMatching(db, q.search) : [];
  // SQLite intersects the words' order ids first (from the index alone), reads and sorts only the
  // orders every word finds, and counts them in the same query (a window count), so the word index
  // is read once. PostgreSQL does better, for one word, with a hashed semi-join walking the orders
  // newest first and a separate count (a window count would make it read every match); for several
  // words (a full name: two common words, a rare pair) that walk can cross every order before it
  // finds a page, so the words' shared ids come first there too, as few as the rarest word finds.
  const [firstWord, ...otherWords] = matching;
  const countInPage = Boolean(firstWord) && (!isPostgres(db) || otherWords.length > 0);
  if (firstWord && countInPage)
    base = base.where(
      'o.id',
      'in',
      otherWords.reduce((acc, next) => acc.intersect(next), firstWord),
    );
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
        'o.payment_provider',
        'o.origin',
        'o.refunded_cents',
        'o.total_cents',
        'o.shipping_address',
        'o.stock_shortfall',
        'o.label_state',
      ])
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    countInPage ? undefined : countOrders(db, q.status, matching, q.search, q.payment, period),
  ]);
  const total = !countInPage
    ? Number(count?.n ?? 0)
    : rows.length > 0
      ? Number(rows[0]!.total_n)
      : q.page === 1
        ? 0
        : Number((await countOrders(db, q.status, matching, q.search, q.payment, period))?.n ?? 0);
  // Names and item counts only for the page's orders (not for every match the sort went through).
  const ids = rows.map((r) => r.id);
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is string => id !== null))];
  const [itemRows, userRows] = await Promise.all([
    ids.length
      ? db
          .selectFrom('order_items')
          .select(['order_id', sql<number | string>`sum(quantity)`.as('n')])
          .where('order_id', 'in', ids)
          .groupBy('order_id')
          .execute()
      : [],
    userIds.length ? db.selectFrom('users').select(['id', 'full_name', 'email']).where('id', 'in', userIds).execute() : [],
  ]);
  const itemCounts = new Map(itemRows.map((r) => [r.order_id, Number(r.n)]));
  const holdEnds = await checkoutHoldEnds(
    db,
    rows.filter((r) => r.payment_status === 'unpaid' && r.origin === 'checkout').map((r) => r.id),
  );
  const users = new Map(userRows.map((u) => [u.id, u]));
  return {
    items: rows.map((r): AdminOrderRow => ({
      id: r.id,
      orderNumber: r.order_number,
      createdAt: r.created_at,
      userId: r.user_id ?? 'guest',
      // Guests too: the name and e-mail they gave at checkout (kept in the order's address).
      email: r.email ?? (r.user_id ? users.get(r.user_id)?.email : undefined) ?? addressField(r.shipping_address, 'email'),
      customerName: (r.user_id ? users.get(r.user_id)?.full_name : undefined) || addressField(r.shipping_address, 'name'),
      status: r.status,
      paymentStatus: paymentStatusOf(r),
      ownerEntered: r.origin === 'owner',
      tookStock: isPlaced(r),
      itemCount: itemCounts.get(r.id) ?? 0,
      totalCents: r.total_cents,
      refundedCents: Number(r.refunded_cents),
      holdEndsAt: holdEnds.get(r.id) ?? null,
      stockShortfall: r.stock_shortfall,
      allowedStatuses: allowedStatuses(r),
    })),
    page: q.page,
    pageSize: q.pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / q.pageSize)),
    timeZone,
  };
}

function addressField(raw: string | null, field: 'name' | 'email'): string | null {
  const a = parseJson<Record<string, unknown> | string | null>(raw, null);
  const v = a && typeof a === 'object' ? a[field] : undefined;
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/**
 * When the stock hold of each open unpaid checkout ends: its holds' expiry, or, with nothing held,
 * its open payment session's. Checkouts whose session ended are absent.
 */
async function checkoutHoldEnds(db: Kysely<Database>, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const [holds, sessions] = await Promise.all([
    reservationEnds(db, orderIds),
    db
      .selectFrom('payment_sessions')
      .select(['order_id', 'expires_at'])
      .where('order_id', 'in', orderIds)
      .where('status', '=', 'open')
      .execute(),
  ]);
  const ends = new Map(sessions.map((s) => [s.order_id, s.expires_at]));
  for (const [orderId, end] of holds) if (ends.has(orderId)) ends.set(orderId, end);
  return ends;
}

function addressText(raw: string | null): string {
  return storedAddressLines(raw).join('\n');
}

type StatusChangeOptions = Partial<Omit<StatusOptions, 'actor'>> & { actor?: OrderEventActor };

/**
 * A status change the one table of moves allows (status-rules.ts; 409 with why not). It e-mails
 * the customer (when the order has an e-mail address or a signed-up customer) unless `notify` is
 * false, and lands on the order's timeline either way (orders/status-change.ts). Bulk changes call
 * this too.
 */
export async function updateOrderStatus(
  db: Kysely<Database>,
  orderId: string,
  status: OrdersTable['status'],
  {
    actor = SYSTEM_ACTOR,
    alreadyThere,
    ...options
  }: StatusChangeOptions & {
    /** Refuse (409 with this message) when the locked order is already in that status: a bulk run racing another tab. */
    alreadyThere?: string;
  } = {},
): Promise<OrderView> {
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    // The order's products by id, the order row, then its payment session: the shop's one lock order
    // (docs/decisions/0005). A cancel or a reopening moves the order's units (refunds.ts).
    const stock = await lockOrderProducts(trx, dialect, orderId);
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    if (alreadyThere !== undefined && order.status === status) throw new HttpError(409, alreadyThere);
    await changeStatusLocked(trx, dialect, order, status, stock, { actor, ...options });
  });
  return (await getOrderForViewer(db, orderId, ADMIN))!;
}

/** The order's customer from the form's id ('guest': none); 400 for an unknown account. */
export async function resolveUserId(db: Kysely<Database>, userId: string): Promise<{ id: string | null; email: string | null }> {
  if (userId === 'guest') return { id: null, email: null };
  const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new HttpError(400, ADMIN_MESSAGES.userNotFound);
  return { id: user.id, email: user.email };
}

export type OrderAddressInput = string | z.output<typeof AdminOrderAddress>;

/** The stored form of an address from the form: an object as checkout stores it (keeping its e-mail), or text. */
export function storedAddress(input: OrderAddressInput, previous: string | null = null): string {
  if (typeof input === 'string') return JSON.stringify(input);
  const before = parseJson<Record<string, unknown> | string | null>(previous, null);
  const email = before && typeof before === 'object' && typeof before.email === 'string' ? before.email : undefined;
  const kept = input.email || email;
  return JSON.stringify({
    name: input.name,
    address: input.address,
    city: input.city,
    state: input.state,
    zip: input.zip,
    country: input.country,
    ...(kept ? { email: kept } : {}),
  });
}

/** The same address whatever the order of its fields (an edit that changes nothing records nothing). */
function sameAddress(a: string | null, b: string | null): boolean {
  const canon = (raw: string | null) => {
    const v = parseJson<unknown>(raw, raw);
    if (!v || typeof v !== 'object') return JSON.stringify(v);
    return JSON.stringify(
      Object.entries(v)
        .filter(([, x]) => x !== undefined && x !== '')
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  };
  return canon(a) === canon(b);
}

/** An order entered by the owner (phone or shop sale): the given status, no items, the total split 85/8/7. */
export async function createAdminOrder(
  db: Kysely<Database>,
  input: {
    user_id: string;
    shipping_address: OrderAddressInput;
    total_amount?: number;
    status: OrdersTable['status'];
    email?: string;
    note?: string;
    discountCents?: number;
    shippingCents?: number;
  },
  actor: OrderEventActor = SYSTEM_ACTOR,
): Promise<OrderView> {
  if (input.total_amount === undefined) throw new HttpError(400, ADMIN_MESSAGES.totalRequired);
  if (input.discountCents || input.shippingCents) throw new HttpError(400, OWNER_ORDER_MESSAGES.moneyWithoutLines);
  const user = await resolveUserId(db, input.user_id);
  const totalCents = Math.round(input.total_amount * 100);
  const split = splitAdminTotal(totalCents);
  const id = newOrderId();
  await transactionWithRetry(db, async (trx) => {
    const now = new Date();
    await createOrder(trx, {
      id,
      origin: 'owner',
      status: input.status,
      lines: [],
      money: { ...split, discountCents: 0, totalCents },
      customer: { userId: user.id, email: input.email ?? user.email, shippingAddress: storedAddress(input.shipping_address) },
      placed: { actor, data: { totalCents, enteredByOwner: true, status: input.status } },
      at: now,
    });
    if (input.note) await recordOrderEvent(trx, id, 'note', actor, { text: input.note }, now);
  });
  return (await getOrderForViewer(db, id, ADMIN))!;
}

/**
 * The owner's edit: the customer, the shipping address, the status and a note. The money of an
 * order with items (what the customer was charged) is never recomputed; only an order the owner
 * entered without items takes a new total, split 85/8/7 again. Every changed field is kept on the
 * timeline as before → after; a save that changes nothing writes nothing.
 */
export async function updateAdminOrder(
  db: Kysely<Database>,
  orderId: string,
  input: {
    user_id: string;
    shipping_address: OrderAddressInput;
    total_amount?: number;
    status: OrdersTable['status'];
    email?: string;
    note?: string;
    lines?: unknown[];
    discountCents?: number;
    shippingCents?: number;
    notify?: boolean;
  },
  actor: OrderEventActor = SYSTEM_ACTOR,
): Promise<OrderView> {
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  if (input.lines?.length || input.discountCents !== undefined || input.shippingCents !== undefined)
    throw new HttpError(400, OWNER_ORDER_MESSAGES.productsFixed);
  const user = await resolveUserId(db, input.user_id);
  const existing = await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    const items = await trx
      .selectFrom('order_items')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    const hasItems = Number(items?.n ?? 0) > 0;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const set: Updateable<OrdersTable> = {};
    const change = <K extends 'user_id' | 'email' | 'total_cents' | 'subtotal_cents' | 'tax_cents' | 'shipping_cents' | 'discount_cents'>(
      field: K,
      to: Selectable<OrdersTable>[K],
      shown: string = field,
    ) => {
      if (order[field] === to) return;
      Object.assign(set, { [field]: to });
      changes[shown] = { from: order[field], to };
    };

    change('user_id', user.id, 'customer');
    // A new customer brings their e-mail, unless the form gave one.
    const email = input.email ?? (user.id !== order.user_id ? (user.email ?? order.email) : order.email);
    change('email', email);
    const address = storedAddress(input.shipping_address, order.shipping_address);
    if (!sameAddress(address, order.shipping_address)) {
      set.shipping_address = address;
      changes.shippingAddress = { from: addressText(order.shipping_address), to: addressText(address) };
    }
    if (input.total_amount !== undefined) {
      const totalCents = Math.round(input.total_amount * 100);
      if (totalCents !== order.total_cents) {
        if (hasItems) throw new HttpError(400, ADMIN_MESSAGES.itemTotalFixed);
        const split = splitAdminTotal(totalCents);
        change('total_cents', totalCents, 'totalCents');
        change('subtotal_cents', split.subtotalCents, 'subtotalCents');
        change('tax_cents', split.taxCents, 'taxCents');
        change('shipping_cents', split.shippingCents, 'shippingCents');
        change('discount_cents', 0, 'discountCents');
        // A payment link sent for the old total pays nothing now.
        await expireOwnerPaymentLinks(trx, orderId);
      }
    }
    if (Object.keys(changes).length > 0) {
      await trx
        .updateTable('orders')
        .set({ ...set, updated_at: nowIso() })
        .where('id', '=', orderId)
        .execute();
      await indexOrderSearch(trx, orderId);
      await recordOrderEvent(trx, orderId, 'edited', actor, { changes });
    }
    if (input.note) await recordOrderEvent(trx, orderId, 'note', actor, { text: input.note });
    return order;
  });
  // The form's status goes through the same table of moves as the menus (status-rules.ts).
  if (existing.status !== input.status) return updateOrderStatus(db, orderId, input.status, { actor, notify: input.notify });
  return (await getOrderForViewer(db, orderId, ADMIN))!;
}

/** An order as the owner sees it (refunds and the label's state included), or null. */
export function getAdminOrder(db: Kysely<Database>, orderId: string): Promise<OrderView | null> {
  return getOrderForViewer(db, orderId, ADMIN);
}

/** Answers 404 for an order that does not exist. */
async function requireOrder(db: Kysely<Database>, orderId: string): Promise<void> {
  const order = await db.selectFrom('orders').select('id').where('id', '=', orderId).executeTakeFirst();
  if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
}

/** The order's full timeline for the owner, newest first; 404 for an order that does not exist. */
export async function listAdminOrderEvents(db: Kysely<Database>, orderId: string): Promise<OrderEvent[]> {
  await requireOrder(db, orderId);
  return listOrderEvents(db, orderId);
}

/** A note the owner adds to an order's timeline. */
export async function addOrderNote(db: Kysely<Database>, orderId: string, text: string, actor: OrderEventActor): Promise<void> {
  await requireOrder(db, orderId);
  await recordOrderEvent(db, orderId, 'note', actor, { text });
}

/**
 * The list's filters (status, payment, search words) as a query on `orders as o`: the orders
 * GET /api/admin/orders shows, for the CSV export (orders/exports.ts), which pages them itself.
 */
export function adminOrdersFiltered(
  db: Kysely<Database>,
  q: { search?: string; status?: OrderStatusFilter; payment?: PaymentFilter; period?: PeriodRange | null },
) {
  let base = db.selectFrom('orders as o');
  if (q.status) base = base.where(statusCondition(q.status));
  if (q.period) base = base.where(inPeriodSql(q.period, 'o'));
  const paid = paymentCondition(q.payment);
  if (paid) base = base.where(paid);
  if (q.search) for (const ids of ordersMatching(db, q.search)) base = base.where('o.id', 'in', ids);
  return base;
}

/** The name or e-mail a guest gave at checkout (kept in the order's address), for the export. */
export function orderAddressField(raw: string | null, field: 'name' | 'email'): string | null {
  return addressField(raw, field);
}

/** Only unpaid checkouts and owner-entered orders may go; a paid or refunded order answers 409 (delete-order.ts). */
export async function deleteOrder(db: Kysely<Database>, orderId: string, actor: OrderEventActor): Promise<void> {
  await deleteOrderIfUnpaid(db, orderId, actor);
}
