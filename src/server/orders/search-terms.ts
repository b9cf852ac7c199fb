import { type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { trackingCodeOf } from '../../shared/schemas/orders.js';

/**
 * The admin order search looks words up in `order_search_terms` (term, order_id) instead of
 * scanning every order: each order is filed under its id, order number, tracking code, e-mail
 * addresses (whole, the part before @, the domain and the words of that part) and the words of
 * the customer's names. A search word matches every term it begins, through the primary-key
 * index, so a search costs what it finds, not what the shop has sold.
 */
const MAX_TERM = 120;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

function emailTerms(email: string | null | undefined): string[] {
  if (!email) return [];
  const e = email.trim().toLowerCase();
  const [local = '', domain = ''] = e.split('@');
  return [e, local, domain, ...words(local)].filter(Boolean);
}

type SearchableOrder = {
  id: string;
  orderNumber: string;
  email: string | null;
  shippingAddress: string | null;
  userEmail?: string | null;
  userName?: string | null;
};

export function searchTermsOf(o: SearchableOrder): string[] {
  const address = parseJson<{ name?: unknown; email?: unknown } | string | null>(o.shippingAddress, null);
  const shipName = address && typeof address === 'object' && typeof address.name === 'string' ? address.name : '';
  const shipEmail = address && typeof address === 'object' && typeof address.email === 'string' ? address.email : null;
  const terms = new Set<string>([
    o.id.toLowerCase(),
    o.orderNumber.toLowerCase(),
    trackingCodeOf(o.id).toLowerCase(),
    ...emailTerms(o.email),
    ...emailTerms(o.userEmail),
    ...emailTerms(shipEmail),
    ...words(shipName),
    ...words(o.userName ?? ''),
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
  return searchWords(search).map((w) =>
    db.selectFrom('order_search_terms').select('order_id').where('term', '>=', w).where('term', '<', `${w}\uffff`),
  );
}

/** An order row as the index reads it (orders joined to their account). */
export type OrderSearchRow = {
  id: string;
  order_number: string;
  email: string | null;
  shipping_address: string | null;
  user_email: string | null;
  full_name: string | null;
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
  }).map((term) => ({ term, order_id: o.id }));
}

/** (Re)files one order under its terms; call inside the transaction that wrote the order. */
export async function indexOrderSearch(db: Kysely<Database>, orderId: string): Promise<void> {
  const o = await db
    .selectFrom('orders as o')
    .leftJoin('users as u', 'u.id', 'o.user_id')
    .select(['o.id', 'o.order_number', 'o.email', 'o.shipping_address', 'o.created_at', 'u.email as user_email', 'u.full_name'])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
  await db.deleteFrom('order_search_terms').where('order_id', '=', orderId).execute();
  if (!o) return;
  await db.insertInto('order_search_terms').values(searchRowsOf(o)).execute();
}

/** The insert that files a new order from its row at hand (and its account's e-mail and name), not run yet: for writeTogether. */
export function newOrderSearchInsert(db: Kysely<Database>, o: OrderSearchRow) {
  return db.insertInto('order_search_terms').values(searchRowsOf(o));
}

/** After a customer's name or e-mail changes: refile their orders (a per-customer amount of work). */
export async function indexOrdersOfUser(db: Kysely<Database>, userId: string): Promise<void> {
  const ids = await db.selectFrom('orders').select('id').where('user_id', '=', userId).execute();
  for (const { id } of ids) await indexOrderSearch(db, id);
}
