import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { TestClient, useAdminTestApp } from '../test/http-client.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { seedProducts } from '../db/seed/catalog-data.js';
import { checkShopChanges, noteShopChange } from '../http/shop-changes.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { STOCK_STALE_MS } from './page-cache.js';

/**
 * Storefront HTML kept for visitors who are not signed in (pages/page-cache.ts): rendered once per
 * page, answered compressed as the browser asks, dropped when the back office or stock changes it,
 * and a signed-in visitor's copy made from it with their session, never rendered again.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
const dataOf = (html: string) =>
  JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as {
    key: string[];
    data: unknown;
  }[];

/** Polls `read` until it answers `want`, for at most a second (the shop's promise), and answers what it saw last. */
async function withinASecond<T>(read: () => Promise<T>, want: T): Promise<T> {
  const started = Date.now();
  let seen = await read();
  while (seen !== want && Date.now() - started < 1000) {
    await new Promise((r) => setTimeout(r, 20));
    seen = await read();
  }
  return seen;
}

describe('cached storefront pages', () => {
  it('answers each page in the encoding asked for, the same page every time, with an ETag and 304', async () => {
    const plain = await get('/faq');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.vary).toBe('Accept-Encoding, Cookie');

    const br = await get('/faq', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await get('/faq', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect((await get('/faq', { 'accept-encoding': 'identity, *;q=0' })).headers['content-encoding']).toBeUndefined();
    expect(br.headers.etag).toBe(etag);

    const again = await get('/faq', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A campaign tag or cache-buster gets the same page; the shop's own filters do not.
    expect((await get('/faq?utm_source=mail&x=1')).headers.etag).toBe(etag);
    const all = await get('/products');
    const cloths = await get('/products?category=cleaning-cloths&utm_campaign=x');
    expect(cloths.headers.etag).not.toBe(all.headers.etag);
    expect((await get('/products?utm_campaign=y&category=cleaning-cloths')).headers.etag).toBe(cloths.headers.etag);
  });

  it('keeps one page per version a link names (the server draws it: decision 0043), whatever else the link carries', async () => {
    const product = await createProduct(t.db, { name: 'Two-Way Cleaner', priceCents: 1200 });
    const other = await createVariant(t.db, product.id, { options: ['1 L'], priceCents: 2000 });
    const path = `/products/${product.id}`;
    const a = await get(`${path}?variant=var_${product.id}`);
    const b = await get(`${path}?variant=${other}&utm_source=mail`);
    expect(a.statusCode).toBe(200);
    expect(a.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(b.headers.etag).not.toBe(a.headers.etag);
    expect((await get(`${path}?utm_source=x&variant=${other}`)).headers.etag).toBe(b.headers.etag);
    expect((await get(`${path}?variant=${other}`, { 'if-none-match': b.headers.etag as string })).statusCode).toBe(304);
  });

  it('keeps the page until the shop changes: a write behind its back is not seen, a back-office write is at once', async () => {
    const product = seedProducts[0]!;
    const path = `/products/${product.id}`;
    const before = await get(path);
    // Changed in the database alone: the kept page still answers (proof it is not rendered again).
    await t.db.updateTable('products').set({ name: 'Quietly Renamed' }).where('id', '=', product.id).execute();
    expect((await get(path)).body).toBe(before.body);
    await noteShopChange(t.db);
    expect((await get(path)).body).toContain('Quietly Renamed');

    // Through the back office: the next load shows the new price.
    const row = await t.db.selectFrom('products').selectAll().where('id', '=', product.id).executeTakeFirstOrThrow();
    const res = await admin.request('PUT', `/api/admin/products/${product.id}`, {
      name: row.name,
      description: row.description,
      priceCents: row.price_cents + 100,
      category: row.category_id,
      featured: Boolean(row.featured),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(path)).body).toContain(`"price":"${((row.price_cents + 100) / 100).toFixed(2)}"`);
  });

  it('shows units taken by a checkout, and given back, within a second', async () => {
    const product = seedProducts[1]!;
    const path = `/products/${product.id}`;
    const stock = async () => {
      const entry = dataOf((await get(path)).body).find((d) => d.key[0] === 'products' && d.key[1] === 'detail');
      return (entry?.data as { product: { inventory: number } }).product.inventory;
    };
    const before = await stock();
    /** Polls until the page shows `units` in stock; fails after a second. */
    const showsStock = async (units: number) => expect(await withinASecond(stock, units)).toBe(units);
    const shopper = new TestClient(t.app, '10.9.0.1');
    const res = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: product.id, quantity: 3 }],
      customerEmail: 'cache@example.com',
      shippingAddress: { name: 'Cache Shopper', address: '1 Main St', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await showsStock(before - 3);
    // The shopper cancels on the card page: the units come back.
    const { url } = res.json() as { url: string };
    const cancel = await shopper.post(`${new URL(url, 'http://shop.test').pathname}/cancel`, new URLSearchParams());
    expect(cancel.statusCode, `${url}: ${cancel.body}`).toBe(303);
    expect(
      await t.db
        .selectFrom('stock_reservations')
        .select('order_id')
        .where('product_id', '=', product.id)
        .where('released_at', 'is', null)
        .execute(),
    ).toEqual([]);
    await showsStock(before);
  });

  it('gives the first visitor after a quiet while the page as it is now, not as it was at the change', async () => {
    const product = seedProducts[2]!;
    const path = `/products/${product.id}`;
    const stock = async () => {
      const entry = dataOf((await get(path)).body).find((d) => d.key[0] === 'products' && d.key[1] === 'detail');
      return (entry?.data as { product: { inventory: number } }).product.inventory;
    };
    const before = await stock();
    const res = await new TestClient(t.app, '10.9.0.2').post('/api/create-checkout-session', {
      items: [{ productId: product.id, quantity: 2 }],
      customerEmail: 'quiet@example.com',
      shippingAddress: { name: 'Quiet Shopper', address: '1 Main St', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Nobody asks for the page for a while after the change (the watcher has long seen it).
    await new Promise((r) => setTimeout(r, STOCK_STALE_MS + 1000));
    // The first request after that is answered the new drawing, not the page kept from before.
    expect(await stock()).toBe(before - 2);
  });

  it('a stock change drops only the pages showing that product: its page and the lists holding it, not the others', async () => {
    const sold = seedProducts[1]!;
    // A product whose page does not show the sold one (not among its "You may also like").
    let other: (typeof seedProducts)[number] | undefined;
    for (const p of seedProducts.slice(2)) {
      if (!(await get(`/products/${p.id}`)).body.includes(`"${sold.id}"`)) {
        other = p;
        break;
      }
    }
    if (!other) throw new Error('every product page shows the sold one');
    const pages = {
      sold: `/products/${sold.id}`,
      other: `/products/${other.id}`,
      list: '/products?search=' + encodeURIComponent(sold.name),
    };
    for (const path of Object.values(pages)) expect((await get(path)).statusCode, path).toBe(200);
    const listed = async () => {
      const entries = dataOf((await get(pages.list)).body).map((e) => e.data as { items?: { id: string; inventory: number }[] });
      return entries.flatMap((d) => d.items ?? []).find((i) => i.id === sold.id)?.inventory;
    };
    const before = await listed();
    expect(before).toBeGreaterThan(0);
    // Renamed behind the shop's back: a kept page still shows the old name, a page drawn again the new one.
    for (const p of [sold, other])
      await t.db
        .updateTable('products')
        .set({ name: `${p.name} (renamed)` })
        .where('id', '=', p.id)
        .execute();
    const shopper = new TestClient(t.app, '10.9.0.3');
    const res = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: sold.id, quantity: 1 }],
      customerEmail: 'per-product@example.com',
      shippingAddress: { name: 'Cache Shopper', address: '1 Main St', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await checkShopChanges(t.db);
    // The sold product's page and the list holding it are drawn again within a second (answered as
    // they were for a moment, while one request draws them); the other product's page is kept.
    expect(await withinASecond(async () => (await get(pages.sold)).body.includes(`${sold.name} (renamed)`), true)).toBe(true);
    expect(await withinASecond(listed, before! - 1)).toBe(before! - 1);
    expect((await get(pages.other)).body).not.toContain(`${other.name} (renamed)`);
    for (const p of [sold, other]) await t.db.updateTable('products').set({ name: p.name }).where('id', '=', p.id).execute();
    await noteShopChange(t.db);
  });

  it('gives a signed-in visitor the kept page with their session beside it, gzipped from the kept blocks', async () => {
    const anon = await get('/about');
    const c = new TestClient(t.app, '10.9.0.2');
    await c.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const plain = await c.get('/about', { accept: 'text/html' });
    expect(plain.headers['cache-control']).toBe('private, no-cache');
    expect(plain.headers.etag).toBeUndefined();
    const viewer = `<script id="__VIEWER_SESSION__" type="application/json">`;
    expect(plain.body).toContain(viewer);
    // Exactly the shared page with the session script put in after the data.
    const at = plain.body.indexOf(viewer);
    const end = plain.body.indexOf('</script>', at) + '</script>'.length;
    expect(plain.body.slice(0, at) + plain.body.slice(end)).toBe(anon.body);
    const session = JSON.parse(plain.body.slice(at + viewer.length, end - '</script>'.length)) as { user: { email: string } };
    expect(session.user.email).toBe(DEMO_CUSTOMER.email);

    const gz = await c.get('/about', { accept: 'text/html', 'accept-encoding': 'gzip, br' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('answers 50 requests at once after a change with one page, and reads a path however it is spelled', async () => {
    await noteShopChange(t.db);
    const answers = await Promise.all(Array.from({ length: 50 }, () => get('/faq')));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    const etag = answers[0]!.headers.etag;
    for (const spelled of ['/f%61q', '/%66aq', '/fa%71', '/%66%61%71']) {
      const res = await get(spelled);
      expect(res.statusCode, spelled).toBe(200);
      expect(res.headers.etag, spelled).toBe(etag);
    }
  });

  it('sends an empty checkout to the cart, and never keeps private pages', async () => {
    const empty = await get('/checkout');
    expect(empty.statusCode).toBe(302);
    expect(empty.headers.location).toBe('/cart');
    for (const path of ['/cart', '/auth', '/dashboard', '/orders']) {
      const res = await get(path);
      expect(res.headers.etag, path).toBeUndefined();
    }
  });
});
