import type { Insertable, Kysely } from 'kysely';
import { adoptUnstockedProducts } from '../../inventory/stock.js';
import { giveProductsTheirSoleVariant } from '../../catalog/variants.js';
import type { Database, OrderItemsTable, OrdersTable, ProductsTable, UsersTable } from '../schema.js';
import { hashPassword } from '../../accounts/password.js';
import { lineTermsOf, searchTermsOf } from '../../orders/search-terms.js';

/**
 * `npm run db:seed -- --large`: a shop that has been trading for years, for measuring. Rows are
 * deterministic (the same counts give the same rows), written in batches inside transactions,
 * and added on top of whatever is there: run it on a fresh database.
 */
type LargeSeedCounts = { products: number; users: number; orders: number };
const LARGE_DEFAULTS: LargeSeedCounts = { products: 10_000, users: 50_000, orders: 1_000_000 };

const FIRST = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lea', 'Max', 'Noa', 'Oli', 'Pia'];
const LAST = ['Moss', 'Reed', 'Birch', 'Fern', 'Stone', 'Brook', 'Hale', 'Lark', 'Vale', 'Wren', 'Ash', 'Marsh', 'Pike', 'Rowe'];
/** Shipping cities, by order number (not drawn from the random stream, which the rest of the seed follows). */
const CITIES = [
  'Portland',
  'Eugene',
  'Salem',
  'Bend',
  'Seattle',
  'Tacoma',
  'Spokane',
  'Boise',
  'Reno',
  'Sacramento',
  'Fresno',
  'Oakland',
  'San Jose',
  'Santa Rosa',
  'Medford',
  'Olympia',
  'Yakima',
  'Redding',
  'Chico',
  'Davis',
];
const KINDS = ['Cloth', 'Mop', 'Refill', 'Powder', 'Cleaner', 'Bundle', 'Brush', 'Sponge'];
const CATEGORIES = ['cleaning-cloths', 'mops', 'cleaners', 'laundry', 'refills', 'bundles', 'accessories'];
const STATUSES: OrdersTable['status'][] = [
  'delivered',
  'delivered',
  'delivered',
  'shipped',
  'processing',
  'pending',
  'completed',
  'cancelled',
];
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** A small, fast, seeded generator (mulberry32): the same seed gives the same shop. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

/** Inserts rows in chunks small enough for SQLite's bound-parameter limit, one transaction per batch. */
async function insertBatches<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  count: number,
  columns: number,
  make: (i: number) => Insertable<Database[T]>,
  onProgress: (done: number) => void,
  afterStatement?: (trx: Kysely<Database>, rows: Insertable<Database[T]>[]) => Promise<void>,
): Promise<void> {
  const perStatement = Math.max(1, Math.floor(30_000 / columns));
  const perTransaction = perStatement * 10;
  for (let start = 0; start < count; start += perTransaction) {
    const end = Math.min(count, start + perTransaction);
    await db.transaction().execute(async (trx) => {
      for (let s = start; s < end; s += perStatement) {
        const rows: Insertable<Database[T]>[] = [];
        for (let i = s; i < Math.min(end, s + perStatement); i++) rows.push(make(i));
        // A column added to a table's rows without its count here would overflow SQLite's limit.
        const made = Object.keys(rows[0] ?? {}).length;
        if (made > columns) throw new Error(`${String(table)} rows have ${made} columns, not the ${columns} counted for the batch size`);
        // Kysely's insert typing cannot follow a generic table name; the rows are built for it.
        await trx
          .insertInto(table)
          .values(rows as never)
          .execute();
        await afterStatement?.(trx, rows);
      }
    });
    onProgress(end);
  }
}

export async function seedLarge(db: Kysely<Database>, counts: LargeSeedCounts, log: (line: string) => void = console.log): Promise<void> {
  const r = rng(20261123);
  const now = Date.now();
  const progress = (what: string, total: number) => {
    let last = 0;
    return (done: number) => {
      if (done === total || done - last >= total / 10) {
        last = done;
        log(`  ${what}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
      }
    };
  };

  const existing = await db.selectFrom('categories').select('id').execute();
  const categoryIds = existing.length ? existing.map((c) => c.id) : CATEGORIES;
  const stamp = new Date(now).toISOString();

  log(`Seeding ${counts.products} products, ${counts.users} users and ${counts.orders} orders…`);
  const prices: number[] = [];
  await insertBatches(
    db,
    'products',
    counts.products,
    14,
    (i): Insertable<ProductsTable> => {
      const price = 199 + Math.floor(r() * 9800);
      prices[i] = price;
      return {
        id: `prod-large-${i}`,
        name: `${pick(r, LAST)} ${pick(r, KINDS)} ${i}`,
        description: `A ${pick(r, KINDS).toLowerCase()} from the large catalogue, number ${i}.`,
        price_cents: price,
        category_id: pick(r, categoryIds),
        images: '["/images/placeholder.svg"]',
        featured: 0,
        inventory: 1_000_000,
        sort_number: null,
        sku: `LRG-${i}`,
        brand: 'EcoClean',
        created_at: stamp,
        updated_at: stamp,
      };
    },
    progress('products', counts.products),
  );
  await giveProductsTheirSoleVariant(db);
  await adoptUnstockedProducts(db);

  const userNames: string[] = [];
  const userEmails: string[] = [];
  // One real argon2id hash shared by every generated account (password "Large-Seed-2026").
  const passwordHash = await hashPassword('Large-Seed-2026');
  await insertBatches(
    db,
    'users',
    counts.users,
    12,
    (i): Insertable<UsersTable> => {
      const first = pick(r, FIRST);
      const last = pick(r, LAST);
      userNames[i] = `${first} ${last}`;
      userEmails[i] = `${first.toLowerCase()}.${last.toLowerCase()}.${i}@example.net`;
      const created = new Date(now - 3 * YEAR_MS + (i / Math.max(1, counts.users)) * 3 * YEAR_MS).toISOString();
      return {
        id: `user-large-${i}`,
        email: userEmails[i]!,
        full_name: userNames[i]!,
        role: 'client',
        password_hash: passwordHash,
        email_verified: 1,
        loyalty_points: Math.floor(r() * 400),
        total_points_earned: 0,
        created_at: created,
        updated_at: created,
      };
    },
    progress('users', counts.users),
  );

  // Orders spread over the last two years, oldest first; a quarter are guests.
  const itemsPerOrder: number[] = [];
  const orderTime = (i: number) => now - 2 * YEAR_MS + Math.floor((i / Math.max(1, counts.orders)) * 2 * YEAR_MS);
  const orderIdOf = (i: number) => `order_${orderTime(i)}_${i.toString(36).padStart(9, '0')}`;
  await insertBatches(
    db,
    'orders',
    counts.orders,
    19,
    (i): Insertable<OrdersTable> => {
      const at = orderTime(i);
      const id = orderIdOf(i);
      const guest = counts.users === 0 || r() < 0.25;
      const u = guest ? -1 : Math.floor(r() * counts.users);
      const first = pick(r, FIRST);
      const last = pick(r, LAST);
      const n = 1 + Math.floor(r() * 3);
      itemsPerOrder[i] = n;
      const subtotal = 500 + Math.floor(r() * 20_000);
      const tax = Math.round(subtotal * 0.08);
      const created = new Date(at).toISOString();
      return {
        id,
        order_number: id.slice(-8).toUpperCase(),
        user_id: guest ? null : `user-large-${u}`,
        email: guest ? `${first.toLowerCase()}.${i}@guest.example.org` : userEmails[u]!,
        status: pick(r, STATUSES),
        payment_status: 'paid',
        payment_provider: 'test',
        shipping_address: JSON.stringify({
          name: `${first} ${last}`,
          address: `${i} Market St`,
          city: CITIES[i % CITIES.length],
          state: 'OR',
          zip: '97201',
          country: 'US',
        }),
        subtotal_cents: subtotal,
        tax_cents: tax,
        discount_cents: 0,
        shipping_cents: 599,
        total_cents: subtotal + tax + 599,
        created_at: created,
        updated_at: created,
        paid_at: created,
      };
    },
    progress('orders', counts.orders),
    async (trx, rows) => {
      const terms = rows.flatMap((o) => {
        const user = o.user_id ? Number(o.user_id.slice('user-large-'.length)) : -1;
        return searchTermsOf({
          id: o.id,
          orderNumber: o.order_number,
          email: o.email ?? null,
          shippingAddress: o.shipping_address ?? null,
          userEmail: userEmails[user] ?? null,
          userName: userNames[user] ?? null,
          totalCents: o.total_cents ?? null,
        }).map((term) => ({ term, order_id: o.id }));
      });
      for (let k = 0; k < terms.length; k += 15_000)
        await trx
          .insertInto('order_search_terms')
          .values(terms.slice(k, k + 15_000))
          .execute();
    },
  );

  let itemCount = 0;
  const itemOwners: number[] = [];
  for (let i = 0; i < counts.orders; i++) for (let k = 0; k < (itemsPerOrder[i] ?? 1); k++) itemOwners[itemCount++] = i;
  await insertBatches(
    db,
    'order_items',
    itemCount,
    11,
    (j): Insertable<OrderItemsTable> => {
      const p = Math.floor(r() * Math.max(1, counts.products));
      return {
        id: `item-large-${j}`,
        order_id: orderIdOf(itemOwners[j] ?? 0),
        product_id: counts.products ? `prod-large-${p}` : 'unknown',
        variant_id: counts.products ? `var_prod-large-${p}` : null,
        product_name: `Large catalogue item ${p}`,
        sku: counts.products ? `LRG-${p}` : null,
        quantity: 1 + Math.floor(r() * 3),
        price_cents: prices[p] ?? 999,
        size: 'One Size',
        color: 'Default',
        is_free_gift: 0,
      };
    },
    progress('order items', itemCount),
    // The lines' product words and SKUs (an order's lines may straddle two statements: its terms may repeat).
    async (trx, rows) => {
      const terms = new Map<string, { term: string; order_id: string }>();
      for (const l of rows) {
        for (const term of lineTermsOf([{ name: l.product_name, sku: l.sku ?? null }]))
          terms.set(`${term}\u0000${l.order_id}`, { term, order_id: l.order_id });
      }
      const values = [...terms.values()];
      for (let k = 0; k < values.length; k += 15_000)
        await trx
          .insertInto('order_search_terms')
          .values(values.slice(k, k + 15_000))
          .onConflict((oc) => oc.doNothing())
          .execute();
    },
  );
  log('Large seed done.');
}

/** `--large`, optionally with `--products N --users N --orders N`. */
export function parseLargeArgs(argv: readonly string[]): LargeSeedCounts | null {
  if (!argv.includes('--large')) return null;
  const counts = { ...LARGE_DEFAULTS };
  for (const key of ['products', 'users', 'orders'] as const) {
    const i = argv.indexOf(`--${key}`);
    if (i >= 0) {
      const n = Number(argv[i + 1]);
      if (!Number.isInteger(n) || n < 0) throw new Error(`--${key} needs a whole number, got "${argv[i + 1] ?? ''}"`);
      counts[key] = n;
    }
  }
  return counts;
}
