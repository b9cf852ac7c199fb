import { describe, expect, it } from 'vitest';
import { testDialect, type TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { BULK_MAX, BULK_MESSAGES } from '../../shared/schemas/bulk.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

type Row = { id: string; name: string; priceCents: number; inventory: number; category: string | null; featured: boolean; sku?: string };
const list = async (query: string) => {
  const res = await admin.get(`/api/admin/products?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Row[]; total: number; totalPages: number };
};

describe(`the Products tab's bulk actions on ${testDialect()}`, () => {
  it('sets and unsets featured, reporting each product (changed, already so, unknown)', async () => {
    const a = await createProduct(t.db, { name: 'Bulk A', featured: false });
    const b = await createProduct(t.db, { name: 'Bulk B', featured: true });
    const res = await admin.post('/api/admin/products/bulk', { action: 'featured', ids: [a.id, b.id, 'prod-none'], featured: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toEqual([
      { id: a.id, label: 'Bulk A', result: 'changed', message: null },
      { id: b.id, label: 'Bulk B', result: 'skipped', message: 'Already featured' },
      { id: 'prod-none', label: null, result: 'not_found', message: BULK_MESSAGES.productNotFound },
    ]);
    const featured = await t.db.selectFrom('products').select(['id', 'featured']).where('id', 'in', [a.id, b.id]).execute();
    expect(featured.every((p) => Number(p.featured) === 1)).toBe(true);

    const off = await admin.post('/api/admin/products/bulk', { action: 'featured', ids: [a.id, b.id], featured: false });
    expect(off.json().results.map((r: { result: string }) => r.result)).toEqual(['changed', 'changed']);
  });

  it('moves products to a category or to none; an unknown category is refused whole', async () => {
    const a = await createProduct(t.db, { name: 'Move A', categoryId: 'mops' });
    const b = await createProduct(t.db, { name: 'Move B', categoryId: 'cleaners' });
    const res = await admin.post('/api/admin/products/bulk', { action: 'category', ids: [a.id, b.id], categoryId: 'cleaners' });
    expect(res.json().results.map((r: { result: string; message: string | null }) => [r.result, r.message])).toEqual([
      ['changed', null],
      ['skipped', BULK_MESSAGES.alreadyCategory],
    ]);
    const none = await admin.post('/api/admin/products/bulk', { action: 'category', ids: [a.id], categoryId: null });
    expect(none.json().results[0].result).toBe('changed');
    expect(
      (await t.db.selectFrom('products').select('category_id').where('id', '=', a.id).executeTakeFirstOrThrow()).category_id,
    ).toBeNull();
    const bad = await admin.post('/api/admin/products/bulk', { action: 'category', ids: [a.id], categoryId: 'no-such' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(ADMIN_MESSAGES.categoryNotFound);
  });

  it('deletes through the single delete, each reported, and refuses bad lists with their own messages', async () => {
    const a = await createProduct(t.db, { name: 'Gone A' });
    const res = await admin.post('/api/admin/products/bulk', { action: 'delete', ids: [a.id, 'prod-none'] });
    expect(res.json().results.map((r: { result: string }) => r.result)).toEqual(['changed', 'not_found']);
    expect(await t.db.selectFrom('products').select('id').where('id', '=', a.id).executeTakeFirst()).toBeUndefined();

    const over = Array.from({ length: BULK_MAX + 1 }, (_, i) => `p${i}`);
    for (const [body, message] of [
      [{ action: 'delete', ids: [] }, BULK_MESSAGES.noProducts],
      [{ action: 'delete', ids: over }, BULK_MESSAGES.tooManyProducts],
      [{ action: 'paint', ids: ['x'] }, BULK_MESSAGES.action],
      [{ action: 'featured', ids: ['x'] }, BULK_MESSAGES.featured],
    ] as const) {
      const r = await admin.post('/api/admin/products/bulk', body);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toContain(message);
    }
  });
});

describe(`the Products tab's search, category filter and sort on ${testDialect()}`, () => {
  it('finds by name or SKU, filters by category (or none), sorts by name, price, stock and newest, a page at a time', async () => {
    const tag = 'zqx';
    const made = [
      await createProduct(t.db, { name: `${tag} Banana Cloth`, priceCents: 300, inventory: 9, categoryId: 'mops', sku: 'SKU-B' }),
      await createProduct(t.db, { name: `${tag} Apple Mop`, priceCents: 900, inventory: 2, categoryId: 'mops', sku: 'SKU-A' }),
      await createProduct(t.db, { name: `${tag} Cherry Spray`, priceCents: 600, inventory: 30, categoryId: 'cleaners' }),
      await createProduct(t.db, { name: 'Zzz plain thing', priceCents: 100, inventory: 5, categoryId: 'cleaners', sku: `${tag}-77` }),
    ];
    const names = (r: { items: Row[] }) => r.items.map((p) => p.name);
    expect(names(await list(`search=${tag.toUpperCase()}&sort=name`))).toEqual([
      `${tag} Apple Mop`,
      `${tag} Banana Cloth`,
      `${tag} Cherry Spray`,
      'Zzz plain thing',
    ]);
    expect(names(await list(`search=${tag}&sort=price-asc`))).toEqual([
      'Zzz plain thing',
      `${tag} Banana Cloth`,
      `${tag} Cherry Spray`,
      `${tag} Apple Mop`,
    ]);
    expect(names(await list(`search=${tag}&sort=price-desc`))[0]).toBe(`${tag} Apple Mop`);
    expect(names(await list(`search=${tag}&sort=stock-asc`))[0]).toBe(`${tag} Apple Mop`);
    expect(names(await list(`search=${tag}&sort=newest`))[0]).toBe('Zzz plain thing');
    expect(names(await list(`search=sku-a`))).toEqual([`${tag} Apple Mop`]);
    expect(names(await list(`search=${tag}&category=mops&sort=name`))).toEqual([`${tag} Apple Mop`, `${tag} Banana Cloth`]);
    const paged = await list(`search=${tag}&sort=name&pageSize=3&page=2`);
    expect(paged).toMatchObject({ total: 4, totalPages: 2 });
    expect(names(paged)).toEqual(['Zzz plain thing']);

    await admin.post('/api/admin/products/bulk', { action: 'category', ids: [made[3]!.id], categoryId: null });
    expect(names(await list(`search=${tag}&category=none`))).toEqual(['Zzz plain thing']);
  });

  it('refuses a bad sort, a long search and a long category with their own messages', async () => {
    for (const [query, message] of [
      ['sort=random', 'sort must be one of newest, name, price-asc, price-desc, stock-asc'],
      [`search=${'a'.repeat(101)}`, 'Search text cannot exceed 100 characters'],
      [`category=${'c'.repeat(51)}`, 'category cannot exceed 50 characters'],
    ]) {
      const res = await admin.get(`/api/admin/products?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(message);
    }
  });
});
