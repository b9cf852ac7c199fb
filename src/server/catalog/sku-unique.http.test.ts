import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { SKU_MAX_LENGTH, SKU_MESSAGES } from '../../shared/schemas/admin/products.js';

/**
 * One SKU, one stocked item (decision 0037): the product form (create and edit) and the variants
 * editor refuse a SKU another product's item holds, whatever its case or surrounding spaces, with
 * a 409 naming the SKU and its holder; the database's unique index decides simultaneous saves.
 */
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.81.0.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

const newProduct = (body: Record<string, unknown>) =>
  admin.post('/api/admin/products', { description: 'Made by the SKU test', priceCents: 900, inventory: 3, ...body });
const editProduct = (id: string, body: Record<string, unknown>) =>
  admin.request('PUT', `/api/admin/products/${id}`, { description: 'Made by the SKU test', priceCents: 900, ...body });
const putSet = (productId: string, body: unknown) => admin.request('PUT', `/api/admin/products/${productId}/variants`, body);
/** Every variant holding the SKU, as the database compares them. */
const holders = async (sku: string) =>
  (
    await t.db
      .selectFrom('product_variants')
      .select(['id', 'product_id', 'sku'])
      .where(sql<string>`lower(trim(sku))`, '=', sku.trim().toLowerCase())
      .orderBy('id')
      .execute()
  ).map((v) => ({ productId: v.product_id, sku: v.sku }));

/** A product with options whose Lavender / 32 oz variant holds `sku`. */
async function cleanerHolding(sku: string, name: string) {
  const p = await createProduct(t.db, { name, priceCents: 1499, inventory: 5 });
  const res = await putSet(p.id, {
    options: [
      { name: 'Scent', values: ['Lavender'] },
      { name: 'Size', values: ['16 oz', '32 oz'] },
    ],
    variants: [
      { id: `var_${p.id}`, options: ['Lavender', '16 oz'], sku: `${sku}-16`, priceCents: 1499, enabled: true },
      { options: ['Lavender', '32 oz'], sku, priceCents: 2499, enabled: true, openingStock: 4 },
    ],
  });
  expect(res.statusCode, res.body).toBe(200);
  return p;
}

describe(`one SKU, one stocked item, on ${testDialect()}`, () => {
  it("refuses a new product with another product's SKU, in another case and with spaces around it, and creates nothing", async () => {
    await cleanerHolding('QZ-CL-LAV-032', 'Concentrated Cleaner');
    const before = await holders('QZ-CL-LAV-032');

    const res = await newProduct({ name: 'Copycat Cleaner', sku: '  qz-cl-lav-032 ' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe(SKU_MESSAGES.inUse('qz-cl-lav-032', 'Concentrated Cleaner — Lavender, 32 oz'));
    expect(await t.db.selectFrom('products').select('id').where('name', '=', 'Copycat Cleaner').execute()).toEqual([]);
    expect(await holders('QZ-CL-LAV-032')).toEqual(before);

    // A plain product's SKU is its one variant's: refused the same way, named by the product alone.
    const plain = await newProduct({ name: 'Plain Brush', sku: 'BR-100' });
    expect(plain.statusCode, plain.body).toBe(201);
    const again = await newProduct({ name: 'Second Brush', sku: 'br-100' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SKU_MESSAGES.inUse('br-100', 'Plain Brush'));
    // A product without a SKU is no clash with anything.
    expect((await newProduct({ name: 'Nameless Brush', sku: '' })).statusCode).toBe(201);
    expect((await newProduct({ name: 'Nameless Brush 2', sku: '   ' })).statusCode).toBe(201);
  });

  it("refuses an edit that takes another product's SKU; keeping or re-casing its own SKU is no clash", async () => {
    const holder = await newProduct({ name: 'Bamboo Brush', sku: 'BB-7' });
    expect(holder.statusCode, holder.body).toBe(201);
    const other = await newProduct({ name: 'Coconut Brush', sku: 'CB-7' });
    const otherId = (other.json() as { product: { id: string } }).product.id;

    const res = await editProduct(otherId, { name: 'Coconut Brush', sku: ' bb-7  ' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe(SKU_MESSAGES.inUse('bb-7', 'Bamboo Brush'));
    expect(await holders('CB-7')).toEqual([{ productId: otherId, sku: 'CB-7' }]);
    const row = await t.db.selectFrom('products').select('sku').where('id', '=', otherId).executeTakeFirstOrThrow();
    expect(row.sku).toBe('CB-7');

    // Its own SKU, shown on the product row and on its own variant, is one item: saving it again, or in another case, is fine.
    expect((await editProduct(otherId, { name: 'Coconut Brush Deluxe', sku: 'CB-7' })).statusCode).toBe(200);
    const recased = await editProduct(otherId, { name: 'Coconut Brush Deluxe', sku: ' cb-7 ' });
    expect(recased.statusCode, recased.body).toBe(200);
    expect(await holders('CB-7')).toEqual([{ productId: otherId, sku: 'cb-7' }]);
  });

  it('lets a product swap SKUs between its own variants, and refuses one of another product in the variants editor', async () => {
    const p = await createProduct(t.db, { name: 'Swap Mitt', priceCents: 500, inventory: 2 });
    const first = await putSet(p.id, {
      options: [{ name: 'Hand', values: ['Left', 'Right'] }],
      variants: [
        { id: `var_${p.id}`, options: ['Left'], sku: 'MITT-L', priceCents: 500, enabled: true },
        { options: ['Right'], sku: 'MITT-R', priceCents: 500, enabled: true },
      ],
    });
    expect(first.statusCode, first.body).toBe(200);
    const right = (first.json() as { variants: { id: string; sku: string }[] }).variants.find((v) => v.sku === 'MITT-R')!.id;
    const swapped = await putSet(p.id, {
      options: [{ name: 'Hand', values: ['Left', 'Right'] }],
      variants: [
        { id: `var_${p.id}`, options: ['Left'], sku: 'MITT-R', priceCents: 500, enabled: true },
        { id: right, options: ['Right'], sku: 'mitt-l', priceCents: 500, enabled: true },
      ],
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(await holders('MITT-R')).toEqual([{ productId: p.id, sku: 'MITT-R' }]);

    const taker = await createProduct(t.db, { name: 'Taker Mitt', priceCents: 500, inventory: 2 });
    const res = await putSet(taker.id, {
      options: [],
      variants: [{ id: `var_${taker.id}`, options: [], sku: ' Mitt-R ', priceCents: 500, enabled: true }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(SKU_MESSAGES.inUse('Mitt-R', 'Swap Mitt — Left'));
  });

  it('holds one length limit, with its own message, in the product form, the variants editor and the database', async () => {
    const longest = 'L'.repeat(SKU_MAX_LENGTH);
    const tooLong = `${longest}X`;
    const refused = await newProduct({ name: 'Long Sku', sku: tooLong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe(SKU_MESSAGES.tooLong);
    const p = await newProduct({ name: 'Long Sku', sku: longest });
    expect(p.statusCode, p.body).toBe(201);
    const id = (p.json() as { product: { id: string } }).product.id;
    const set = await putSet(id, {
      options: [],
      variants: [{ id: `var_${id}`, options: [], sku: `${tooLong}`, priceCents: 900, enabled: true }],
    });
    expect(set.statusCode).toBe(400);
    expect(set.json().error).toBe(`variants.0.sku: ${SKU_MESSAGES.tooLong}`);
    // The database holds the same line against any other writer.
    await expect(t.db.updateTable('product_variants').set({ sku: tooLong }).where('id', '=', `var_${id}`).execute()).rejects.toThrow();
    await expect(t.db.updateTable('products').set({ sku: tooLong }).where('id', '=', id).execute()).rejects.toThrow();
  });

  it('refuses in the database a second variant with the SKU, whatever its case and spaces, from any writer', async () => {
    const p = await newProduct({ name: 'Index Sponge', sku: 'IDX-1' });
    const other = await createProduct(t.db, { name: 'Other Sponge', priceCents: 400, inventory: 1 });
    expect(p.statusCode).toBe(201);
    await expect(
      t.db.updateTable('product_variants').set({ sku: ' idx-1 ' }).where('id', '=', `var_${other.id}`).execute(),
    ).rejects.toThrow();
    expect(await holders('IDX-1')).toHaveLength(1);
  });

  it('gives a SKU claimed by ten simultaneous saves of ten products to exactly one; the nine others answer 409 naming it', async () => {
    const products = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createProduct(t.db, { name: `Race Cloth ${i}`, priceCents: 300 + i, inventory: 1 })),
    );
    const answers = await Promise.all(
      products.map((p, i) =>
        putSet(p.id, {
          options: [{ name: 'Colour', values: ['Green', 'Blue'] }],
          variants: [
            { id: `var_${p.id}`, options: ['Green'], sku: `RACE-OWN-${i}`, priceCents: 300 + i, enabled: true },
            { options: ['Blue'], sku: i % 2 === 0 ? 'RACE-1' : ' race-1 ', priceCents: 300 + i, enabled: true, openingStock: 2 },
          ],
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(
      codes.filter((c) => c === 200),
      JSON.stringify(answers.map((a) => a.body)),
    ).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    const winner = products[codes.indexOf(200)]!;
    for (const [i, a] of answers.entries()) {
      if (a.statusCode !== 409) continue;
      expect(a.json().error).toBe(SKU_MESSAGES.inUse(i % 2 === 0 ? 'RACE-1' : 'race-1', `${winner.name} — Blue`));
    }
    expect((await holders('RACE-1')).map((h) => h.productId)).toEqual([winner.id]);
    // A refused save changed nothing of its product.
    const loser = products.find((p) => p.id !== winner.id)!;
    expect(await t.db.selectFrom('product_variants').select('id').where('product_id', '=', loser.id).execute()).toHaveLength(1);
  });

  it('gives a SKU claimed by ten simultaneous saves of two products to one product; every save of the other answers 409', async () => {
    const [a, b] = await Promise.all([
      createProduct(t.db, { name: 'Duel Tea Towel', priceCents: 700, inventory: 1 }),
      createProduct(t.db, { name: 'Duel Dish Towel', priceCents: 800, inventory: 1 }),
    ]);
    const save = (p: { id: string; priceCents: number }, n: number) =>
      putSet(p.id, {
        options: [],
        variants: [{ id: `var_${p.id}`, options: [], sku: n % 2 ? 'DUEL-9' : 'duel-9 ', priceCents: p.priceCents + n, enabled: true }],
      });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => save(n % 2 ? b! : a!, n)));
    expect(
      answers.every((r) => r.statusCode === 200 || r.statusCode === 409),
      JSON.stringify(answers.map((r) => r.body)),
    ).toBe(true);
    const byProduct = (p: { id: string }) => answers.filter((_, n) => (n % 2 ? b! : a!).id === p.id).map((r) => r.statusCode);
    const [held] = await holders('DUEL-9');
    expect(await holders('DUEL-9')).toHaveLength(1);
    const [winner, loser] = held!.productId === a!.id ? [a!, b!] : [b!, a!];
    expect(byProduct(winner)).toEqual([200, 200, 200, 200, 200]);
    expect(byProduct(loser)).toEqual([409, 409, 409, 409, 409]);
    for (const [n, r] of answers.entries())
      if (r.statusCode === 409) expect(r.json().error).toBe(SKU_MESSAGES.inUse(n % 2 ? 'DUEL-9' : 'duel-9', winner.name));
  });

  it('gives a SKU claimed at once by five new products and five variant saves to exactly one of them', async () => {
    const products = await Promise.all(
      Array.from({ length: 5 }, (_, i) => createProduct(t.db, { name: `Mixed Race Mop ${i}`, priceCents: 900, inventory: 1 })),
    );
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => newProduct({ name: `Mixed Race New ${i}`, sku: i % 2 ? 'MIX-1' : ' mix-1' })),
      ...products.map((p) =>
        putSet(p.id, { options: [], variants: [{ id: `var_${p.id}`, options: [], sku: 'Mix-1', priceCents: 900, enabled: true }] }),
      ),
    ]);
    const codes = answers.map((a) => a.statusCode);
    expect(
      codes.filter((c) => c === 200 || c === 201),
      JSON.stringify(answers.map((a) => a.body)),
    ).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    expect(await holders('MIX-1')).toHaveLength(1);
    const made = await t.db.selectFrom('products').select('id').where('name', 'like', 'Mixed Race New %').execute();
    expect(made).toHaveLength(codes.slice(0, 5).filter((c) => c === 201).length);
  });
});
