import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { TestS3Server } from '../test/s3-server.js';
import { png, uploadAsAdmin } from '../test/images.js';
import { makePaidOrder, reviewFields, sendReview, type TestReviewFile } from '../test/reviews.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { noteShopChange } from '../http/shop-changes.js';
import { IMAGE_VARIANT_WIDTHS, imageVariantPath } from '../../shared/image-variants.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import type { MyReview } from '../../shared/reviews.js';
import { backfillImageVariants } from '../catalog/image-variants.js';
import { S3FileStore } from './s3-store.js';
import { openDatabase } from '../db/database.js';
import { sql } from 'kysely';

/**
 * Uploaded images in a bucket (decision 0062), against a real S3-compatible server of the test's
 * own (s3rver): what the back office uploads lands in the bucket with its sizes, the shop serves it
 * from there with a year's cache and 304s, review photos dropped leave the bucket, a bucket that
 * does not answer costs an upload a clear 503 and never a page, two shops on one bucket serve each
 * other's images, and the migration and the backups go through the bucket too.
 */
let s3: TestS3Server;
let t: TestApp;
let admin: TestClient;
const logLines: string[] = [];
/** A test that runs the scripts (each a Node process loading TypeScript, some seconds on a busy machine). */
const SCRIPT_TIMEOUT_MS = 90_000;

beforeAll(async () => {
  s3 = await TestS3Server.start();
  t = await createTestApp({ env: s3.env({ LOG_LEVEL: 'warn' }), logStream: { write: (line) => void logLines.push(line) } });
  admin = new TestClient(t.app);
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const keyOf = (url: string) => url.replace(/^\/uploads\//, '');
const noise = (width: number, height: number) => sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
const photo = (width: number, height: number) => noise(width, height).jpeg({ quality: 60 }).toBuffer();
/** A PNG whose pixels decode (test/images.ts's `png` has headers only), so it gets its variants. */
const picture = (width: number, height: number) => noise(width, height).png().toBuffer();
const upload = (content: Buffer, kind = 'products', type = 'image/jpeg') => uploadAsAdmin(t.app, admin.cookies, content, { kind, type });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const page = (app: TestApp, url: string) => app.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const missingImages = (body: string) =>
  ((
    JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(body)![1]!) as {
      key: unknown[];
      data: unknown;
    }[]
  ).find((e) => e.key[0] === 'missing-images')?.data ?? []) as string[];

/** An image the bucket holds: the first one uploaded in this file. */
let url = '';

describe(`images in object storage on ${testDialect()}`, () => {
  it('an admin upload lands in the bucket with every size variant, and nothing on the local disk', async () => {
    const res = await upload(await photo(1400, 1000));
    expect(res.statusCode, res.body).toBe(201);
    url = res.json<{ url: string }>().url;
    expect(url).toMatch(/^\/uploads\/products\/[a-z0-9]+-[A-Za-z0-9]+\.jpg$/);
    expect(await s3.head(keyOf(url))).toMatchObject({ type: 'image/jpeg' });
    for (const width of IMAGE_VARIANT_WIDTHS) {
      expect(await s3.head(keyOf(imageVariantPath(url, width, 'webp'))), `${width} webp`).toMatchObject({ type: 'image/webp' });
      expect(await s3.head(keyOf(imageVariantPath(url, width))), `${width} jpeg`).toMatchObject({ type: 'image/jpeg' });
    }
    expect(fs.existsSync(path.join(t.config.uploadDir, 'products'))).toBe(false);
  });

  it('serves /uploads/… from the bucket with its type, a year’s cache and an ETag, and 304 for a copy that is current', async () => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const stored = await s3.head(keyOf(url));
    expect(res.headers.etag).toBe(stored!.etag);
    expect(res.rawPayload.length).toBe(stored!.size);
    expect(res.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(res.headers['last-modified']).toBeTruthy();

    const again = await get(url, { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const webp = await get(imageVariantPath(url, 640, 'webp'));
    expect(webp.statusCode).toBe(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.rawPayload).metadata()).width).toBe(640);

    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(head.rawPayload.length).toBe(0);
  });

  it('a missing object is 404, whatever the spelling, and a page showing it is 200 and says the image is missing', async () => {
    for (const missing of ['/uploads/products/nothing-here.jpg', '/uploads/products/..%2f..%2fpackage.json', '/uploads/%2e%2e/x.png']) {
      expect((await get(missing)).statusCode, missing).toBe(404);
    }
    // An object lost from the bucket (removed by hand): the product page still renders, naming it.
    const lost = await upload(await picture(40, 30), 'products', 'image/png');
    const lostUrl = lost.json<{ url: string }>().url;
    await s3.remove(keyOf(lostUrl));
    const p = await createProduct(t.db, { name: 'Bucket Brush', images: [lostUrl, url] });
    await noteShopChange(t.db);
    expect((await get(lostUrl)).statusCode).toBe(404);
    const res = await page(t, `/products/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(missingImages(res.body)).toEqual([lostUrl]);
  });

  it('review photos an edit drops are removed from the bucket with their variants; photos of a failed write are never left', async () => {
    const p = await createProduct(t.db, { name: 'Reviewed Cloth', priceCents: 1500, inventory: 50 });
    const user = await createUser(t.db, { fullName: 'Jane Bucket' });
    const client = new TestClient(t.app, '10.62.0.1');
    expect((await client.signIn(user.email, user.password)).statusCode).toBe(200);
    await makePaidOrder(t, { userId: user.id, productId: p.id });
    const file = (content: Buffer, type: string): TestReviewFile => ({ content, type, filename: 'p.jpg' });
    const send = (method: 'POST' | 'PUT', to: string, fields: Record<string, string | undefined>, files: TestReviewFile[]) =>
      sendReview(t.app, { method, url: to, fields: { ...reviewFields(), ...fields }, files, cookies: client.cookies, ip: '10.62.0.1' });

    const res = await send('POST', `/api/account/reviews/product/${p.id}`, {}, [
      file(await photo(700, 500), 'image/jpeg'),
      file(await picture(32, 24), 'image/png'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const review = res.json<{ review: MyReview }>().review;
    const [drop, keep] = review.photos.map((x) => x.url);
    const dropKeys = [
      keyOf(drop!),
      ...IMAGE_VARIANT_WIDTHS.flatMap((w) => [imageVariantPath(drop!, w, 'webp'), imageVariantPath(drop!, w)].map(keyOf)),
    ];
    for (const key of dropKeys) expect(await s3.head(key), key).not.toBeNull();
    expect((await get(drop!)).statusCode).toBe(200);

    const edited = await send('PUT', `/api/account/reviews/${review.id}`, { keepPhotos: JSON.stringify([keep]) }, []);
    expect(edited.statusCode, edited.body).toBe(200);
    for (const key of dropKeys) expect(await s3.head(key), key).toBeNull();
    expect(await s3.head(keyOf(keep!))).not.toBeNull();
    expect((await get(drop!)).statusCode).toBe(404);

    // A write refused after its photos were stored (a second review of the same product) leaves none behind.
    const before = await s3.keys('reviews/');
    const refused = await send('POST', `/api/account/reviews/product/${p.id}`, {}, [file(await picture(20, 20), 'image/png')]);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await s3.keys('reviews/')).toEqual(before);
  });

  it('a second shop process with its own UPLOAD_DIR on the same bucket serves the first one’s images, and the other way round', async () => {
    const other = await createTestApp({ env: s3.env() });
    try {
      expect(other.config.uploadDir).not.toBe(t.config.uploadDir);
      const there = await other.app.inject({ method: 'GET', url });
      expect(there.statusCode).toBe(200);
      expect(there.headers.etag).toBe((await get(url)).headers.etag);

      const otherAdmin = new TestClient(other.app);
      await otherAdmin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
      const made = await uploadAsAdmin(other.app, otherAdmin.cookies, await picture(24, 24), { kind: 'content', type: 'image/png' });
      expect(made.statusCode).toBe(201);
      const fresh = made.json<{ url: string }>().url;
      expect((await get(fresh)).statusCode).toBe(200);
      // A page of this process naming it finds it, though this process never stored it.
      const p = await createProduct(t.db, { name: 'Shared Sponge', images: [fresh] });
      expect(missingImages((await page(t, `/products/${p.id}`)).body)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('with S3_PUBLIC_URL, /uploads/… sends the browser to the public address; what rows hold is unchanged', async () => {
    const cdn = await createTestApp({ env: s3.env({ S3_PUBLIC_URL: 'https://images.example.com/' }) });
    try {
      const res = await cdn.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`https://images.example.com/${keyOf(url)}`);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect((await cdn.app.inject({ method: 'GET', url: '/uploads/products/..%2f..%2fx.jpg' })).statusCode).toBe(404);
    } finally {
      await cdn.close();
    }
  });

  it('the variant backfill lists the bucket a page at a time and makes only what is missing', async () => {
    const paged = new S3FileStore(
      {
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
      { pageSize: 3 },
    );
    try {
      await s3.put('categories/older-photo.jpg', await photo(900, 600), 'image/jpeg');
      await s3.remove(keyOf(imageVariantPath(url, 960, 'webp')));
      const logged: string[] = [];
      expect(await backfillImageVariants(paged, (m) => logged.push(m))).toBe(IMAGE_VARIANT_WIDTHS.length * 2 + 1);
      expect(logged).toEqual([]);
      expect(await s3.head(keyOf(imageVariantPath(url, 960, 'webp')))).not.toBeNull();
      expect(await s3.head('categories/older-photo-w320.webp')).not.toBeNull();
      expect(await backfillImageVariants(paged)).toBe(0);
    } finally {
      paged.close();
    }
  });

  describe('when the bucket does not answer', () => {
    let productId = '';
    beforeAll(async () => {
      productId = (await createProduct(t.db, { name: 'Offline Mop', images: [url] })).id;
      await noteShopChange(t.db);
      await s3.stop();
    });
    afterAll(async () => {
      await s3.start();
    });

    it('an admin upload answers 503 with a sentence the owner can act on, and the cause is logged', async () => {
      logLines.length = 0;
      const res = await upload(png(16, 16), 'products', 'image/png');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: ADMIN_MESSAGES.imageStorageDown });
      expect(res.headers['retry-after']).toBe('60');
      expect(res.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|s3/i);
      const logged = logLines.join('\n');
      expect(logged).toContain('file storage failed');
      expect(logged).toContain('ECONNREFUSED');
    });

    it('pages still render 200; the image itself answers 502 without internals', async () => {
      for (const at of ['/', `/products/${productId}`, '/products']) {
        const res = await page(t, at);
        expect(res.statusCode, at).toBe(200);
      }
      // A page drawn now does not mark the image missing: it is unknown, not gone.
      await noteShopChange(t.db);
      expect(missingImages((await page(t, `/products/${productId}`)).body)).toEqual([]);
      const img = await get(url);
      expect(img.statusCode).toBe(502);
      expect(img.headers['cache-control']).toBe('no-store');
      expect(img.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    });
  });

  it('works again once the bucket is back', async () => {
    const res = await upload(png(12, 12), 'products', 'image/png');
    expect(res.statusCode, res.body).toBe(201);
    expect((await get(res.json<{ url: string }>().url)).statusCode).toBe(200);
  });
  it('a bucket that refuses the shop (no such bucket) answers 503 with the sentence naming the settings', async () => {
    const wrong = await createTestApp({ env: s3.env({ S3_BUCKET: 'no-such-bucket' }) });
    try {
      const owner = new TestClient(wrong.app);
      await owner.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
      const res = await uploadAsAdmin(wrong.app, owner.cookies, png(8, 8), { kind: 'products', type: 'image/png' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: ADMIN_MESSAGES.imageStorageRefused });
      expect((await page(wrong, '/')).statusCode).toBe(200);
    } finally {
      await wrong.close();
    }
  });
});

describe('npm run uploads:migrate', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate-uploads.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: t.config.databaseUrl,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...env,
      },
      encoding: 'utf8',
    });
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-migrate-'));
    fs.mkdirSync(path.join(dir, 'products'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'reviews'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'products', 'old-one.png'), png(10, 10));
    fs.writeFileSync(path.join(dir, 'products', 'old-one-w320.webp'), Buffer.from('webp'));
    fs.writeFileSync(path.join(dir, 'reviews', 'old-two.png'), png(11, 11));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(
    'copies the local uploads into the bucket; run again it copies none; a changed file is copied again',
    async () => {
      const first = run(s3.env({ UPLOAD_DIR: dir }));
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/copied\s+3 files/);
      expect(first.stdout).toMatch(/skipped\s+0 files/);
      expect(await s3.head('products/old-one.png')).toMatchObject({ type: 'image/png', size: png(10, 10).length });
      expect(await s3.head('products/old-one-w320.webp')).toMatchObject({ type: 'image/webp' });
      expect(await s3.head('reviews/old-two.png')).not.toBeNull();
      expect((await get('/uploads/reviews/old-two.png')).statusCode).toBe(200);

      const second = run(s3.env({ UPLOAD_DIR: dir }));
      expect(second.status, second.stderr).toBe(0);
      expect(second.stdout).toMatch(/copied\s+0 files/);
      expect(second.stdout).toMatch(/skipped\s+3 files/);

      // Same size, other bytes: the bucket's ETag (the MD5) tells them apart.
      const changed = png(11, 11);
      changed[changed.length - 5] = changed[changed.length - 5]! ^ 0xff;
      fs.writeFileSync(path.join(dir, 'reviews', 'old-two.png'), changed);
      const third = run(s3.env({ UPLOAD_DIR: dir }));
      expect(third.status, third.stderr).toBe(0);
      expect(third.stdout).toMatch(/copied\s+1 files/);
    },
    SCRIPT_TIMEOUT_MS,
  );

  it(
    'fails with a sentence, and a non-zero exit, when the bucket does not answer or the store is not a bucket',
    async () => {
      const local = run({ UPLOAD_DIR: dir, FILE_STORE: 'local' });
      expect(local.status).not.toBe(0);
      expect(local.stderr).toContain('FILE_STORE is not s3');

      const noBucket = run({ UPLOAD_DIR: dir, FILE_STORE: 's3' });
      expect(noBucket.status).not.toBe(0);
      expect(noBucket.stderr).toContain('S3_BUCKET: must be set when FILE_STORE=s3');

      await s3.stop();
      try {
        const down = run(s3.env({ UPLOAD_DIR: dir }));
        expect(down.status).not.toBe(0);
        expect(down.stderr).toContain('The bucket cannot be read');
        expect(down.stderr).toContain('Nothing was copied');
      } finally {
        await s3.start();
      }
    },
    SCRIPT_TIMEOUT_MS,
  );
});

describe('backups with a bucket', () => {
  it(
    'npm run backup copies the bucket’s objects into the backup, and restore puts back one that was lost',
    async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bucket-backup-'));
      const script = (name: string, args: string[], env: Record<string, string>) =>
        spawnSync(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
          env: { ...process.env, NODE_ENV: 'test', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...s3.env(), ...env },
          encoding: 'utf8',
        });
      try {
        const keys = await s3.keys();
        const folder = path.join(root, 'b1');
        const backup = script('backup', [folder], { DATABASE_URL: t.config.databaseUrl, UPLOAD_DIR: path.join(root, 'unused') });
        expect(backup.status, backup.stderr).toBe(0);
        expect(backup.stdout).toContain(`bucket ${s3.bucket}`);
        const copied = fs
          .readdirSync(path.join(folder, 'uploads'), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.relative(path.join(folder, 'uploads'), path.join(e.parentPath, e.name)).split(path.sep).join('/'))
          .sort();
        expect(copied).toEqual([...keys].sort());

        // An object lost from the bucket comes back with the restore (into a fresh database).
        await s3.remove(keyOf(url));
        const schema = `r_${crypto.randomBytes(6).toString('hex')}`;
        const target =
          testDialect() === 'sqlite'
            ? `sqlite:${path.join(root, 'restored.db')}`
            : t.config.databaseUrl.replace(/schema=[a-z0-9_]+/, `schema=${schema}`);
        try {
          const restore = script('restore', [folder], { DATABASE_URL: target, UPLOAD_DIR: path.join(root, 'unused') });
          expect(restore.status, restore.stderr + restore.stdout).toBe(0);
          expect(restore.stdout).toMatch(/uploads .*: 1 files/);
          expect(await s3.head(keyOf(url))).not.toBeNull();
        } finally {
          if (testDialect() === 'postgres') {
            const { db, close } = openDatabase(t.config.databaseUrl);
            await sql.raw(`drop schema if exists ${schema} cascade`).execute(db);
            await close();
          }
        }
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
    SCRIPT_TIMEOUT_MS,
  );
});
