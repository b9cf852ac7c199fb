import { sql, type Kysely } from 'kysely';
import { stockItemIdFor } from '../inventory/stock.js';
import { defaultVariantIdOf } from '../../shared/variants.js';
import { describe, expect, it } from 'vitest';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import type { TestApp } from '../test/harness.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { checkShopChanges, noteShopChange } from '../http/shop-changes.js';
import { containsText } from '../db/query-helpers.js';
import type { Database } from '../db/schema.js';
import { ProductPage } from '../../shared/schemas/catalog.js';

/**
 * The product search answers from each process's in-memory index of the catalogue (search-index.ts,
 * decision 0010). These tests hold it to the database scan it replaced (with decision 0033's ranking: name
 * matches first): the same products, in the same order, with the same count, for every kind of text a shopper can type.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((a) => ({ t, admin } = a));

type Filter = { search: string; category?: string; featured?: boolean; page: number; pageSize: number };

/**
 * The search rule in the database's words: the name or the description holds the text, or (decision
 * 0036) one of the product's options' values, or the SKU of one of its enabled variants.
 */
function matchesText(search: string) {
  const optionValue =
    t.dialect === 'postgres'
      ? sql<boolean>`exists (select 1 from product_options o cross join lateral jsonb_array_elements_text(o."values"::jsonb) as e(value)
          where o.product_id = products.id and ${containsText('e.value', search)})`
      : sql<boolean>`exists (select 1 from product_options o, json_each(o."values") e
          where o.product_id = products.id and ${containsText('e.value', search)})`;
  const variantSku = sql<boolean>`exists (select 1 from product_variants v
    where v.product_id = products.id and v.enabled = 1 and ${containsText('v.sku', search)})`;
  return sql<boolean>`(${containsText('name', search)} or ${containsText('description', search)} or ${optionValue} or ${variantSku})`;
}

/** The search as it was before the index: a scan of every product. */
async function scan(db: Kysely<Database>, f: Filter): Promise<{ ids: string[]; total: number }> {
  let base = db.selectFrom('products');
  if (f.category) base = base.where('category_id', '=', f.category);
  if (f.featured !== undefined) base = base.where('featured', '=', f.featured ? 1 : 0);
  base = base.where(matchesText(f.search));
  const count = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const rows = await base
    .select('id')
    // Name matches rank above description-only matches (each in shop order).
    .orderBy(sql`case when ${containsText('name', f.search)} then 0 else 1 end`)
    .orderBy(sql`case when sort_number is null then 1 else 0 end`)
    .orderBy('sort_number')
    .orderBy('price_cents')
    .orderBy('name')
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize)
    .execute();
  return { ids: rows.map((r) => r.id), total: Number(count?.n ?? 0) };
}

async function api(f: Filter): Promise<{ ids: string[]; total: number; totalPages: number }> {
  const q = new URLSearchParams({ search: f.search, page: String(f.page), pageSize: String(f.pageSize) });
  if (f.category) q.set('category', f.category);
  if (f.featured !== undefined) q.set('featured', String(f.featured));
  const res = await t.app.inject({ method: 'GET', url: `/api/products?${q.toString()}` });
  expect(res.statusCode, q.toString()).toBe(200);
  const page = ProductPage.parse(res.json());
  return { ids: page.items.map((p) => p.id), total: page.total, totalPages: page.totalPages };
}

/** Every page of the search through the API, against the scan; answers the scan's total. */
async function expectSameAsScan(search: string, extra: Partial<Filter> = {}, pageSize = 4): Promise<number> {
  const first = await scan(t.db, { search, page: 1, pageSize, ...extra });
  const pages = Math.max(1, Math.ceil(first.total / pageSize));
  for (let page = 1; page <= Math.min(pages + 1, 6); page++) {
    const f = { search, page, pageSize, ...extra };
    const [got, want] = await Promise.all([api(f), scan(t.db, f)]);
    expect({ ids: got.ids, total: got.total }, JSON.stringify(f)).toEqual(want);
    expect(got.totalPages).toBe(pages);
  }
  return first.total;
}

const NAMES: [string, string, string?][] = [
  ['Zebra Sponge', 'plain', 'cleaners'],
  ['Plain pad', 'Loved by ZEBRAS and people alike', 'mops'],
  ['100% Cotton Rag', 'Cotton, 100 percent', 'cleaning-cloths'],
  ['Under_score Mop', 'a mop with_an underscore', 'mops'],
  ['Back\\slash Brush', 'it has a back\\slash', 'cleaners'],
  ['It\'s a "Quoted" Cloth', 'say "hello" to it', 'cleaning-cloths'],
  ['Crème Brûlée Soap', 'smells of crème', 'cleaners'],
  ['ÉCOLE Brush', 'for the École', 'accessories'],
  ['école brush', 'lower-case accents', 'accessories'],
  ['Straße Cleaner', 'STRASSE in capitals', 'cleaners'],
  ['İstanbul Towel', 'dotted capital I', 'cleaning-cloths'],
  ['\u212Aelvin Scrubber', 'a Kelvin sign, not a K', 'mops'],
  ['🧽 Sponge Deluxe', 'an emoji sponge 🧽', 'cleaners'],
  ['スポンジ Pad', '日本のスポンジ', 'cleaners'],
  ['Glass  Cleaner Double', 'two spaces between words', 'glass-cleaning'],
  ['3 - Numbered Cloth', 'numbered first', 'cleaning-cloths'],
  ['12 - Numbered Mop', 'numbered second', 'mops'],
  ['Quiet Duster', 'matches only in the description: AARDVARK', 'accessories'],
  ['%_%', 'only wildcards', 'accessories'],
];
const WORDS = ['Ash', 'Fern', 'Pike', 'Vale', 'Lark'];
const KINDS = ['Cloth', 'Mop', 'Cleaner', 'Sponge', 'Brush', 'Refill'];
const CATEGORIES = ['cleaners', 'mops', 'cleaning-cloths', 'glass-cleaning', 'accessories'];

const TERMS = [
  // short: the index needs three characters, the scan answers these
  'a',
  'Z',
  'ab',
  'é',
  'É',
  'ß',
  '%',
  '_',
  '\\',
  '"',
  "'",
  // mixed case, whole and partial words
  'zebra',
  'ZEBRA',
  'zEbRa',
  'ebr',
  'cloth',
  'CLOTH',
  'sponge',
  'pike mop',
  'Pike Mop 1',
  'fern cleaner 2',
  'ash',
  // wildcards and quotes as plain text
  '100%',
  '00%',
  '%%%',
  '_____%%%',
  'under_score',
  'r_s',
  '%_%',
  'back\\slash',
  'k\\s',
  '"quoted"',
  "it's",
  'say "hello"',
  '"',
  // accents and other scripts, as each database lowers them
  'crème',
  'CRÈME',
  'creme',
  'brûlée',
  'école',
  'ÉCOLE',
  'École',
  'cole',
  'straße',
  'STRASSE',
  'strasse',
  'i̇stanbul',
  'İstanbul',
  'istanbul',
  'kelvin',
  '\u212Aelvin',
  'elvin',
  '🧽',
  '🧽 s',
  'sponge deluxe',
  'スポンジ',
  'のスポ',
  // several words, spaces, description-only, nothing
  'glass  cleaner',
  'glass cleaner',
  'loved by',
  'aardvark',
  'numbered',
  'a mop with',
  'no such thing xyz',
  'q'.repeat(100),
  // option values and variants' SKUs (decision 0036), a switched-off variant's SKU, across two values
  'lavender',
  'LAVENDER',
  'lav',
  'l',
  '1 l',
  'vx-',
  'vx-lav-1',
  'vx-off',
  'lavenderlemon',
  'lemon","1',
];

describe(`product search from the index (${process.env.TEST_DB ?? 'sqlite'})`, () => {
  it('finds what the scan finds, in the same order and count, for every kind of text', async () => {
    for (const [i, [name, description, category]] of NAMES.entries()) {
      await createProduct(t.db, {
        id: `s-${i}`,
        name,
        description,
        categoryId: category,
        priceCents: 500 + ((i * 37) % 7) * 100,
        featured: i % 3 === 0,
      });
    }
    // Products sold in variants, found by their options' values and enabled variants' SKUs too.
    for (let i = 0; i < 3; i++) {
      const id = `v-${i}`;
      await createProduct(t.db, { id, name: `Concentrate ${i}`, description: 'a refill', categoryId: CATEGORIES[i], sku: `VX-LAV-${i}` });
      await t.db
        .insertInto('product_options')
        .values([
          { product_id: id, position: 1, name: 'Scent', values: JSON.stringify(['Lavender', 'Lemon', 'Crème']) },
          { product_id: id, position: 2, name: 'Size', values: JSON.stringify(['500 ml', '1 L']) },
        ])
        .execute();
      await t.db.updateTable('product_variants').set({ option1: 'Lavender', option2: '500 ml' }).where('id', '=', `var_${id}`).execute();
      if (i > 0) await createVariant(t.db, id, { options: ['Lemon', '1 L'], sku: `VX-LEM-${i}`, priceCents: 999 + i });
      if (i > 1) await createVariant(t.db, id, { options: ['Crème', '1 L'], sku: `VX-OFF-${i}`, enabled: false });
    }
    for (let i = 0; i < 120; i++) {
      const name = `${WORDS[i % WORDS.length]} ${KINDS[(i * 7) % KINDS.length]} ${i}`;
      await createProduct(t.db, {
        id: `g-${i}`,
        name,
        description: `A ${KINDS[(i * 5) % KINDS.length]!.toLowerCase()} from the test catalogue, number ${i}.`,
        categoryId: CATEGORIES[i % CATEGORIES.length],
        // Ties on price make the name decide the order.
        priceCents: 300 + (i % 4) * 250,
        featured: i % 5 === 0,
      });
    }
    const totals: Record<string, number> = {};
    for (const term of TERMS) totals[term] = await expectSameAsScan(term);
    // The comparison is worth something only if the terms find things, and some find nothing.
    expect(totals['cloth']).toBeGreaterThan(20);
    expect(totals['aardvark']).toBe(1);
    expect(totals['100%']).toBe(1);
    expect(totals['%_%']).toBe(1);
    expect(totals['no such thing xyz']).toBe(0);
    expect(totals['zEbRa']).toBe(2);
    // Lavender: this test's three products and the seeded cleaner, sold in a lavender scent.
    expect([totals['lavender'], totals['vx-'], totals['vx-lav-1'], totals['vx-off'], totals['lavenderlemon']]).toEqual([4, 3, 1, 0, 0]);
    for (const term of ['cloth', 'pike', 'sponge', 'a', 'zebra', 'é', 'numbered', 'mop 1']) {
      for (const category of ['mops', 'cleaners', 'cleaning-cloths']) await expectSameAsScan(term, { category });
      await expectSameAsScan(term, { featured: true });
      await expectSameAsScan(term, { featured: false, category: 'mops' }, 24);
    }
  });

  it('shows what can be bought (stock less open holds) on every kind of search page', async () => {
    // The holds are read beside a searched page (not by a query of their own): one open checkout
    // holds units of some products, a lapsed one holds none.
    const at = new Date().toISOString();
    const order = (id: string) =>
      ({
        id,
        order_number: id.toUpperCase(),
        user_id: null,
        email: 'holds@example.com',
        status: 'pending',
        payment_status: 'unpaid',
        payment_provider: 'stripe',
        payment_session_id: null,
        shipping_address: null,
        billing_address: null,
        subtotal_cents: 100,
        discount_cents: 0,
        shipping_cents: 0,
        tax_cents: 0,
        total_cents: 100,
        coupon_code: null,
        shipping_option_id: null,
        shipstation_data: null,
        shipstation_tracking_number: null,
        guest_token_hash: null,
        created_at: at,
        updated_at: at,
        paid_at: null,
      }) as const;
    await t.db
      .insertInto('orders')
      .values([order('order_search_open'), order('order_search_lapsed')])
      .execute();
    const soon = new Date(Date.now() + 600_000).toISOString();
    const past = new Date(Date.now() - 60_000).toISOString();
    const hold = (order_id: string, product_id: string, quantity: number, until: string) => ({
      order_id,
      stock_item_id: stockItemIdFor(product_id, defaultVariantIdOf(product_id)),
      product_id,
      variant_id: defaultVariantIdOf(product_id),
      quantity,
      firm_until: until,
      expires_at: until,
      ip: null,
      device_id: null,
      user_id: null,
      created_at: new Date().toISOString(),
      released_at: null,
      // Firm ones count in their item's reserved units, as a checkout writes them (inventory/reservations.ts).
      counted: until === soon ? 1 : 0,
    });
    await t.db
      .insertInto('stock_reservations')
      .values([
        hold('order_search_open', 'g-0', 2, soon),
        hold('order_search_open', 'g-7', 999, soon),
        hold('order_search_lapsed', 'g-0', 3, past),
        hold('order_search_lapsed', 'g-5', 4, past),
      ])
      .execute();
    for (const [id, units] of [
      ['g-0', 2],
      ['g-7', 999],
    ] as const) {
      await t.db
        .updateTable('stock_items')
        .set({ reserved: units, updated_at: new Date().toISOString() })
        .where('id', '=', stockItemIdFor(id, defaultVariantIdOf(id)))
        .execute();
    }
    // Written behind the shop's back: the shop learns of it on its next look at the stock.
    await checkShopChanges(t.db);
    const shown = async (q: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/products?${q}&pageSize=7` });
      return new Map(ProductPage.parse(res.json()).items.map((p) => [p.id, p.inventory]));
    };
    const recorded = async (id: string) =>
      (await t.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
    // Texts that find a few products, many (the shop-order walk on SQLite), one or two characters
    // (the scan), and with a category filter.
    const seen = new Set<string>();
    for (const q of [
      'search=ash',
      'search=Ash%20Cloth%200',
      'search=Ash%20Refill%205',
      'search=pike%20mop%207',
      'search=pike',
      'search=mop',
      'search=a',
      'search=test%20catalogue',
      'search=ash&category=cleaners',
      'search=fern&featured=false',
    ]) {
      const page = await shown(q);
      expect(page.size, q).toBeGreaterThan(0);
      for (const [id, inventory] of page) {
        seen.add(id);
        const want = id === 'g-0' ? (await recorded(id)) - 2 : id === 'g-7' ? 0 : await recorded(id);
        expect(inventory, `${q} ${id}`).toBe(want);
      }
    }
    expect([seen.has('g-0'), seen.has('g-5'), seen.has('g-7')]).toEqual([true, true, true]);
    await t.db.deleteFrom('stock_reservations').execute();
    await t.db.updateTable('stock_items').set({ reserved: 0, updated_at: new Date().toISOString() }).execute();
    await t.db.deleteFrom('orders').where('id', 'in', ['order_search_open', 'order_search_lapsed']).execute();
  });

  it('shows a level a sale moved when a back-office write comes at the same moment', async () => {
    // A sale moves the product's copy of its level and stamps its stock item only (the product's
    // row stays a HOT update). Stamped long ago, the product is read again because its item was.
    const id = 'g-3';
    const item = stockItemIdFor(id, defaultVariantIdOf(id));
    await t.db.updateTable('products').set({ updated_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', id).execute();
    await noteShopChange(t.db);
    const { name } = await t.db.selectFrom('products').select('name').where('id', '=', id).executeTakeFirstOrThrow();
    const shownLevel = async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/products?search=${encodeURIComponent(name)}` });
      return ProductPage.parse(res.json()).items.find((p) => p.id === id)?.inventory;
    };
    const before = await shownLevel();
    expect(before).toBeGreaterThan(4);
    const sell = (units: number) =>
      t.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('products')
          .set({ inventory: sql`inventory - ${units}` })
          .where('id', '=', id)
          .execute();
        await trx
          .updateTable('stock_items')
          .set({ on_hand: sql`on_hand - ${units}`, updated_at: new Date().toISOString() })
          .where('id', '=', item)
          .execute();
      });
    await sell(4);
    // A back-office write elsewhere at the same moment: the index reads what was written since its
    // last look instead of the log of products whose stock moved.
    await noteShopChange(t.db);
    expect(await shownLevel()).toBe(before! - 4);
    await sell(-4);
    await noteShopChange(t.db);
    expect(await shownLevel()).toBe(before);
  });

  it('follows products created, renamed, redescribed and deleted in the back office', async () => {
    const created = await admin.request('POST', '/api/admin/products', {
      name: 'Quokka Duster',
      description: 'A duster for high shelves.',
      priceCents: 1299,
      inventory: 5,
      category: 'accessories',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().product.id as string;
    expect(await expectSameAsScan('quokka')).toBe(1);
    expect(await expectSameAsScan('high shel')).toBe(1);

    const renamed = await admin.request('PUT', `/api/admin/products/${id}`, {
      name: 'Wombat Duster',
      description: 'A duster for low cupboards.',
      priceCents: 1299,
      category: 'accessories',
    });
    expect(renamed.statusCode).toBe(200);
    expect(await expectSameAsScan('quokka')).toBe(0);
    expect(await expectSameAsScan('high shel')).toBe(0);
    expect(await expectSameAsScan('wombat')).toBe(1);
    expect(await expectSameAsScan('low cupb')).toBe(1);
    expect(await expectSameAsScan('duster', { category: 'accessories' })).toBeGreaterThanOrEqual(2);

    const deleted = await admin.request('DELETE', `/api/admin/products/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(await expectSameAsScan('wombat')).toBe(0);
    expect(await expectSameAsScan('duster')).toBe(1);
  });
  it('sorts by price and by newest and filters by a price range, as the database orders them', async () => {
    type Ordered = { search?: string; category?: string; sort?: 'price-asc' | 'price-desc' | 'newest'; min?: number; max?: number };
    // The rule in the database's own words: the matches in shop order, then (stably) by price or newest first.
    const expected = async (f: Ordered) => {
      let base = t.db.selectFrom('products');
      if (f.category) base = base.where('category_id', '=', f.category);
      if (f.search) base = base.where(matchesText(f.search));
      if (f.min !== undefined) base = base.where('price_cents', '>=', Math.round(f.min * 100));
      if (f.max !== undefined) base = base.where('price_cents', '<=', Math.round(f.max * 100));
      // In shop order, a search ranks name matches first; an explicit order (price, newest) is the order.
      const ranked = f.search !== undefined && f.sort === undefined;
      const rows = await base
        .select(['id', 'price_cents', 'created_at'])
        .orderBy(ranked ? sql`case when ${containsText('name', f.search!)} then 0 else 1 end` : sql`(select 0)`)
        .orderBy(sql`case when sort_number is null then 1 else 0 end`)
        .orderBy('sort_number')
        .orderBy('price_cents')
        .orderBy('name')
        .orderBy('id')
        .execute();
      if (f.sort === 'newest') rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
      if (f.sort === 'price-asc' || f.sort === 'price-desc') rows.sort((a, b) => a.price_cents - b.price_cents);
      if (f.sort === 'price-desc') rows.reverse();
      return rows.map((r) => r.id);
    };
    // Products created a millisecond apart at most: some share their time, and ties keep shop order.
    for (let i = 0; i < 30; i++) {
      await createProduct(t.db, {
        id: `o-${i}`,
        name: `Oak ${KINDS[i % KINDS.length]} ${i}`,
        description: 'sorted',
        categoryId: CATEGORIES[i % 3],
        priceCents: 199 + (i % 6) * 150,
        createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 10))).toISOString(),
      });
    }
    const cases: Ordered[] = [];
    for (const sort of [undefined, 'price-asc', 'price-desc', 'newest'] as const) {
      for (const range of [{}, { min: 3.49 }, { max: 6.49 }, { min: 3.49, max: 9.99 }, { min: 5, max: 5 }]) {
        cases.push(
          { sort, ...range },
          { sort, search: 'oak', ...range },
          { sort, search: 'cloth', category: 'cleaning-cloths', ...range },
          { sort, search: 'k', ...range },
        );
      }
    }
    for (const f of cases) {
      const want = await expected(f);
      const got: string[] = [];
      let total = -1;
      for (let page = 1; page <= Math.ceil(want.length / 7) + 1; page++) {
        const q = new URLSearchParams({ page: String(page), pageSize: '7' });
        for (const [key, value] of Object.entries({
          search: f.search,
          category: f.category,
          sort: f.sort,
          minPrice: f.min,
          maxPrice: f.max,
        }))
          if (value !== undefined) q.set(key, String(value));
        const res = await t.app.inject({ method: 'GET', url: `/api/products?${q.toString()}` });
        expect(res.statusCode, q.toString()).toBe(200);
        const found = ProductPage.parse(res.json());
        got.push(...found.items.map((p) => p.id));
        total = found.total;
      }
      expect({ ids: got, total }, JSON.stringify(f)).toEqual({ ids: want, total: want.length });
    }
    expect((await expected({ sort: 'price-asc', min: 3.49, max: 9.99 })).length).toBeGreaterThan(20);

    for (const [query, message] of [
      ['sort=cheapest', 'sort must be one of: shop, price-asc, price-desc, newest'],
      ['minPrice=abc', 'minPrice must be an amount in dollars, like 12 or 12.50'],
      ['maxPrice=1.234', 'maxPrice must be an amount in dollars, like 12 or 12.50'],
      ['minPrice=-1', 'minPrice must be an amount in dollars, like 12 or 12.50'],
      ['minPrice=20&maxPrice=10', 'minPrice cannot be more than maxPrice'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/products?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toContain(message);
    }
    const shopOrder = await t.app.inject({ method: 'GET', url: '/api/products?sort=shop&minPrice=&pageSize=100' });
    expect(ProductPage.parse(shopOrder.json()).items.map((p) => p.id)).toEqual((await expected({})).slice(0, 100));
  });
  it('ranks products whose name holds the text above those with it in their description only', async () => {
    // The description-only matches come first in shop order (cheaper, numbered), so only the ranking puts the names first.
    await createProduct(t.db, { id: 'r-desc-1', name: '1 - Bucket Set', description: 'Goes with any Walrus mop', priceCents: 100 });
    await createProduct(t.db, { id: 'r-desc-2', name: 'Wringer', description: 'fits the walrus range', priceCents: 150 });
    await createProduct(t.db, { id: 'r-name-1', name: 'Walrus Mop', description: 'a big mop', priceCents: 2500 });
    await createProduct(t.db, { id: 'r-name-2', name: 'Mini WALRUS Mop', description: 'a small mop', priceCents: 2400 });
    const ids = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/products?${query}` });
      expect(res.statusCode, query).toBe(200);
      return ProductPage.parse(res.json()).items.map((p) => p.id);
    };
    expect(await ids('search=walrus')).toEqual(['r-name-2', 'r-name-1', 'r-desc-1', 'r-desc-2']);
    // Paged: the second page goes on where the first stopped.
    expect([...(await ids('search=walrus&pageSize=3')), ...(await ids('search=walrus&pageSize=3&page=2'))]).toEqual([
      'r-name-2',
      'r-name-1',
      'r-desc-1',
      'r-desc-2',
    ]);
    // Short texts (under three characters) are ranked the same way.
    expect((await ids('search=wa&pageSize=100')).filter((id) => id.startsWith('r-'))).toEqual([
      'r-name-2',
      'r-name-1',
      'r-desc-1',
      'r-desc-2',
    ]);
    // A chosen order is the order: cheapest first mixes them.
    expect(await ids('search=walrus&sort=price-asc')).toEqual(['r-desc-1', 'r-desc-2', 'r-name-2', 'r-name-1']);
  });
});
