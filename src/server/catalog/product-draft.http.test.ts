import { describe, expect, it } from 'vitest';
import { testDialect, type TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const address = { name: 'Dee Raft', address: '1 Draft Way', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };
const html = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

async function newProduct(body: Record<string, unknown>) {
  const res = await admin.post('/api/admin/products', { description: 'Made by a test', priceCents: 1200, inventory: 10, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().product as { id: string; status: string; soleVariantId?: string | null };
}
const setStatus = async (id: string, name: string, status: 'draft' | 'active', category?: string) => {
  const body = { name, description: 'Made by a test', priceCents: 1200, status, ...(category ? { category } : {}) };
  const res = await admin.request('PUT', `/api/admin/products/${id}`, body);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().product.status).toBe(status);
};

describe(`a product's draft status on ${testDialect()}`, () => {
  it('a draft is nowhere for shoppers: list, search, featured, related, sitemap, its page and its API answer 404', async () => {
    const draft = await newProduct({ name: 'Zephyr Draft Brush', status: 'draft', category: 'mops', featured: true });
    expect(draft.status).toBe('draft');
    const shopper = new TestClient(t.app);
    const ids = (res: { json: () => { items: { id: string }[] } }) => res.json().items.map((p) => p.id);
    expect(ids(await shopper.get('/api/products?pageSize=100'))).not.toContain(draft.id);
    expect(ids(await shopper.get('/api/products?search=zephyr'))).toEqual([]);
    expect(ids(await shopper.get('/api/products?category=mops&pageSize=100'))).not.toContain(draft.id);
    expect(ids(await shopper.get('/api/products/featured'))).not.toContain(draft.id);
    expect((await shopper.get(`/api/products/${draft.id}`)).statusCode).toBe(404);
    expect((await shopper.get(`/api/products/${draft.id}/related`)).statusCode).toBe(404);
    expect((await html(`/products/${draft.id}`)).statusCode).toBe(404);
    expect((await html('/sitemap.xml')).body).not.toContain(draft.id);
    // The owner still has it, marked draft.
    const mine = (await admin.get('/api/admin/products?search=zephyr')).json().items;
    expect(mine).toMatchObject([{ id: draft.id, status: 'draft' }]);

    await setStatus(draft.id, 'Zephyr Draft Brush', 'active', 'mops');
    expect(ids(await shopper.get('/api/products?search=zephyr'))).toEqual([draft.id]);
    expect((await shopper.get(`/api/products/${draft.id}`)).statusCode).toBe(200);
    expect((await html(`/products/${draft.id}`)).statusCode).toBe(200);
    expect((await html('/sitemap.xml')).body).toContain(draft.id);
    // Back to draft: gone again at once.
    await setStatus(draft.id, 'Zephyr Draft Brush', 'draft', 'mops');
    expect(ids(await shopper.get('/api/products?search=zephyr'))).toEqual([]);
    expect((await shopper.get(`/api/products/${draft.id}`)).statusCode).toBe(404);
  });

  it('a crafted cart or checkout naming a draft is refused, and nothing is held or ordered', async () => {
    const draft = await newProduct({ name: 'Crafted Draft Sponge', status: 'draft' });
    const variantId = `var_${draft.id}`;
    const shopper = new TestClient(t.app, '10.77.0.1');
    const ordersBefore = (await t.db.selectFrom('orders').select('id').execute()).length;
    const checkout = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: draft.id, variantId, quantity: 1 }],
      customerEmail: 'crafty@example.com',
      shippingAddress: address,
    });
    expect([400, 404]).toContain(checkout.statusCode);
    expect(typeof checkout.json().error).toBe('string');
    const noVariant = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: draft.id, quantity: 1 }],
      customerEmail: 'crafty@example.com',
      shippingAddress: address,
    });
    expect([400, 404]).toContain(noVariant.statusCode);
    expect((await t.db.selectFrom('orders').select('id').execute()).length).toBe(ordersBefore);
    const held = await t.db.selectFrom('stock_items').select('reserved').where('variant_id', '=', variantId).executeTakeFirst();
    expect(Number(held?.reserved ?? 0)).toBe(0);
    const quote = await shopper.post('/api/cart/quote', { lines: [{ productId: draft.id, variantId, quantity: 1 }] });
    if (quote.statusCode === 200) expect(JSON.stringify(quote.json())).not.toMatch(/"subtotalCents":1200\b/);
    else expect([400, 404]).toContain(quote.statusCode);

    // Made active, the same checkout goes through.
    await setStatus(draft.id, 'Crafted Draft Sponge', 'active');
    const ok = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: draft.id, variantId, quantity: 1 }],
      customerEmail: 'crafty@example.com',
      shippingAddress: address,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a status that is neither draft nor active', async () => {
    const res = await admin.post('/api/admin/products', { name: 'Odd', description: 'x', priceCents: 100, inventory: 1, status: 'hidden' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('status must be draft or active');
  });
});

describe(`categories shoppers see on ${testDialect()}`, () => {
  it('an empty category (or one of drafts only) is hidden from shoppers until it has an active product; the owner sees it marked', async () => {
    const made = await admin.post('/api/admin/categories', { id: 'empty-shelf', name: 'Quiet Empty Shelf', description: '' });
    expect(made.statusCode, made.body).toBe(201);
    const shopperIds = async () => ((await new TestClient(t.app).get('/api/categories')).json().items as { id: string }[]).map((c) => c.id);
    const owner = async () =>
      ((await admin.get('/api/admin/categories')).json().items as { id: string; shownToShoppers: boolean }[]).find(
        (c) => c.id === 'empty-shelf',
      );
    expect(await shopperIds()).not.toContain('empty-shelf');
    expect((await html('/products')).body).not.toContain('Quiet Empty Shelf');
    expect((await html('/products?category=empty-shelf')).statusCode).toBe(404);
    expect(await owner()).toMatchObject({ shownToShoppers: false, activeProducts: 0, draftProducts: 0 });

    const p = await newProduct({ name: 'Shelf Filler', status: 'draft', category: 'empty-shelf' });
    expect(await shopperIds()).not.toContain('empty-shelf');
    expect(await owner()).toMatchObject({ shownToShoppers: false, activeProducts: 0, draftProducts: 1 });

    await setStatus(p.id, 'Shelf Filler', 'active', 'empty-shelf');
    expect(await shopperIds()).toContain('empty-shelf');
    expect((await html('/products')).body).toContain('Quiet Empty Shelf');
    expect((await html('/products?category=empty-shelf')).statusCode).toBe(200);
    expect(await owner()).toMatchObject({ shownToShoppers: true, activeProducts: 1 });
    // A shopper cannot read the owner's list.
    expect((await new TestClient(t.app).get('/api/admin/categories')).statusCode).toBe(401);
  });
});
