import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';
import { adminOrdersFiltered, orderAddressField } from './admin-orders.js';
import { paymentStatusOf } from './payment-status.js';
import { netReceivedCents, netReceivedSql, tookMoney } from './money-taken.js';
import { ordersMatching, searchWords } from './search-terms.js';
import { formatAddress } from '../../shared/address.js';
import { carrierName } from '../../shared/carriers.js';
import { localDateTimeText, type PeriodRange } from '../../shared/shop-time.js';
import { parseJson } from '../lib/json.js';
import { inPeriodSql } from './shop-calendar.js';
import { variantOfLine } from '../../shared/variants.js';
import { placedSql } from './placed.js';

/**
 * CSV exports of the back office (issue 16, item 9): the filtered order list (one row per order,
 * or per line item with `lines=1`) and the customers. Each is read in keyset-paginated batches
 * (newest first by (created_at, id)), a batch's related rows in one query, and written to the
 * reply as it is read: memory stays bounded however many orders there are.
 *
 * Dates are the shop's clock ("2026-11-27 14:05", in its time zone): a spreadsheet reads that as
 * a date and time, where ISO text with its T and Z stays text and shows another day near midnight.
 */
const EXPORT_BATCH = 1000;

/** A money figure, written as dollars with two decimals (never formula-escaped). */
type Money = { cents: number };
type Cell = string | number | null | undefined | Money;

function money(cents: number | string | null | undefined): Money {
  return { cents: Number(cents ?? 0) };
}

function dollars(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A stored address (checkout's object or the owner's free text) on one line. */
function addressLine(raw: string | null): string {
  return formatAddress(parseJson<Parameters<typeof formatAddress>[0]>(raw, raw), { trimLines: true }).join(', ');
}

/** One field: RFC 4180 quoting, and text that a spreadsheet would run as a formula gets a leading apostrophe. */
function csvField(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = typeof value === 'string' ? value : dollars(value.cents);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of cells (CRLF): the back office's exports, and the subscriptions' Upcoming. */
export function csvRow(cells: Cell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** Newest first, strictly after the last row sent: (created_at, id) < (at, id), read from the created_at index. */
function before(alias: string, cursor: { at: string; id: string } | null): ReturnType<typeof sql<SqlBool>> | null {
  if (!cursor) return null;
  const at = sql.ref(`${alias}.created_at`);
  const id = sql.ref(`${alias}.id`);
  // The first term alone bounds the index range (so a batch starts where the last ended instead of
  // skipping every row already sent); the second breaks ties of equal timestamps by id.
  return sql<SqlBool>`${at} <= ${cursor.at} and (${at} < ${cursor.at} or ${id} < ${cursor.id})`;
}

const ORDER_HEADER = [
  'Order number',
  'Order id',
  'Date',
  'Status',
  'Payment status',
  'Customer name',
  'E-mail',
  'Shipping address',
  'Items',
  'Subtotal',
  'Discount',
  'Coupon',
  'Shipping',
  'Tax',
  'Total',
  'Refunded',
  'Net',
  'Payment date',
  'Carrier',
  'Tracking number',
];
/** `Variant` is the option values as sold ('Lavender, 1 L'); Size and Color are the packing slip's. */
const LINE_HEADER = [
  'Order number',
  'Date',
  'Status',
  'Product id',
  'Name',
  'Variant id',
  'Variant',
  'Size',
  'Color',
  'SKU',
  'Quantity',
  'Unit price',
  'Line total',
];
const CUSTOMER_HEADER = ['Customer id', 'Name', 'E-mail', 'Phone', 'Address', 'Role', 'Loyalty points', 'Orders', 'Total spent', 'Created'];

type OrderFilters = {
  search?: string;
  status?: Parameters<typeof adminOrdersFiltered>[1]['status'];
  payment?: Parameters<typeof adminOrdersFiltered>[1]['payment'];
  /** Placed within these instants (the shop's days from–to), or any time. */
  period: PeriodRange | null;
  /** The shop's time zone, for the dates written. */
  timeZone: string;
};

/**
 * A search that finds at most this many orders has their ids read once (newest first) and the
 * rows fetched a batch at a time by id; a wider one walks the orders and keeps each batch's
 * matches. Either way a search export costs what it finds or what a plain export costs, never a
 * search-index lookup per batch (which made a 106,500-row search export of the large seed take
 * a minute), and the ids held stay under about 20 MB.
 */
export const exportLimits = { matchesReadAtOnce: 200_000 };

const ORDER_COLUMNS = [
  'o.id',
  'o.order_number',
  'o.created_at',
  'o.user_id',
  'o.email',
  'o.status',
  'o.payment_status',
  'o.shipping_address',
  'o.subtotal_cents',
  'o.discount_cents',
  'o.coupon_code',
  'o.shipping_cents',
  'o.tax_cents',
  'o.total_cents',
  'o.refunded_cents',
  'o.shipstation_tracking_number',
  'o.shipping_carrier',
  'o.paid_at',
] as const;

/** A batch of orders newest first, strictly before the cursor, under the list's filters except the search. */
function readBatch(db: Kysely<Database>, q: OrderFilters, cursor: { at: string; id: string } | null) {
  let query = adminOrdersFiltered(db, { status: q.status, payment: q.payment, period: q.period });
  const after = before('o', cursor);
  if (after) query = query.where(after);
  return query.select(ORDER_COLUMNS).orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(EXPORT_BATCH).execute();
}

type OrderRow = Awaited<ReturnType<typeof readBatch>>[number];

async function* orderBatches(db: Kysely<Database>, q: OrderFilters): AsyncGenerator<OrderRow[]> {
  const words = q.search ? searchWords(q.search) : [];
  if (words.length === 0) {
    yield* walkOrders(db, q, null);
    return;
  }
  const matching = ordersMatching(db, q.search!);
  const shared = matching.slice(1).reduce((acc, next) => acc.intersect(next), matching[0]!);
  const found = await db
    .selectFrom(shared.as('m'))
    .select('m.order_id')
    .distinct()
    .limit(exportLimits.matchesReadAtOnce + 1)
    .execute();
  if (found.length > exportLimits.matchesReadAtOnce) {
    yield* walkOrders(db, q, words);
    return;
  }
  // Few enough: their ids newest first under the other filters, read once; then the rows by id.
  const ids: string[] = [];
  for (let i = 0; i < found.length; i += EXPORT_BATCH) {
    const chunk = found.slice(i, i + EXPORT_BATCH).map((f) => f.order_id);
    const kept = await adminOrdersFiltered(db, { status: q.status, payment: q.payment, period: q.period })
      .select(['o.id', 'o.created_at'])
      .where('o.id', 'in', chunk)
      .execute();
    for (const k of kept) ids.push(`${k.created_at}\u0000${k.id}`);
  }
  ids.sort().reverse();
  for (let i = 0; i < ids.length; i += EXPORT_BATCH) {
    const chunk = ids.slice(i, i + EXPORT_BATCH).map((k) => k.slice(k.indexOf('\u0000') + 1));
    const rows = await db.selectFrom('orders as o').select(ORDER_COLUMNS).where('o.id', 'in', chunk).execute();
    const at = new Map(chunk.map((id, n) => [id, n]));
    yield rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
  }
}

/** Every order under the filters in keyset batches; with search words, each batch keeps the orders filed under every word. */
async function* walkOrders(db: Kysely<Database>, q: OrderFilters, words: string[] | null): AsyncGenerator<OrderRow[]> {
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    const rows = await readBatch(db, q, cursor);
    if (rows.length === 0) return;
    const kept = words ? await filedUnderEvery(db, rows, words) : rows;
    if (kept.length > 0) yield kept;
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1]!;
    cursor = { at: last.created_at, id: last.id };
  }
}

/** The rows filed under a term beginning with each word (order_search_terms_order_idx: a batch's terms only). */
async function filedUnderEvery(db: Kysely<Database>, rows: OrderRow[], words: string[]): Promise<OrderRow[]> {
  let ids = new Set(rows.map((r) => r.id));
  for (const w of words) {
    if (ids.size === 0) break;
    const hits = await db
      .selectFrom('order_search_terms')
      .select('order_id')
      .distinct()
      .where('order_id', 'in', [...ids])
      .where('term', '>=', w)
      .where('term', '<', `${w}\uffff`)
      .execute();
    ids = new Set(hits.map((h) => h.order_id));
  }
  return rows.filter((r) => ids.has(r.id));
}

/** The filtered order list as CSV text, one row per order, produced a batch at a time. */
export async function* ordersCsv(db: Kysely<Database>, q: OrderFilters): AsyncGenerator<string> {
  yield csvRow(ORDER_HEADER);
  for await (const rows of orderBatches(db, q)) {
    const ids = rows.map((r) => r.id);
    const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is string => id !== null))];
    const [items, users] = await Promise.all([
      db
        .selectFrom('order_items')
        .select(['order_id', sql<number | string>`sum(quantity)`.as('n')])
        .where('order_id', 'in', ids)
        .groupBy('order_id')
        .execute(),
      userIds.length ? db.selectFrom('users').select(['id', 'full_name', 'email']).where('id', 'in', userIds).execute() : [],
    ]);
    const counts = new Map(items.map((i) => [i.order_id, Number(i.n)]));
    const byId = new Map(users.map((u) => [u.id, u]));
    let chunk = '';
    for (const r of rows) {
      const user = r.user_id ? byId.get(r.user_id) : undefined;
      const refunded = Number(r.refunded_cents);
      chunk += csvRow([
        r.order_number,
        r.id,
        localDateTimeText(r.created_at, q.timeZone),
        r.status,
        paymentStatusOf(r),
        user?.full_name || orderAddressField(r.shipping_address, 'name'),
        r.email ?? user?.email ?? orderAddressField(r.shipping_address, 'email'),
        addressLine(r.shipping_address),
        counts.get(r.id) ?? 0,
        money(r.subtotal_cents),
        money(r.discount_cents),
        r.coupon_code,
        money(r.shipping_cents),
        money(r.tax_cents),
        money(r.total_cents),
        money(refunded),
        // Net is money received less refunds: none for a checkout that was never paid.
        tookMoney(r) ? money(netReceivedCents(r)) : '',
        tookMoney(r) ? localDateTimeText(r.paid_at, q.timeZone) : '',
        carrierName(r.shipping_carrier) ?? r.shipping_carrier,
        r.shipstation_tracking_number,
      ]);
    }
    yield chunk;
  }
}

/** The filtered order list as CSV text, one row per line item, produced a batch at a time. */
export async function* orderLinesCsv(db: Kysely<Database>, q: OrderFilters): AsyncGenerator<string> {
  yield csvRow(LINE_HEADER);
  for await (const rows of orderBatches(db, q)) {
    const items = await db
      .selectFrom('order_items')
      .select([
        'order_id',
        'id',
        'product_id',
        'product_name',
        'variant_id',
        'variant_label',
        'size',
        'color',
        'sku',
        'quantity',
        'price_cents',
      ])
      .where(
        'order_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('order_id')
      .orderBy('id')
      .execute();
    const byOrder = new Map<string, typeof items>();
    for (const i of items) {
      const list = byOrder.get(i.order_id);
      if (list) list.push(i);
      else byOrder.set(i.order_id, [i]);
    }
    let chunk = '';
    for (const r of rows) {
      for (const i of byOrder.get(r.id) ?? []) {
        chunk += csvRow([
          r.order_number,
          localDateTimeText(r.created_at, q.timeZone),
          r.status,
          i.product_id,
          i.product_name,
          // Lines from before variants name none: theirs is the product's first.
          variantOfLine(i.product_id, i.variant_id),
          i.variant_label,
          i.size,
          i.color,
          i.sku,
          i.quantity,
          money(i.price_cents),
          money(i.price_cents * i.quantity),
        ]);
      }
    }
    yield chunk;
  }
}

const USER_COLUMNS = [
  'u.id',
  'u.full_name',
  'u.email',
  'u.phone',
  'u.shipping_address',
  'u.role',
  'u.loyalty_points',
  'u.created_at',
] as const;

/** A placed order (paid or refunded, or entered by the shop), as the overview and the list count them (placed.ts). */
const PLACED = placedSql();

/** A guest buyer's figures: one e-mail address's orders placed without an account. */
type GuestFigures = { email: string; n: number; spent: number; first: string };

/**
 * The guest rows of a batch of addresses: name, phone and address from the latest order each placed
 * as a guest, "guest" as the role, no id and no points; "Created" is the first order's day.
 */
async function guestRows(db: Kysely<Database>, batch: GuestFigures[], timeZone: string): Promise<Map<string, string>> {
  if (!batch.length) return new Map();
  const latest = new Map<string, string | null>();
  const orders = await db
    .selectFrom('orders')
    .select(['email', 'shipping_address'])
    .where('user_id', 'is', null)
    .where(
      'email',
      'in',
      batch.map((g) => g.email),
    )
    .where(PLACED)
    .orderBy('created_at', 'desc')
    .execute();
  for (const o of orders) if (o.email !== null && !latest.has(o.email)) latest.set(o.email, o.shipping_address);
  return new Map(
    batch.map((g) => {
      const raw = latest.get(g.email) ?? null;
      const address = parseJson<{ name?: unknown; phone?: unknown } | null>(raw, null);
      return [
        g.email,
        csvRow([
          '',
          typeof address?.name === 'string' ? address.name : '',
          g.email,
          typeof address?.phone === 'string' ? address.phone : '',
          addressLine(raw),
          'guest',
          '',
          g.n,
          money(g.spent),
          localDateTimeText(g.first, timeZone),
        ]),
      ];
    }),
  );
}

/** Guest orders (placed without an account) summed per e-mail address, in the period if one is given. */
function guestFiguresQuery(db: Kysely<Database>, period: PeriodRange | null) {
  return db
    .selectFrom('orders')
    .select([
      'email',
      sql<number | string>`count(*)`.as('n'),
      sql<number | string | null>`sum(${netReceivedSql()})`.as('spent'),
      sql<string>`min(created_at)`.as('first'),
    ])
    .where('user_id', 'is', null)
    .where('email', 'is not', null)
    .where(PLACED)
    .$if(period !== null, (q) => q.where(inPeriodSql(period!)))
    .groupBy('email');
}
const guestFiguresOf = (r: { email: string | null; n: number | string; spent: number | string | null; first: string }): GuestFigures => ({
  email: r.email!,
  n: Number(r.n),
  spent: Number(r.spent ?? 0),
  first: r.first,
});

/**
 * Customers as CSV text, a batch at a time: with no period every customer (newest first) and their
 * placed orders and money spent ever, then every guest buyer; with a period, the customers and
 * guests who placed an order in it (most spent first), counted over the period only. Total spent is
 * money received net of refunds (the one rule, money-taken.ts).
 *
 * A guest is one row per e-mail address (role "guest", no customer id) for the orders placed
 * without an account. An address that also has an account keeps both rows: the account's orders on
 * its row, the guest orders on the guest row, so nothing is left out nor counted twice. Guests are
 * read a batch of addresses at a time in address order (orders_email_idx), never all at once.
 */
export async function* customersCsv(
  db: Kysely<Database>,
  { period, timeZone }: { period: PeriodRange | null; timeZone: string },
): AsyncGenerator<string> {
  yield csvRow(CUSTOMER_HEADER);
  const readUsers = (ids: string[]) => db.selectFrom('users as u').select(USER_COLUMNS).where('u.id', 'in', ids).execute();
  const rowOf = (u: Awaited<ReturnType<typeof readUsers>>[number], figures: { n: number; spent: number } | undefined) =>
    csvRow([
      u.id,
      u.full_name,
      u.email,
      u.phone,
      addressLine(u.shipping_address),
      u.role,
      u.loyalty_points,
      figures?.n ?? 0,
      money(figures?.spent ?? 0),
      localDateTimeText(u.created_at, timeZone),
    ]);

  if (period) {
    // The period's orders only (orders_created_at_idx), summed per customer.
    const buyers = await db
      .selectFrom('orders')
      .select(['user_id', sql<number | string>`count(*)`.as('n'), sql<number | string | null>`sum(${netReceivedSql()})`.as('spent')])
      .where(inPeriodSql(period))
      .where(PLACED)
      .where('user_id', 'is not', null)
      .groupBy('user_id')
      .execute();
    const guests = (await guestFiguresQuery(db, period).execute()).map(guestFiguresOf);
    type Buyer = { userId: string; n: number; spent: number } | (GuestFigures & { userId?: undefined });
    const figures: Buyer[] = [...buyers.map((b) => ({ userId: b.user_id!, n: Number(b.n), spent: Number(b.spent ?? 0) })), ...guests];
    const key = (f: Buyer) => f.userId ?? `~${f.email}`;
    figures.sort((a, b) => b.spent - a.spent || b.n - a.n || (key(a) < key(b) ? -1 : 1));
    for (let i = 0; i < figures.length; i += EXPORT_BATCH) {
      const batch = figures.slice(i, i + EXPORT_BATCH);
      const ids = batch.flatMap((f) => (f.userId === undefined ? [] : [f.userId]));
      const users = new Map((ids.length ? await readUsers(ids) : []).map((u) => [u.id, u]));
      const guestBatch = batch.filter((f): f is GuestFigures => f.userId === undefined);
      const guestText = await guestRows(db, guestBatch, timeZone);
      yield batch
        .map((f) => (f.userId === undefined ? (guestText.get(f.email) ?? '') : users.has(f.userId) ? rowOf(users.get(f.userId)!, f) : ''))
        .join('');
    }
    return;
  }

  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    let query = db.selectFrom('users as u');
    const after = before('u', cursor);
    if (after) query = query.where(after);
    const users = await query.select(USER_COLUMNS).orderBy('u.created_at', 'desc').orderBy('u.id', 'desc').limit(EXPORT_BATCH).execute();
    if (users.length === 0) return;
    // Read from orders_user_created_idx: the batch's customers' placed orders and money in one query.
    const counts = await db
      .selectFrom('orders')
      .select(['user_id', sql<number | string>`count(*)`.as('n'), sql<number | string | null>`sum(${netReceivedSql()})`.as('spent')])
      .where(
        'user_id',
        'in',
        users.map((u) => u.id),
      )
      .where(PLACED)
      .groupBy('user_id')
      .execute();
    const byUser = new Map(counts.map((c) => [c.user_id, { n: Number(c.n), spent: Number(c.spent ?? 0) }]));
    yield users.map((u) => rowOf(u, byUser.get(u.id))).join('');
    if (users.length < EXPORT_BATCH) break;
    const last = users[users.length - 1]!;
    cursor = { at: last.created_at, id: last.id };
  }

  // Then the guests, a batch of addresses at a time, strictly after the last address sent.
  let afterEmail: string | null = null;
  for (;;) {
    const from: string | null = afterEmail;
    const batch: GuestFigures[] = (
      await guestFiguresQuery(db, null)
        .$if(from !== null, (q) => q.where('email', '>', from!))
        .orderBy('email')
        .limit(EXPORT_BATCH)
        .execute()
    ).map(guestFiguresOf);
    if (batch.length === 0) return;
    yield [...(await guestRows(db, batch, timeZone)).values()].join('');
    if (batch.length < EXPORT_BATCH) return;
    afterEmail = batch[batch.length - 1]!.email;
  }
}
