import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ledgerAndLevel, variantLedgerAndLevel } from '../test/stock-checks.js';
import { VARIANT_MESSAGES } from '../../shared/schemas/admin/variants.js';
import { INVENTORY_MESSAGES } from '../../shared/schemas/inventory.js';

/**
 * The back office's variants (issue [6/6], decision 0036): a product's whole set of options and
 * variants replaced at once under the product's lock, without ever changing a kept variant's stock
 * or losing its history; per-variant stock routes; the product form and list with several variants.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Otto Option', address: '6 Variant Way', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Otto Option' };

let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let ipCount = 0;
const nextIp = () => `10.79.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
  admin = new TestClient(t.app, '10.79.250.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const someone = await createUser(t.db, { email: 'otto.option@example.com' });
  customer = new TestClient(t.app, '10.79.250.2');
  await customer.signIn(someone.email, someone.password);
  await t.db.updateTable('settings').set({ value: 'owner@shop.test' }).where('key', '=', 'contact_email').execute();
});
afterAll(async () => {
  await t?.close();
});

type VariantBody = {
  id?: string;
  options: string[];
  sku?: string | null;
  priceCents: number;
  compareAtCents?: number | null;
  weightLbs?: number | null;
  image?: string | null;
  enabled: boolean;
  openingStock?: number;
  lowStockThreshold?: number;
};
type SetBody = { options: { name: string; values: string[] }[]; variants: VariantBody[] };
type AdminVariant = {
  id: string;
  options: string[];
  label: string;
  sku: string | null;
  priceCents: number;
  image: string | null;
  enabled: boolean;
  position: number;
  stock: { itemId?: string; onHand: number; reserved: number; available: number; lowStockThreshold: number; alertState: string };
  sold: boolean;
  removable: boolean;
};

const putSet = (productId: string, body: unknown, as = admin) => as.request('PUT', `/api/admin/products/${productId}/variants`, body);
const getSet = async (productId: string) => {
  const res = await admin.get(`/api/admin/products/${productId}/variants`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { options: { name: string; values: string[] }[]; variants: AdminVariant[] };
};
/** The product row's copies of its variants. */
const copies = async (productId: string) => {
  const r = await t.db
    .selectFrom('products')
    .select(['price_cents', 'max_price_cents', 'sku', 'sole_variant_id', 'inventory'])
    .where('id', '=', productId)
    .executeTakeFirstOrThrow();
  return {
    price: Number(r.price_cents),
    max: r.max_price_cents === null ? null : Number(r.max_price_cents),
    sku: r.sku,
    sole: r.sole_variant_id,
    inventory: Number(r.inventory),
  };
};
const outbox = (templateId: string) =>
  t.db
    .selectFrom('email_outbox')
    .select(['subject', 'text'])
    .where('template_id', '=', templateId)
    .where('to_address', '=', 'owner@shop.test')
    .execute();

async function buy(productId: string, variantId: string, quantity = 1): Promise<string> {
  const c = new TestClient(t.app, nextIp());
  const res = await c.post('/api/create-checkout-session', {
    items: [{ productId, variantId, quantity }],
    customerEmail: 'otto@example.com',
    shippingAddress: address,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBe(303);
  return orderId;
}

describe(`the variants editor on ${testDialect()}`, () => {
  it('adding the first options keeps var_<id>, its stock and SKU row; new variants open their own stock; copies follow', async () => {
    const p = await createProduct(t.db, { name: 'Option Tee', priceCents: 1500, inventory: 7, sku: 'TEE' });
    const first = `var_${p.id}`;
    const before = await getSet(p.id);
    expect(before.options).toEqual([]);
    expect(before.variants).toEqual([
      {
        id: first,
        options: [],
        label: '',
        sku: 'TEE',
        priceCents: 1500,
        compareAtCents: null,
        weightLbs: null,
        image: null,
        enabled: true,
        position: 0,
        unitQuantity: null,
        unit: null,
        stock: { itemId: `stk_${p.id}`, onHand: 7, reserved: 0, available: 7, lowStockThreshold: 10, alertState: 'low' },
        sold: false,
        removable: true,
      },
    ]);
    const lowMails = (await outbox('stock-low')).length;
    const version = async () =>
      String((await t.db.selectFrom('shop_changes').select('version').where('id', '=', 1).executeTakeFirstOrThrow()).version);
    const versionBefore = await version();

    const res = await putSet(p.id, {
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      variants: [
        { id: first, options: ['S'], sku: 'TEE-S', priceCents: 1500, enabled: true, openingStock: 99 },
        { options: ['M'], sku: 'TEE-M', priceCents: 1700, compareAtCents: 2000, enabled: true, openingStock: 4, lowStockThreshold: 2 },
        { options: ['L'], sku: null, priceCents: 1900, weightLbs: 1.25, image: '/images/placeholder.svg', enabled: true, openingStock: 1 },
      ],
    } satisfies SetBody);
    expect(res.statusCode, res.body).toBe(200);
    const set = res.json() as { options: unknown; variants: AdminVariant[] };
    expect(set.options).toEqual([{ name: 'Size', values: ['S', 'M', 'L'] }]);
    const [s, m, l] = set.variants;
    // The first variant kept its id and its 7 units: an opening figure for an existing variant is ignored.
    expect(s).toMatchObject({
      id: first,
      options: ['S'],
      label: 'S',
      sku: 'TEE-S',
      position: 0,
      stock: { itemId: `stk_${p.id}`, onHand: 7 },
    });
    expect(m!.id).toMatch(/^var_[a-z0-9]{10}$/);
    expect(m).toMatchObject({
      options: ['M'],
      label: 'M',
      compareAtCents: 2000,
      position: 1,
      stock: { onHand: 4, lowStockThreshold: 2, alertState: 'ok' },
    });
    expect(l).toMatchObject({
      options: ['L'],
      sku: null,
      weightLbs: 1.25,
      image: '/images/placeholder.svg',
      stock: { onHand: 1, alertState: 'low' },
    });
    expect(await copies(p.id)).toEqual({ price: 1500, max: 1900, sku: null, sole: null, inventory: 12 });
    expect(await ledgerAndLevel(t.db, p.id)).toEqual({ level: 12, copy: 12, ledger: 12 });
    // Opening a variant at or below its threshold is not a crossing: nobody is e-mailed.
    expect((await outbox('stock-low')).length).toBe(lowMails);
    // The storefront's caches are told (the back office's shop-change version moved).
    expect(await version()).not.toBe(versionBefore);
    // The editor reads back exactly what it wrote.
    expect(await getSet(p.id)).toEqual(set);
  });

  it('refuses a bad set with a reason a person can act on, and changes nothing', async () => {
    const p = await createProduct(t.db, { name: 'Refusal Mug', priceCents: 800, inventory: 3, sku: 'MUG' });
    const other = await createProduct(t.db, { name: 'Other Mug', priceCents: 800, inventory: 3 });
    const first = `var_${p.id}`;
    const size = { name: 'Size', values: ['S', 'M'] };
    const v = (o: Partial<VariantBody> = {}): VariantBody => ({ options: ['S'], priceCents: 800, enabled: true, ...o });
    const cases: [unknown, string][] = [
      [{ options: [size], variants: [v({ id: first }), v()] }, VARIANT_MESSAGES.combinationTwice('S')],
      [{ options: [], variants: [v({ options: [] }), v({ options: [] })] }, VARIANT_MESSAGES.combinationTwice('')],
      [{ options: [size], variants: [v({ options: ['XL'] })] }, VARIANT_MESSAGES.notAValue('Size', 'XL')],
      [{ options: [size], variants: [v({ options: [] })] }, VARIANT_MESSAGES.valueCount(1)],
      [
        { options: [size, { name: 'size', values: ['A'] }], variants: [v({ options: ['S', 'A'] })] },
        VARIANT_MESSAGES.optionNameTwice('size'),
      ],
      [{ options: [{ name: 'Size', values: ['S', 's'] }], variants: [v()] }, VARIANT_MESSAGES.valueTwice('Size', 's')],
      [{ options: [{ name: 'Size', values: [] }], variants: [] }, VARIANT_MESSAGES.valuesRequired],
      [{ options: [{ name: ' ', values: ['S'] }], variants: [v()] }, VARIANT_MESSAGES.optionNameRequired],
      [{ options: [{ name: 'Size', values: ['x'.repeat(41)] }], variants: [v()] }, VARIANT_MESSAGES.valueTooLong],
      [{ options: [1, 2, 3, 4].map((n) => ({ name: `O${n}`, values: ['a'] })), variants: [v()] }, VARIANT_MESSAGES.tooManyOptions],
      [{ options: [size], variants: [] }, VARIANT_MESSAGES.variantsRequired],
      [{ options: [size], variants: [v({ priceCents: 500, compareAtCents: 500 })] }, VARIANT_MESSAGES.compareAtNotAbove],
      [{ options: [size], variants: [v({ sku: 'A1' }), v({ options: ['M'], sku: 'a1' })] }, VARIANT_MESSAGES.skuTwice('a1')],
      [{ options: [size], variants: [v({ sku: 'x'.repeat(101) })] }, VARIANT_MESSAGES.skuTooLong],
      [{ options: [size], variants: [v({ priceCents: -1 })] }, 'Price cannot be negative'],
      [{ options: [size], variants: [v({ priceCents: 100_000_000 })] }, 'Price cannot exceed $999,999.99'],
      [{ options: [size], variants: [v({ id: first }), v({ id: first, options: ['M'] })] }, VARIANT_MESSAGES.idTwice(first)],
      [{ options: [size], variants: [v({ openingStock: -2 })] }, VARIANT_MESSAGES.openingStock],
      [{ options: [size], variants: [v({ enabled: 'yes' as unknown as boolean })] }, 'enabled must be true or false'],
      [{ options: [size], variants: [{ ...v(), colour: 'red' }] }, 'colour'],
      [{ options: [size], variants: [v()], extra: 1 }, 'extra'],
      // Checked by the server against the shop: the product's own variants and gallery.
      [{ options: [size], variants: [v({ id: `var_${other.id}` })] }, VARIANT_MESSAGES.notThisProduct(`var_${other.id}`)],
      [{ options: [size], variants: [v({ image: '/images/elsewhere.png' })] }, VARIANT_MESSAGES.imageNotInGallery('/images/elsewhere.png')],
    ];
    for (const [body, error] of cases) {
      const res = await putSet(p.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toContain(error);
    }
    const set = await getSet(p.id);
    expect(set.options).toEqual([]);
    expect(set.variants.map((x) => [x.id, x.sku, x.stock.onHand])).toEqual([[first, 'MUG', 3]]);
    expect(await copies(p.id)).toEqual({ price: 800, max: null, sku: 'MUG', sole: first, inventory: 3 });
    expect((await putSet('prod-nope', { options: [], variants: [v({ options: [] })] })).statusCode).toBe(404);
    expect((await admin.get('/api/admin/products/prod-nope/variants')).statusCode).toBe(404);
  });

  it("refuses a SKU another product's variant uses (409 naming it and where), whatever its case", async () => {
    const owner = await createProduct(t.db, { name: 'Sku Owner', priceCents: 500, inventory: 2 });
    await putSet(owner.id, {
      options: [{ name: 'Scent', values: ['Lemon'] }],
      variants: [{ id: `var_${owner.id}`, options: ['Lemon'], sku: 'SOAP-LEMON', priceCents: 500, enabled: true }],
    });
    const p = await createProduct(t.db, { name: 'Sku Taker', priceCents: 600, inventory: 2 });
    const res = await putSet(p.id, {
      options: [],
      variants: [{ id: `var_${p.id}`, options: [], sku: 'soap-lemon', priceCents: 600, enabled: true }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(VARIANT_MESSAGES.skuInUse('soap-lemon', 'Sku Owner — Lemon'));
    // Its own SKU moving between its own variants is fine.
    const own = await putSet(owner.id, {
      options: [{ name: 'Scent', values: ['Lemon', 'Lime'] }],
      variants: [
        { id: `var_${owner.id}`, options: ['Lemon'], sku: 'SOAP-LEMON-2', priceCents: 500, enabled: true },
        { options: ['Lime'], sku: 'SOAP-LEMON', priceCents: 500, enabled: true },
      ],
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('deletes a variant without history (its opening units leave the product), refuses a sold or moved one, and switches it off instead', async () => {
    const p = await createProduct(t.db, { name: 'Scented Soap', priceCents: 400, inventory: 5, sku: 'SOAP' });
    const first = `var_${p.id}`;
    const scent = { name: 'Scent', values: ['Rose', 'Lemon', 'Mint', 'Sage'] };
    const made = await putSet(p.id, {
      options: [scent],
      variants: [
        { id: first, options: ['Rose'], sku: 'SOAP-ROSE', priceCents: 400, enabled: true },
        { options: ['Lemon'], sku: 'SOAP-LEMON-S', priceCents: 450, enabled: true, openingStock: 6 },
        { options: ['Mint'], sku: 'SOAP-MINT', priceCents: 500, enabled: true, openingStock: 8 },
        { options: ['Sage'], sku: 'SOAP-SAGE', priceCents: 550, enabled: true, openingStock: 2 },
      ],
    });
    expect(made.statusCode, made.body).toBe(200);
    const [rose, lemon, mint, sage] = (made.json().variants as AdminVariant[]).map((x) => x.id) as [string, string, string, string];
    expect(await copies(p.id)).toEqual({ price: 400, max: 550, sku: null, sole: null, inventory: 21 });

    // Lemon is sold, Sage only received units: both have history.
    await buy(p.id, lemon, 2);
    expect((await admin.post(`/api/admin/variants/${sage}/stock`, { reason: 'received', quantity: 3 })).statusCode).toBe(200);
    const history = await getSet(p.id);
    expect(history.variants.map((x) => [x.label, x.sold, x.removable])).toEqual([
      ['Rose', false, true],
      ['Lemon', true, false],
      ['Mint', false, true],
      ['Sage', false, false],
    ]);

    const keep = (ids: string[], extra: Partial<Record<string, Partial<VariantBody>>> = {}) => ({
      options: [scent],
      variants: history.variants
        .filter((x) => ids.includes(x.id))
        .map((x) => ({ id: x.id, options: x.options, sku: x.sku, priceCents: x.priceCents, enabled: x.enabled, ...extra[x.id] })),
    });
    // Mint never moved: it goes, with its 8 opening units.
    const gone = await putSet(p.id, keep([rose, lemon, sage]));
    expect(gone.statusCode, gone.body).toBe(200);
    expect((gone.json().variants as AdminVariant[]).map((x) => x.label)).toEqual(['Rose', 'Lemon', 'Sage']);
    expect(await t.db.selectFrom('stock_items').select('id').where('variant_id', '=', mint).execute()).toEqual([]);
    expect(await t.db.selectFrom('product_variants').select('id').where('id', '=', mint).execute()).toEqual([]);
    expect(await copies(p.id)).toEqual({ price: 400, max: 550, sku: null, sole: null, inventory: 5 + 6 - 2 + 2 + 3 });
    expect(await ledgerAndLevel(t.db, p.id)).toEqual({ level: 14, copy: 14, ledger: 14 });

    // Lemon was sold, Sage moved: each is kept, and the whole change is refused.
    const sold = await putSet(p.id, keep([rose, sage]));
    expect(sold.statusCode).toBe(409);
    expect(sold.json().error).toBe(VARIANT_MESSAGES.sold('Lemon'));
    const moved = await putSet(p.id, keep([rose, lemon]));
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error).toBe(VARIANT_MESSAGES.moved('Sage'));
    expect((await getSet(p.id)).variants.map((x) => x.label)).toEqual(['Rose', 'Lemon', 'Sage']);

    // Switched off instead: kept with its stock and history, and no longer counted in the copies.
    const off = await putSet(p.id, keep([rose, lemon, sage], { [lemon]: { enabled: false }, [sage]: { enabled: false } }));
    expect(off.statusCode, off.body).toBe(200);
    expect((off.json().variants as AdminVariant[]).map((x) => [x.label, x.enabled, x.stock.onHand])).toEqual([
      ['Rose', true, 5],
      ['Lemon', false, 4],
      ['Sage', false, 5],
    ]);
    expect(await copies(p.id)).toEqual({ price: 400, max: null, sku: 'SOAP-ROSE', sole: rose, inventory: 14 });
    // And on again, at a new price.
    const on = await putSet(p.id, keep([rose, lemon, sage], { [lemon]: { priceCents: 300 } }));
    expect(on.statusCode).toBe(200);
    expect(await copies(p.id)).toEqual({ price: 300, max: 550, sku: null, sole: null, inventory: 14 });
    expect(await variantLedgerAndLevel(t.db, lemon)).toEqual({ level: 4, ledger: 4 });
  });

  it('two kept variants can swap their values; changing every value keeps each variant and its stock', async () => {
    const p = await createProduct(t.db, { name: 'Swap Sock', priceCents: 300, inventory: 1 });
    const first = `var_${p.id}`;
    const made = await putSet(p.id, {
      options: [{ name: 'Colour', values: ['Red', 'Blue'] }],
      variants: [
        { id: first, options: ['Red'], priceCents: 300, enabled: true },
        { options: ['Blue'], priceCents: 300, enabled: true, openingStock: 9 },
      ],
    });
    const blue = (made.json().variants as AdminVariant[])[1]!.id;
    const swapped = await putSet(p.id, {
      options: [{ name: 'Colour', values: ['Red', 'Blue'] }],
      variants: [
        { id: blue, options: ['Red'], priceCents: 300, enabled: true },
        { id: first, options: ['Blue'], priceCents: 300, enabled: true },
      ],
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect((swapped.json().variants as AdminVariant[]).map((x) => [x.id, x.label, x.stock.onHand])).toEqual([
      [blue, 'Red', 9],
      [first, 'Blue', 1],
    ]);
    // Options removed again: one variant left, with no values.
    const single = await putSet(p.id, { options: [], variants: [{ id: first, options: [], priceCents: 350, sku: 'SOCK', enabled: true }] });
    expect(single.statusCode, single.body).toBe(200);
    expect(await copies(p.id)).toEqual({ price: 350, max: null, sku: 'SOCK', sole: first, inventory: 1 });
    expect(await t.db.selectFrom('product_options').select('name').where('product_id', '=', p.id).execute()).toEqual([]);
  });

  it('answers 401 to a visitor and 403 to a customer, and changes nothing', async () => {
    const p = await createProduct(t.db, { name: 'Guarded Glove', priceCents: 300, inventory: 1 });
    const body = { options: [], variants: [{ id: `var_${p.id}`, options: [], priceCents: 1, enabled: true }] };
    const visitor = new TestClient(t.app, nextIp());
    expect((await visitor.get(`/api/admin/products/${p.id}/variants`)).statusCode).toBe(401);
    expect((await putSet(p.id, body, visitor)).statusCode).toBe(401);
    expect((await customer.get(`/api/admin/products/${p.id}/variants`)).statusCode).toBe(403);
    expect((await putSet(p.id, body, customer)).statusCode).toBe(403);
    const stock = `/api/admin/variants/var_${p.id}/stock`;
    expect((await visitor.get(stock)).statusCode).toBe(401);
    expect((await visitor.post(stock, { reason: 'received', quantity: 5 })).statusCode).toBe(401);
    expect((await customer.get(stock)).statusCode).toBe(403);
    expect((await customer.post(stock, { reason: 'received', quantity: 5 })).statusCode).toBe(403);
    expect((await customer.request('PUT', `${stock}/threshold`, { lowStockThreshold: 1 })).statusCode).toBe(403);
    expect(await copies(p.id)).toEqual({ price: 300, max: null, sku: null, sole: `var_${p.id}`, inventory: 1 });
    expect((await getSet(p.id)).variants.map((x) => [x.priceCents, x.stock.lowStockThreshold])).toEqual([[300, 10]]);
  });

  it('five simultaneous sets of one product leave one whole set: no duplicate, copies and stock in step', async () => {
    const p = await createProduct(t.db, { name: 'Busy Beanie', priceCents: 2000, inventory: 10 });
    const first = `var_${p.id}`;
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        putSet(p.id, {
          options: [{ name: 'Colour', values: ['Red', 'Blue'] }],
          variants: [
            { id: first, options: ['Red'], sku: 'BEANIE-RED', priceCents: 2000 + i, enabled: true },
            { options: ['Blue'], sku: `BEANIE-BLUE-${i}`, priceCents: 2500 + i, enabled: true, openingStock: 3 },
          ],
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const set = await getSet(p.id);
    expect(set.variants.map((x) => x.label)).toEqual(['Red', 'Blue']);
    const [red, blue] = set.variants as [AdminVariant, AdminVariant];
    expect(red.id).toBe(first);
    // Every set was whole: the last one's red and blue go together.
    const i = red.priceCents - 2000;
    expect(blue).toMatchObject({ priceCents: 2500 + i, sku: `BEANIE-BLUE-${i}`, stock: { onHand: 3 } });
    expect(await copies(p.id)).toEqual({ price: 2000 + i, max: 2500 + i, sku: null, sole: null, inventory: 13 });
    expect(await ledgerAndLevel(t.db, p.id)).toEqual({ level: 13, copy: 13, ledger: 13 });
    expect(await t.db.selectFrom('stock_items').select('id').where('product_id', '=', p.id).execute()).toHaveLength(2);
    expect(await t.db.selectFrom('product_options').select('name').where('product_id', '=', p.id).execute()).toEqual([{ name: 'Colour' }]);
  });
});

describe(`a product with several variants in the back office on ${testDialect()}`, () => {
  let p: { id: string };
  let small: string;
  let large: string;
  beforeAll(async () => {
    p = await createProduct(t.db, { name: 'Multi Mop', priceCents: 1200, inventory: 30, sku: 'MOP' });
    const res = await putSet(p.id, {
      options: [{ name: 'Size', values: ['Small', 'Large'] }],
      variants: [
        { id: `var_${p.id}`, options: ['Small'], sku: 'MOP-SMALL-X', priceCents: 1200, enabled: true },
        { options: ['Large'], sku: 'MOP-LARGE-X', priceCents: 1800, enabled: true, openingStock: 20 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    [small, large] = (res.json().variants as AdminVariant[]).map((x) => x.id) as [string, string];
  });

  it('the product stock routes answer 409 "choose a variant"; the variant routes adjust, set the threshold and read the history', async () => {
    for (const res of [
      await admin.get(`/api/admin/products/${p.id}/stock`),
      await admin.post(`/api/admin/products/${p.id}/stock`, { reason: 'received', quantity: 1 }),
      await admin.request('PUT', `/api/admin/products/${p.id}/stock/threshold`, { lowStockThreshold: 1 }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(INVENTORY_MESSAGES.chooseVariant);
    }
    const adjusted = await admin.post(`/api/admin/variants/${large}/stock`, { reason: 'damaged', quantity: 2, note: 'Dropped' });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    expect(adjusted.json().stock).toEqual({
      productId: p.id,
      variantId: large,
      label: 'Large',
      onHand: 18,
      reserved: 0,
      available: 18,
      lowStockThreshold: 10,
      alertState: 'ok',
    });
    const counted = await admin.post(`/api/admin/variants/${large}/stock`, { reason: 'counted', quantity: 15 });
    expect(counted.json().stock.onHand).toBe(15);
    const below = await admin.post(`/api/admin/variants/${large}/stock`, { reason: 'correction', quantity: -16 });
    expect(below.statusCode).toBe(409);
    expect(below.json().error).toBe(INVENTORY_MESSAGES.belowZero(15, -16));
    expect((await admin.post(`/api/admin/variants/${large}/stock`, { reason: 'received', quantity: 0 })).statusCode).toBe(400);

    const threshold = await admin.request('PUT', `/api/admin/variants/${large}/stock/threshold`, { lowStockThreshold: 15 });
    expect(threshold.statusCode).toBe(200);
    expect(threshold.json().stock).toMatchObject({ variantId: large, lowStockThreshold: 15, alertState: 'low' });

    const history = await admin.get(`/api/admin/variants/${large}/stock?pageSize=2`);
    expect(history.statusCode).toBe(200);
    const page = history.json();
    expect(page.stock).toMatchObject({ variantId: large, label: 'Large', onHand: 15 });
    expect(page.total).toBe(3);
    expect(page.items.map((r: { kind: string; quantity: number; levelAfter: number }) => [r.kind, r.quantity, r.levelAfter])).toEqual([
      ['counted', -3, 15],
      ['damaged', -2, 18],
    ]);
    const older = (await admin.get(`/api/admin/variants/${large}/stock?pageSize=2&page=2`)).json();
    expect(older.items.map((r: { kind: string; levelAfter: number }) => [r.kind, r.levelAfter])).toEqual([['opening', 20]]);
    // The small one's ledger is its own.
    expect((await admin.get(`/api/admin/variants/${small}/stock`)).json().stock).toMatchObject({ label: 'Small', onHand: 30 });
    expect(await ledgerAndLevel(t.db, p.id)).toEqual({ level: 45, copy: 45, ledger: 45 });

    for (const res of [
      await admin.get('/api/admin/variants/var_nope/stock'),
      await admin.post('/api/admin/variants/var_nope/stock', { reason: 'received', quantity: 1 }),
      await admin.request('PUT', '/api/admin/variants/var_nope/stock/threshold', { lowStockThreshold: 1 }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(INVENTORY_MESSAGES.variantNotFound);
    }
  });

  it("the owner's e-mail names the line's title and the variant's SKU", async () => {
    const before = (await outbox('stock-sold-out')).length;
    expect((await admin.post(`/api/admin/variants/${large}/stock`, { reason: 'counted', quantity: 0 })).statusCode).toBe(200);
    const mails = await outbox('stock-sold-out');
    expect(mails.length).toBe(before + 1);
    const mail = mails.find((m) => m.subject.includes('Multi Mop'))!;
    expect(mail.subject).toBe('Sold out: Multi Mop — Large');
    expect(mail.text).toContain('(SKU MOP-LARGE-X)');
    await admin.post(`/api/admin/variants/${large}/stock`, { reason: 'received', quantity: 15 });
  });

  it('the product form still saves a name; it refuses to change the price, SKU or threshold of several variants', async () => {
    const form = { name: 'Multi Mop', description: 'A mop.', category: null, priceCents: 1200, sku: null, lowStockThreshold: 10 };
    const renamed = await admin.request('PUT', `/api/admin/products/${p.id}`, { ...form, name: 'Multi Mop Pro' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().product).toMatchObject({ name: 'Multi Mop Pro', priceCents: 1200, sku: null });
    expect(await copies(p.id)).toMatchObject({ price: 1200, max: 1800, sku: null, sole: null });
    for (const [body, error] of [
      [{ priceCents: 1000 }, VARIANT_MESSAGES.perVariant],
      [{ sku: 'MOP' }, VARIANT_MESSAGES.perVariant],
      [{ lowStockThreshold: 3 }, VARIANT_MESSAGES.perVariantThreshold],
    ] as const) {
      const res = await admin.request('PUT', `/api/admin/products/${p.id}`, { ...form, name: 'Never Saved', ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(error);
    }
    expect((await t.db.selectFrom('products').select('name').where('id', '=', p.id).executeTakeFirstOrThrow()).name).toBe('Multi Mop Pro');
    // A gallery without an image a variant showed: that variant falls back to the product's first.
    const withImage = await getSet(p.id);
    const pictured = await putSet(p.id, {
      options: withImage.options,
      variants: withImage.variants.map((x, n) => ({
        id: x.id,
        options: x.options,
        sku: x.sku,
        priceCents: x.priceCents,
        enabled: x.enabled,
        image: n === 1 ? '/images/placeholder.svg' : null,
      })),
    });
    expect((pictured.json().variants as { image: string | null }[]).map((x) => x.image)).toEqual([null, '/images/placeholder.svg']);
    const regallery = await admin.request('PUT', `/api/admin/products/${p.id}`, {
      ...form,
      name: 'Multi Mop Pro',
      images: ['/uploads/products/new.png'],
    });
    expect(regallery.statusCode, regallery.body).toBe(200);
    expect((await getSet(p.id)).variants.map((x) => x.image)).toEqual([null, null]);
  });

  it('the Products tab lists it once, finds it by a variant SKU and by a low variant, and sorts it by its lowest level', async () => {
    type Row = {
      id: string;
      variantCount: number;
      alertState: string;
      lowVariants: { variantId: string; label: string; onHand: number }[];
    };
    const rows = async (query: string) => {
      const res = await admin.get(`/api/admin/products?pageSize=100&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as Row[]).filter((r) => r.id === p.id);
    };
    expect((await admin.request('PUT', `/api/admin/variants/${large}/stock/threshold`, { lowStockThreshold: 10 })).statusCode).toBe(200);
    const all = await rows('');
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ variantCount: 2, alertState: 'ok', lowVariants: [] });
    expect(await rows('search=mop-large-x')).toHaveLength(1);
    expect(await rows('stock=low')).toEqual([]);
    expect(await rows('sort=stock-asc')).toHaveLength(1);

    // Small falls to its threshold: the product is low (once), and named by that variant.
    expect((await admin.post(`/api/admin/variants/${small}/stock`, { reason: 'counted', quantity: 4 })).statusCode).toBe(200);
    const low = await rows('stock=low');
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({ alertState: 'low', lowVariants: [{ variantId: small, label: 'Small', onHand: 4 }] });
    expect(await rows('stock=out')).toEqual([]);
    expect(await rows('stock=low&sort=stock-asc')).toHaveLength(1);
    // Sorted by its lowest variant's level (4), not by the sum or by each variant.
    const sorted = (await admin.get('/api/admin/products?pageSize=100&sort=stock-asc')).json().items as { id: string; inventory: number }[];
    expect(sorted.filter((r) => r.id === p.id)).toHaveLength(1);
    const levels = await Promise.all(
      sorted.map(async (r) =>
        Math.min(
          ...(await t.db.selectFrom('stock_items').select('on_hand').where('product_id', '=', r.id).execute()).map((s) =>
            Number(s.on_hand),
          ),
        ),
      ),
    );
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const total = (await admin.get('/api/admin/products?pageSize=1&sort=stock-asc')).json().total;
    expect(total).toBe((await admin.get('/api/admin/products?pageSize=1')).json().total);
    expect(total).toBe(
      Number(
        (
          await t.db
            .selectFrom('products')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
  });

  it(
    'the owner edits prices and stock of the versions while 30 shoppers buy them at once: no 5xx, each line at a price the version had, books exact',
    { timeout: 120_000 },
    async () => {
      const p = await createProduct(t.db, { name: 'Busy Tee', priceCents: 1000, inventory: 40, sku: 'BUSY' });
      const first = `var_${p.id}`;
      const set = (small: number, large: number) =>
        putSet(p.id, {
          options: [{ name: 'Size', values: ['S', 'L'] }],
          variants: [
            { id: first, options: ['S'], sku: 'BUSY-S', priceCents: small, enabled: true },
            { ...(large2 ? { id: large2 } : {}), options: ['L'], sku: 'BUSY-L', priceCents: large, enabled: true, openingStock: 40 },
          ],
        } satisfies SetBody);
      let large2 = '';
      const made = await set(1000, 2000);
      expect(made.statusCode, made.body).toBe(200);
      large2 = (made.json() as { variants: AdminVariant[] }).variants[1]!.id;
      const prices = new Set([1000, 2000]);
      const answers: number[] = [];
      await Promise.all([
        ...Array.from({ length: 30 }, async (_, n) => {
          const c = new TestClient(t.app, nextIp());
          const res = await c.post('/api/create-checkout-session', {
            items: [{ productId: p.id, variantId: n % 2 ? first : large2, quantity: 1 }],
            customerEmail: `busy${n}@example.com`,
            shippingAddress: address,
          });
          answers.push(res.statusCode);
          if (res.statusCode !== 200) return;
          answers.push(
            (await c.request('POST', `/pay/${(res.json() as { sessionId: string }).sessionId}`, new URLSearchParams(card))).statusCode,
          );
        }),
        ...Array.from({ length: 5 }, async (_, k) => {
          prices.add(1000 + k + 1).add(2000 + k + 1);
          answers.push((await set(1000 + k + 1, 2000 + k + 1)).statusCode);
          answers.push(
            (await admin.post(`/api/admin/variants/${k % 2 ? first : large2}/stock`, { reason: 'received', quantity: 2 })).statusCode,
          );
        }),
      ]);
      expect(answers.filter((a) => a >= 500)).toEqual([]);
      expect(answers.filter((a) => ![200, 201, 303, 409].includes(a))).toEqual([]);
      const lines = await t.db
        .selectFrom('order_items as i')
        .innerJoin('orders as o', 'o.id', 'i.order_id')
        .select(['i.variant_id', 'i.price_cents'])
        .where('i.product_id', '=', p.id)
        .where('o.payment_status', '=', 'paid')
        .execute();
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(prices.has(Number(l.price_cents))).toBe(true);
      for (const v of [first, large2]) {
        const books = await variantLedgerAndLevel(t.db, v);
        expect(books.ledger).toBe(books.level);
      }
      const product = await ledgerAndLevel(t.db, p.id);
      expect(product.copy).toBe(product.level);
    },
  );
});
