import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createTestDatabase, type TestDb } from '../src/server/test/harness.js';
import { TestS3Server } from '../src/server/test/s3-server.js';
import { png } from '../src/server/test/images.js';
import { IMAGE_VARIANT_WIDTHS, imageVariantPath } from '../src/shared/image-variants.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../src/server/db/seed/demo-accounts.js';
import { seedProducts } from '../src/server/db/seed/catalog-data.js';
import { Browserish, startServer, type ServerProcess } from './server-process.js';

/**
 * Two machines (docs/operations.md, "Several machines"): two server processes, each with working
 * folders of its own and no disk in common, on one PostgreSQL and one bucket (an S3-compatible
 * server of the test's own). Started at the same moment on an empty database; then an image
 * uploaded through one is served by the other, a change made through one is seen by the other
 * within a second, and a shopper who starts on one finishes on the other.
 */
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);
const PRODUCT = 'cloth-5-pack';
const ADDRESS = { name: 'Two Machines', address: '2 Rack Row', city: 'Austin', state: 'TX', zip: '78701', country: 'US' };
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Two Machines' };

/** Polls `read` on the other machine until `done` holds; how long it took (at most `withinMs`). */
async function seenWithin<T>(what: string, withinMs: number, read: () => Promise<T>, done: (v: T) => boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (done(await read())) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`${what} not seen by the other machine within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every file under `dir` (the machine's own folders must stay empty: the images are in the bucket). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe.skipIf(!HAS_PG)('two machines: one PostgreSQL, one bucket, no disk in common', () => {
  let s3: TestS3Server;
  let testDb: TestDb;
  let db: Kysely<Database>;
  let closeDb: () => Promise<void>;
  const folders: string[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  let owner: Browserish;

  /** A machine's settings: the shared database and bucket, its own upload and backup folders. */
  const machine = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-machine-${name}-`));
    folders.push(dir);
    return { ...s3.env(), UPLOAD_DIR: path.join(dir, 'uploads'), BACKUP_DIR: path.join(dir, 'backups') };
  };

  beforeAll(async () => {
    s3 = await TestS3Server.start();
    testDb = await createTestDatabase('postgres');
    // Both at once on an empty database, as a first deploy of two machines starts them.
    [a, b] = await Promise.all([startServer(testDb.url, machine('a')), startServer(testDb.url, machine('b'))]);
    const opened = openDatabase(testDb.url);
    db = opened.db;
    closeDb = opened.close;
    owner = new Browserish(a.base);
    expect(await owner.signIn(DEMO_ADMIN)).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await a?.stop('SIGKILL');
    await b?.stop('SIGKILL');
    await closeDb?.();
    await testDb?.drop();
    await s3?.close();
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('started together on an empty database, they migrated and seeded it once', async () => {
    // One process applied the migrations; the other waited for it and found them applied.
    expect([a.output(), b.output()].filter((out) => out.includes('Applied migrations')).length).toBe(1);
    const products = await db.selectFrom('products').select('id').execute();
    expect(products.length).toBe(seedProducts.length);
    const admins = await db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).execute();
    expect(admins).toHaveLength(1);
    for (const out of [a.output(), b.output()]) expect(out).not.toMatch(/duplicate key|unique constraint|"level":50/);
  });

  it('an image uploaded through one machine is served by the other, and neither keeps it on its disk', async () => {
    const image = png(4, 4); // real pixels (a larger one from this helper is a header with a few rows)
    const boundary = `----two-machines-${Date.now()}`;
    const res = await fetch(`${a.base}/api/admin/uploads?kind=products`, {
      method: 'POST',
      headers: {
        origin: a.base,
        cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        image,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(/^\/uploads\/products\//);

    const served = await fetch(`${b.base}${url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    // Its smaller sizes too, made by A into the bucket.
    const sizes = IMAGE_VARIANT_WIDTHS.flatMap((w) => [imageVariantPath(url, w), imageVariantPath(url, w, 'webp')]);
    const inBucket = new Set(await s3.keys('products/'));
    for (const size of sizes) expect(inBucket.has(size.replace(/^\/uploads\//, ''))).toBe(true);
    for (const size of sizes) expect((await fetch(`${b.base}${size}`)).status).toBe(200);

    // Put on a product through B, the storefront of A shows it.
    const product = (await (await fetch(`${a.base}/api/products/${PRODUCT}`)).json()) as { product: { images: string[] } };
    const ownerOnB = new Browserish(b.base);
    ownerOnB.cookies = owner.cookies;
    const current = await db.selectFrom('products').selectAll().where('id', '=', PRODUCT).executeTakeFirstOrThrow();
    const put = await ownerOnB.request('PUT', `/api/admin/products/${PRODUCT}`, {
      name: current.name,
      description: current.description,
      priceCents: current.price_cents,
      category: current.category_id,
      featured: Boolean(current.featured),
      images: [url, ...product.product.images],
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const took = await seenWithin(
      'the new picture',
      1000,
      async () => ((await (await fetch(`${a.base}/api/products/${PRODUCT}`)).json()) as { product: { images: string[] } }).product.images,
      (images) => images[0] === url,
    );
    console.log(`a picture set through B shows on A after ${took} ms`);
    expect(filesUnder(folders[0]!)).toEqual([]);
    expect(filesUnder(folders[1]!)).toEqual([]);
  });

  it('a price, a new product and a stock count changed through one machine are seen by the other within a second', async () => {
    const current = await db.selectFrom('products').selectAll().where('id', '=', PRODUCT).executeTakeFirstOrThrow();
    type Detail = { product: { priceCents: number; inventory: number } };
    const detailOnB = async () => ((await (await fetch(`${b.base}/api/products/${PRODUCT}`)).json()) as Detail).product;
    await detailOnB(); // B has it cached now

    const newPrice = current.price_cents + 101;
    const put = await owner.request('PUT', `/api/admin/products/${PRODUCT}`, {
      name: current.name,
      description: current.description,
      priceCents: newPrice,
      category: current.category_id,
      featured: Boolean(current.featured),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    console.log(`price seen by B after ${await seenWithin('the price', 1000, detailOnB, (p) => p.priceCents === newPrice)} ms`);
    const pageShows = (text: string) => async () =>
      (await (await fetch(`${b.base}/products/${PRODUCT}`, { headers: { accept: 'text/html' } })).text()).includes(text);
    expect(await pageShows(`"price":"${(newPrice / 100).toFixed(2)}"`)()).toBe(true);

    const stock = await owner.request('POST', `/api/admin/products/${PRODUCT}/stock`, { reason: 'counted', quantity: 37 });
    expect(stock.status, await stock.clone().text()).toBe(200);
    console.log(`stock count seen by B after ${await seenWithin('the stock count', 1000, detailOnB, (p) => p.inventory === 37)} ms`);

    const name = `Two-machine sponge ${Date.now()}`;
    const created = await owner.request('POST', '/api/admin/products', {
      name,
      description: 'A sponge made on one machine and sold on the other.',
      priceCents: 499,
      category: current.category_id,
      featured: false,
      inventory: 5,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const listed = async () =>
      (
        (await (await fetch(`${b.base}/api/products?search=${encodeURIComponent('Two-machine sponge')}`)).json()) as {
          items: { name: string }[];
        }
      ).items;
    console.log(
      `new product listed by B after ${await seenWithin('the new product', 1000, listed, (items) => items.some((p) => p.name === name))} ms`,
    );
  });

  it('a shopper who signs in, fills the cart and starts the checkout on one machine pays and reads the order on the other', async () => {
    const shopper = new Browserish(a.base);
    expect(await shopper.signIn(DEMO_CUSTOMER)).toBe(200);
    const cart = { lines: [{ productId: PRODUCT, quantity: 2, size: '', color: '' }], couponCode: null };
    const put = await shopper.request('PUT', '/api/account/cart', cart);
    expect(put.status, await put.clone().text()).toBe(200);

    // The next request lands on B: the session and the cart are there.
    shopper.pointAt(b.base);
    const session = (await (await shopper.request('GET', '/api/session')).json()) as { user: { email: string } | null };
    expect(session.user?.email).toBe(DEMO_CUSTOMER.email);
    const saved = (await (await shopper.request('GET', '/api/account/cart')).json()) as {
      lines: { productId: string; quantity: number }[];
    };
    expect(saved.lines).toMatchObject([{ productId: PRODUCT, quantity: 2 }]);

    // The checkout starts on A, its card page is filled in on B.
    shopper.pointAt(a.base);
    const started = await shopper.request('POST', '/api/create-checkout-session', {
      items: saved.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
      customerEmail: DEMO_CUSTOMER.email,
      shippingAddress: ADDRESS,
    });
    expect(started.status, await started.clone().text()).toBe(200);
    const { sessionId, orderId } = (await started.json()) as { sessionId: string; orderId: string };
    shopper.pointAt(b.base);
    const paid = await shopper.request('POST', `/pay/${sessionId}`, CARD, true);
    expect(paid.status).toBe(303);

    // The order, read on either machine: paid, the shopper's, two units.
    for (const base of [a.base, b.base]) {
      const res = await shopper.pointAt(base).request('GET', `/api/orders/${orderId}`);
      expect(res.status).toBe(200);
      const { order } = (await res.json()) as { order: { paymentStatus: string; items: { productId: string; quantity: number }[] } };
      expect(order.paymentStatus).toBe('paid');
      expect(order.items).toMatchObject([{ productId: PRODUCT, quantity: 2 }]);
    }
    const stock = await db.selectFrom('products').select('inventory').where('id', '=', PRODUCT).executeTakeFirstOrThrow();
    expect(stock.inventory).toBe(35);
  });
});
