import { lineTitle } from '../../shared/variants.js';
import { type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { formerOrderReferenceOf, orderReferenceOf } from '../../shared/schemas/orders.js';
import { insertRows } from '../db/compiled-once.js';

/**
 * The admin order search looks words up in `order_search_terms` (term, order_id) instead of
 * scanning every order: each order is filed under its id, order number, order reference, e-mail
 * addresses (whole, the part before @, the domain and the words of that part), the words of
 * the customer's names, the words of its lines' product names and their SKUs, the carrier's
 * tracking number, the words of the shipping city, and its total as an amount (`$12.34`). A search
 * word matches every term it begins, through the primary-key index, so a search costs what it
 * finds, not what the shop has sold. An amount is the one exception: it matches its own term
 * exactly ("12.3" is $12.30, not every total from $12.30 to $12.39).
 */
const MAX_TERM = 120;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * The whitespace-separated tokens of a text that keep punctuation inside them ("40-pack" of
 * "(40-Pack)", "winston-salem"): a search word is split only at spaces, so one typed with its
 * hyphen must find them whole, as well as by their words.
 */
function joinedTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((t) => /[^\p{L}\p{N}]/u.test(t));
}

function emailTerms(email: string | null | undefined): string[] {
  if (!email) return [];
  const e = email.trim().toLowerCase();
  const [local = '', domain = ''] = e.split('@');
  return [e, local, domain, ...words(local)].filter(Boolean);
}

/** A line of the order as the index reads it: the product's name and SKU as bought. */
export type SearchableLine = { name: string; sku: string | null };

type SearchableOrder = {
  id: string;
  orderNumber: string;
  email: string | null;
  shippingAddress: string | null;
  userEmail?: string | null;
  userName?: string | null;
  lines?: readonly SearchableLine[];
  trackingNumber?: string | null;
  totalCents?: number | null;
};

/** An amount's term: `$` and the dollars with two decimals, no thousands separator (`$1234.50`). */
export function amountTerm(cents: number): string {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * A search word typed as money (`12.34`, `$12.34`, `$1,234.5`, `$12`): its amount term, else null.
 * Digits alone stay a word (an order number or id may begin with them).
 */
export function amountOfWord(word: string): string | null {
  const m = /^(\$)?(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?$/.exec(word);
  if (!m || (!m[1] && m[3] === undefined)) return null;
  const dollars = Number(m[2]!.replace(/,/g, ''));
  const cents = Number((m[3] ?? '').padEnd(2, '0'));
  return amountTerm(dollars * 100 + cents);
}

/** The terms of an order's lines: the words of each product's name, and its whole SKU. */
export function lineTermsOf(lines: readonly SearchableLine[]): string[] {
  return lines
    .flatMap((l) => [...words(l.name), ...joinedTokens(l.name), l.sku?.trim().toLowerCase() ?? ''])
    .filter((t) => t.length > 0)
    .map((t) => t.slice(0, MAX_TERM));
}

export function searchTermsOf(o: SearchableOrder): string[] {
  const address = parseJson<{ name?: unknown; email?: unknown; city?: unknown } | string | null>(o.shippingAddress, null);
  const field = (k: 'name' | 'email' | 'city') =>
    address && typeof address === 'object' && typeof address[k] === 'string' ? address[k] : '';
  const terms = new Set<string>([
    o.id.toLowerCase(),
    o.orderNumber.toLowerCase(),
    orderReferenceOf(o.id).toLowerCase(),
    formerOrderReferenceOf(o.id).toLowerCase(),
    ...emailTerms(o.email),
    ...emailTerms(o.userEmail),
    ...emailTerms(field('email') || null),
    ...words(field('name')),
    ...words(o.userName ?? ''),
    ...words(field('city')),
    ...joinedTokens(field('city')),
    ...lineTermsOf(o.lines ?? []),
    o.trackingNumber?.trim().toLowerCase() ?? '',
    ...(o.totalCents != null && o.totalCents >= 0 ? [amountTerm(o.totalCents)] : []),
  ]);
  return [...terms].filter((t) => t.length > 0).map((t) => t.slice(0, MAX_TERM));
}

/** The words of a search box: lower-cased, at most five, leading '#' dropped (order numbers). */
export function searchWords(text: string): string[] {
  return text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^#+/, '').slice(0, MAX_TERM))
    .filter(Boolean)
    .slice(0, 5);
}

/**
 * One subquery per search word: the ids of orders with a term that begins with that word (one
 * index range each). An order matches when its id is in every one of them.
 */
export function ordersMatching(
  db: Kysely<Database>,
  search: string,
): SelectQueryBuilder<Database, 'order_search_terms', { order_id: string }>[] {
  return searchWords(search).map((w) => {
    const terms = db.selectFrom('order_search_terms').select('order_id');
    const amount = amountOfWord(w);
    return amount ? terms.where('term', '=', amount) : terms.where('term', '>=', w).where('term', '<', `${w}\uffff`);
  });
}

/** An order row as the index reads it (orders joined to their account, with its lines). */
export type OrderSearchRow = {
  id: string;
  order_number: string;
  email: string | null;
  shipping_address: string | null;
  user_email: string | null;
  full_name: string | null;
  shipstation_tracking_number?: string | null;
  total_cents?: number | null;
  lines?: readonly SearchableLine[];
};

/** The (term, order_id) rows that file one order. */
export function searchRowsOf(o: OrderSearchRow): { term: string; order_id: string }[] {
  return searchTermsOf({
    id: o.id,
    orderNumber: o.order_number,
    email: o.email,
    shippingAddress: o.shipping_address,
    userEmail: o.user_email,
    userName: o.full_name,
    lines: o.lines,
    trackingNumber: o.shipstation_tracking_number,
    totalCents: o.total_cents,
  }).map((term) => ({ term, order_id: o.id }));
}

/**
 * (Re)files one order under its terms; call inside the transaction that wrote the order, its
 * lines, its address, its total or its label (a label bought or voided changes its tracking number).
 */
export async function indexOrderSearch(db: Kysely<Database>, orderId: string): Promise<void> {
  const [o, lines] = await Promise.all([
    db
      .selectFrom('orders as o')
      .leftJoin('users as u', 'u.id', 'o.user_id')
      .select([
        'o.id',
        'o.order_number',
        'o.email',
        'o.shipping_address',
        'o.shipstation_tracking_number',
        'o.total_cents',
        'u.email as user_email',
        'u.full_name',
      ])
      .where('o.id', '=', orderId)
      .executeTakeFirst(),
    db
      .selectFrom('order_items')
      .select(['product_name', 'variant_label', 'sku'])
      .where('order_id', '=', orderId)
      .execute()
      // The line's title: the variant's option values are searched as its name is.
      .then((rows) => rows.map((r) => ({ name: lineTitle(r.product_name, r.variant_label), sku: r.sku }))),
  ]);
  await db.deleteFrom('order_search_terms').where('order_id', '=', orderId).execute();
  if (!o) return;
  await db
    .insertInto('order_search_terms')
    .values(searchRowsOf({ ...o, lines }))
    .execute();
}

/** The insert that files a new order from its row at hand (and its account's e-mail and name), not run yet: for writeTogether. */
export function newOrderSearchInsert(db: Kysely<Database>, o: OrderSearchRow) {
  return insertRows(db, 'order_search_terms', searchRowsOf(o));
}

/** After a customer's name or e-mail changes: refile their orders (a per-customer amount of work). */
export async function indexOrdersOfUser(db: Kysely<Database>, userId: string): Promise<void> {
  const ids = await db.selectFrom('orders').select('id').where('user_id', '=', userId).execute();
  for (const { id } of ids) await indexOrderSearch(db, id);
}
