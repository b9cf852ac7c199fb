import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { STOCK_NOT_IN_PRODUCT_FORM } from '../../shared/schemas/admin/products.js';
import { INVENTORY_MESSAGES } from '../../shared/schemas/inventory.js';
import { RESERVE_MS } from './reservations.js';
import { checkShopChanges } from '../http/shop-changes.js';

/**
 * The inventory module on a busy day (issue [2/6], decision 0022): stock moves only as ledger rows,
 * the product form cannot undo sales, refunds and cancels return what the owner chooses, one visitor
 * cannot hoard, the owner hears of low stock once per crossing, and waiting shoppers once.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Ivy Inventory', address: '3 Shelf St', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Ivy Inventory' };

let t: TestApp;
let admin: TestClient;
let ipCount = 0;
const nextIp = () => `10.77.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
  admin = new TestClient(t.app, '10.77.250.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await t.db.updateTable('settings').set({ value: 'owner@shop.test' }).where('key', '=', 'contact_email').execute();
});
afterAll(async () => {
  await t?.close();
});

const level = async (id: string) =>
  Number((await t.db.selectFrom('stock_items').select('on_hand').where('product_id', '=', id).executeTakeFirstOrThrow()).on_hand);

/** The level, the product's shown copy and the ledger's sum: always one figure. */
async function ledgerCheck(id: string): Promise<{ level: number; copy: number; ledger: number }> {
  const item = await t.db.selectFrom('stock_items').select(['id', 'on_hand']).where('product_id', '=', id).executeTakeFirstOrThrow();
  const sum = await t.db
    .selectFrom('stock_movements')
    .select(sql<number | string>`coalesce(sum(quantity), 0)`.as('q'))
    .where('stock_item_id', '=', item.id)
    .executeTakeFirstOrThrow();
  const copy = await t.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow();
  return { level: Number(item.on_hand), copy: Number(copy.inventory), ledger: Number(sum.q) };
}

async function checkout(c: TestClient, items: { productId: string; quantity: number }[]) {
  return c.post('/api/create-checkout-session', { items, customerEmail: 'ivy@example.com', shippingAddress: address });
}
const pay = (c: TestClient, sessionId: string) => c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));

async function paidOrder(items: { productId: string; quantity: number }[]) {
  const c = new TestClient(t.app, nextIp());
  const res = await checkout(c, items);
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  expect((await pay(c, sessionId)).statusCode).toBe(303);
  return orderId;
}

const adjust = (id: string, body: Record<string, unknown>) => admin.post(`/api/admin/products/${id}/stock`, body);
const outbox = (templateId: string, to?: string) => {
  let q = t.db.selectFrom('email_outbox').select(['to_address', 'subject', 'text']).where('template_id', '=', templateId);
  if (to) q = q.where('to_address', '=', to);
  return q.execute();
};

describe(`inventory on ${testDialect()}`, () => {
  it('saving a product never undoes a sale: the form carries no stock figure', async () => {
    const p = await createProduct(t.db, { name: 'Lost Update Cloth', inventory: 44, priceCents: 500 });
    // The owner opens the product (it shows 44)…
    const opened = (await admin.get(`/api/admin/products?search=${encodeURIComponent(p.name)}`)).json().items[0];
    expect(opened.inventory).toBe(44);
    // …a shopper pays for 2…
    await paidOrder([{ productId: p.id, quantity: 2 }]);
    expect(await level(p.id)).toBe(42);
    // …and the owner saves a new price: the sale stands.
    const { name, description, category } = opened;
    const saved = await admin.request('PUT', `/api/admin/products/${p.id}`, { name, description, category, priceCents: 600 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().product).toMatchObject({ priceCents: 600, inventory: 42 });
    expect(await ledgerCheck(p.id)).toEqual({ level: 42, copy: 42, ledger: 42 });
    // An old client that sends the figure it read is refused, with what to do instead, and nothing changes.
    const stale = await admin.request('PUT', `/api/admin/products/${p.id}`, {
      name,
      description,
      category,
      priceCents: 700,
      inventory: 44,
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error).toContain(STOCK_NOT_IN_PRODUCT_FORM);
    expect(await level(p.id)).toBe(42);
  });

  it('the owner adjusts by a reason or a count, under lock, and the history says why each figure changed', async () => {
    const p = await createProduct(t.db, { name: 'Adjusted Mop', inventory: 10 });
    expect((await adjust(p.id, { reason: 'received', quantity: 5, note: 'Delivery 42' })).json().stock).toMatchObject({ onHand: 15 });
    expect((await adjust(p.id, { reason: 'damaged', quantity: 2 })).json().stock.onHand).toBe(13);
    expect((await adjust(p.id, { reason: 'correction', quantity: -1 })).json().stock.onHand).toBe(12);
    await paidOrder([{ productId: p.id, quantity: 3 }]);
    // A count entered while a sale happened: turned into the change from the level as it is now.
    const counted = await adjust(p.id, { reason: 'counted', quantity: 7 });
    expect(counted.json().stock.onHand).toBe(7);

    const history = (await admin.get(`/api/admin/products/${p.id}/stock?pageSize=3`)).json();
    expect(history.total).toBe(6);
    expect(history.items.map((m: { kind: string; quantity: number; levelAfter: number }) => [m.kind, m.quantity, m.levelAfter])).toEqual([
      ['counted', -2, 7],
      ['sold', -3, 9],
      ['correction', -1, 12],
    ]);
    const older = (await admin.get(`/api/admin/products/${p.id}/stock?pageSize=3&page=2`)).json();
    expect(older.items.map((m: { kind: string; levelAfter: number; note: string | null }) => [m.kind, m.levelAfter, m.note])).toEqual([
      ['damaged', 13, null],
      ['received', 15, 'Delivery 42'],
      ['opening', 10, null],
    ]);
    expect(history.items[1].reference).toMatch(/^[A-Z0-9]{8}$/);
    expect(history.items[0].actor).toBe(DEMO_ADMIN.email);
    expect(await ledgerCheck(p.id)).toEqual({ level: 7, copy: 7, ledger: 7 });

    // Bad input is named, and loses nothing.
    expect((await adjust(p.id, { reason: 'received', quantity: 0 })).statusCode).toBe(400);
    expect((await adjust(p.id, { reason: 'correction', quantity: 0 })).statusCode).toBe(400);
    expect((await adjust(p.id, { reason: 'counted', quantity: -1 })).statusCode).toBe(400);
    expect((await adjust(p.id, { reason: 'stolen', quantity: 1 })).statusCode).toBe(400);
    const below = await adjust(p.id, { reason: 'damaged', quantity: 8 });
    expect(below.statusCode).toBe(409);
    expect(below.json().error).toContain('Only 7 in stock');
    expect((await adjust('no-such-product', { reason: 'received', quantity: 1 })).statusCode).toBe(404);
    expect((await new TestClient(t.app).post(`/api/admin/products/${p.id}/stock`, { reason: 'received', quantity: 5 })).statusCode).toBe(
      401,
    );
    expect(await level(p.id)).toBe(7);
  });

  it('a partial refund returns only the units the owner chose; a shipped order returns nothing by default', async () => {
    const p = await createProduct(t.db, { name: 'Refund Line Cloth', inventory: 20, priceCents: 1000 });
    const q = await createProduct(t.db, { name: 'Refund Line Mop', inventory: 20, priceCents: 1000 });
    const orderId = await paidOrder([
      { productId: p.id, quantity: 3 },
      { productId: q.id, quantity: 1 },
    ]);
    expect((await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'shipped' })).statusCode).toBe(200);
    expect([await level(p.id), await level(q.id)]).toEqual([17, 19]);

    // $5 back, and 1 of the 3 cloths to the shelf.
    const r = await admin.post(`/api/admin/orders/${orderId}/refunds`, {
      amountCents: 500,
      returnLines: [{ productId: p.id, quantity: 1 }],
    });
    expect(r.statusCode, r.body).toBe(201);
    expect([await level(p.id), await level(q.id)]).toEqual([18, 19]);
    const lines = (await admin.get(`/api/admin/orders/${orderId}/stock-lines`)).json().items;
    expect(lines).toEqual([
      { productId: p.id, variantId: `var_${p.id}`, name: 'Refund Line Cloth', ordered: 3, out: 2, returned: 1 },
      { productId: q.id, variantId: `var_${q.id}`, name: 'Refund Line Mop', ordered: 1, out: 1, returned: 0 },
    ]);
    // More than the order has out is refused before any money moves.
    const tooMany = await admin.post(`/api/admin/orders/${orderId}/refunds`, {
      amountCents: 100,
      returnLines: [{ productId: p.id, quantity: 3 }],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe("Refund Line Cloth: only 2 of this order's units can be returned (asked 3).");
    expect(
      (
        await admin.post(`/api/admin/orders/${orderId}/refunds`, {
          amountCents: 100,
          returnLines: [{ productId: 'elsewhere', quantity: 1 }],
        })
      ).statusCode,
    ).toBe(400);
    const refunds = await t.db.selectFrom('refunds').select('id').where('order_id', '=', orderId).execute();
    expect(refunds).toHaveLength(1);

    // A money-only refund returns nothing; cancelling the shipped order without choosing returns nothing.
    expect((await admin.post(`/api/admin/orders/${orderId}/refunds`, { amountCents: 200 })).statusCode).toBe(201);
    expect((await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'cancelled' })).statusCode).toBe(200);
    expect([await level(p.id), await level(q.id)]).toEqual([18, 19]);
    const returned = await t.db
      .selectFrom('stock_movements')
      .select(['kind', 'quantity'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute();
    expect(returned).toHaveLength(3);
    expect(returned).toEqual(
      expect.arrayContaining([
        { kind: 'sold', quantity: -3 },
        { kind: 'sold', quantity: -1 },
        { kind: 'returned', quantity: 1 },
      ]),
    );

    // An unshipped order cancelled: every unit comes back, once; reopened, they leave again.
    const other = await paidOrder([{ productId: p.id, quantity: 2 }]);
    expect(await level(p.id)).toBe(16);
    expect((await admin.request('PATCH', `/api/admin/orders/${other}/status`, { status: 'cancelled' })).statusCode).toBe(200);
    expect(await level(p.id)).toBe(18);
    expect((await admin.request('PATCH', `/api/admin/orders/${other}/status`, { status: 'processing' })).statusCode).toBe(200);
    expect(await level(p.id)).toBe(16);
    const kinds = await t.db
      .selectFrom('stock_movements')
      .select('kind')
      .where('order_id', '=', other)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual(['sold', 'returned', 'taken']);
    expect(await ledgerCheck(p.id)).toEqual({ level: 16, copy: 16, ledger: 16 });
  });

  it('one anonymous visitor holding every scarce unit keeps them from others for 10 minutes at most', async () => {
    // Six scarce products, 44 units in all (the attack of the issue).
    const scarce = await Promise.all(
      [5, 6, 7, 8, 9, 9].map((n, i) => createProduct(t.db, { name: `Scarce ${i}`, inventory: n, priceCents: 50_000 + i })),
    );
    const hoarder = new TestClient(t.app, '10.78.0.1');
    const hoard = await checkout(
      hoarder,
      scarce.map((p) => ({ productId: p.id, quantity: p.inventory })),
    );
    expect(hoard.statusCode, hoard.body).toBe(200);
    // For now the units are in the visitor's checkout, and the shop says so, with when they may come back.
    const shopper = new TestClient(t.app, '10.78.0.2');
    const page = (await shopper.get(`/api/products/${scarce[0]!.id}`)).json();
    expect(page.product.inventory).toBe(0);
    expect(page.stock.reserved).toBe(5);
    const until = Date.parse(page.stock.reservedUntil);
    expect(until - Date.now()).toBeLessThanOrEqual(RESERVE_MS);
    expect(until - Date.now()).toBeGreaterThan(RESERVE_MS - 60_000);
    const blocked = await checkout(shopper, [{ productId: scarce[0]!.id, quantity: 1 }]);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error).toBe(INVENTORY_MESSAGES.reservedElsewhere('Scarce 0', 0, 5));
    expect(blocked.json().error).toBe("Scarce 0: the last 5 are in other shoppers' checkouts and may be back within 10 minutes");

    // Ten minutes on (the rows are aged, as time would): the visitor tries again from a fresh browser on the same address.
    const aged = (ms: number) => new Date(Date.now() - ms).toISOString();
    // What the shop has seen of its reservations, so the aging below reads as the change it is
    // (every process notices it on its next look; this test looks by hand).
    await checkShopChanges(t.db);
    await t.db
      .updateTable('stock_reservations')
      .set({ created_at: aged(RESERVE_MS + 1000), firm_until: aged(1000) })
      .where('ip', '=', '10.78.0.1')
      .execute();
    // The lapse counted out as the watcher does on its tick, before the next checkout (waiting for
    // the tick raced that checkout once on a loaded machine, as the holds test did).
    await checkShopChanges(t.db);
    const again = await checkout(new TestClient(t.app, '10.78.0.1'), [{ productId: scarce[0]!.id, quantity: 5 }]);
    expect(again.statusCode, again.body).toBe(200);
    await checkShopChanges(t.db);
    // That second checkout keeps nothing from others: the visitor's 10 minutes are used up (the shop
    // shows it within its promised second, as the caches follow the change).
    await expect
      .poll(async () => (await shopper.get(`/api/products/${scarce[0]!.id}`)).json().product.inventory, { timeout: 3000, interval: 100 })
      .toBe(5);
    const bought = await checkout(shopper, [{ productId: scarce[0]!.id, quantity: 5 }]);
    expect(bought.statusCode, bought.body).toBe(200);
    expect((await pay(shopper, bought.json().sessionId)).statusCode).toBe(303);
    expect(await level(scarce[0]!.id)).toBe(0);

    // The visitor pays late after all: the units are gone, so the payment is refunded in full with an apology.
    expect((await pay(hoarder, hoard.json().sessionId)).statusCode).toBe(303);
    const late = await t.db.selectFrom('orders').selectAll().where('id', '=', hoard.json().orderId).executeTakeFirstOrThrow();
    expect(late).toMatchObject({ payment_status: 'refunded', status: 'cancelled' });
    expect(late.stock_shortfall).toContain('Scarce 0: 5 ordered, 0 in stock');
    expect(await outbox('order-sold-out', 'ivy@example.com')).toHaveLength(1);
    // Nothing was taken for it; the other five products are untouched.
    for (const p of scarce.slice(1))
      expect(await ledgerCheck(p.id)).toEqual({ level: p.inventory, copy: p.inventory, ledger: p.inventory });
  });

  it('a real shopper buying the last units within their 10 minutes always gets them', async () => {
    const p = await createProduct(t.db, { name: 'Last Two Brushes', inventory: 2 });
    const buyer = new TestClient(t.app, nextIp());
    const res = await checkout(buyer, [{ productId: p.id, quantity: 2 }]);
    expect(res.statusCode).toBe(200);
    // Someone else cannot take them meanwhile…
    expect((await checkout(new TestClient(t.app, nextIp()), [{ productId: p.id, quantity: 1 }])).statusCode).toBe(409);
    const quote = async (c: TestClient) => (await c.post('/api/cart/quote', { lines: [{ productId: p.id, quantity: 2 }] })).json().lines[0];
    expect(await quote(new TestClient(t.app, nextIp()))).toMatchObject({ inventory: 0, insufficientStock: true });
    // …while the buyer, back from the payment page, still sees them as theirs.
    expect(await quote(buyer)).toMatchObject({ inventory: 2, insufficientStock: false });
    expect((await pay(buyer, res.json().sessionId)).statusCode).toBe(303);
    expect(await t.db.selectFrom('orders').select('payment_status').where('id', '=', res.json().orderId).executeTakeFirstOrThrow()).toEqual(
      {
        payment_status: 'paid',
      },
    );
    expect(await level(p.id)).toBe(0);
  });

  it('the level equals the ledger after 50 simultaneous checkouts, payments, refunds, cancels and adjustments', async () => {
    const products = await Promise.all([0, 1, 2].map((i) => createProduct(t.db, { name: `Busy ${i}`, inventory: 30, priceCents: 900 })));
    const ids = products.map((p) => p.id);
    // Some paid orders to refund and cancel while the rest happens.
    const paid = await Promise.all([0, 1, 2, 3, 4].map((i) => paidOrder([{ productId: ids[i % 3]!, quantity: 2 }])));
    const ops: Promise<number>[] = [];
    const status = (r: Promise<{ statusCode: number }>) => r.then((x) => x.statusCode);
    for (let i = 0; i < 50; i++) {
      const id = ids[i % 3]!;
      const kind = i % 5;
      const orderId = paid[i % paid.length]!;
      if (kind === 0 || kind === 1) {
        ops.push(
          (async () => {
            const c = new TestClient(t.app, nextIp());
            const r = await checkout(c, [{ productId: id, quantity: 1 + (i % 2) }]);
            if (r.statusCode === 200 && kind === 0) return (await pay(c, r.json().sessionId)).statusCode;
            return r.statusCode;
          })(),
        );
      } else if (kind === 2) {
        ops.push(status(adjust(id, { reason: i % 2 ? 'received' : 'damaged', quantity: 1 })));
      } else if (kind === 3) {
        const returnLines = [{ productId: ids[paid.indexOf(orderId) % 3]!, quantity: 1 }];
        ops.push(status(admin.post(`/api/admin/orders/${orderId}/refunds`, { amountCents: 1, returnLines })));
      } else if (i % 10 === 4) {
        ops.push(status(adjust(id, { reason: 'counted', quantity: 25 })));
      } else {
        const to = i % 20 === 9 ? 'cancelled' : 'processing';
        ops.push(status(admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: to })));
      }
    }
    const statuses = await Promise.all(ops);
    // Refused (a checkout for units others keep, a return of units already back, a reopening short
    // of stock) is fine; a 5xx is not.
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s < 400).length).toBeGreaterThan(25);
    for (const id of ids) {
      const check = await ledgerCheck(id);
      expect(check.level, id).toBe(check.ledger);
      expect(check.copy, id).toBe(check.ledger);
      expect(check.level, id).toBeGreaterThanOrEqual(0);
    }
  });

  it('tells the shop once per crossing of the low-stock threshold, and once when it sells out', async () => {
    const p = await createProduct(t.db, { name: 'Threshold Sponge', inventory: 12 });
    const low = () => outbox('stock-low').then((m) => m.filter((x) => x.subject.includes('Threshold Sponge')).length);
    const out = () => outbox('stock-sold-out').then((m) => m.filter((x) => x.subject.includes('Threshold Sponge')).length);
    await paidOrder([{ productId: p.id, quantity: 1 }]); // 11: above the line
    expect(await low()).toBe(0);
    // Two sales at once cross the line (at 10, the threshold) together: one e-mail.
    await Promise.all([paidOrder([{ productId: p.id, quantity: 1 }]), paidOrder([{ productId: p.id, quantity: 1 }])]); // 9
    await paidOrder([{ productId: p.id, quantity: 1 }]); // 8: still low, no new e-mail
    expect(await low()).toBe(1);
    const toOwner = await outbox('stock-low', 'owner@shop.test');
    expect(toOwner.map((m) => m.text ?? '').find((text) => text.includes('Threshold Sponge'))).toContain(
      'Threshold Sponge is down to 10, at or below its low-stock threshold of 10',
    );
    await adjust(p.id, { reason: 'received', quantity: 10 }); // 18: re-armed
    await adjust(p.id, { reason: 'damaged', quantity: 9 }); // 9: a new crossing
    expect(await low()).toBe(2);
    await adjust(p.id, { reason: 'counted', quantity: 0 });
    expect(await out()).toBe(1);
    await adjust(p.id, { reason: 'correction', quantity: 1 });
    await adjust(p.id, { reason: 'correction', quantity: -1 });
    // Back at 0 from 1: sold out again is a new crossing (it had risen above zero).
    expect(await out()).toBe(2);
    // A threshold the owner sets is not a crossing.
    expect(
      (await admin.request('PUT', `/api/admin/products/${p.id}/stock/threshold`, { lowStockThreshold: 3 })).json().stock,
    ).toMatchObject({
      lowStockThreshold: 3,
      alertState: 'out',
    });
    expect((await admin.get('/api/admin/products?stock=out&pageSize=100')).json().items.some((x: { id: string }) => x.id === p.id)).toBe(
      true,
    );
    // Lowest first: a product at 0, or one with a version at 0 (the seeded cleaner's Lemon 32 oz).
    const first = (await admin.get('/api/admin/products?stock=low&sort=stock-asc&pageSize=100')).json().items[0] as {
      inventory: number;
      lowVariants: { onHand: number }[];
    };
    expect(first.inventory === 0 || first.lowVariants.some((v) => v.onHand === 0)).toBe(true);
  });

  it('"Notify me": one request per e-mail, one e-mail each when the product is back, then done', async () => {
    const p = await createProduct(t.db, { name: 'Comeback Refill', inventory: 0 });
    const shopper = new TestClient(t.app, '10.79.0.1');
    const notify = (email: string, c = shopper) => c.post(`/api/products/${p.id}/notify`, { email });
    // A double submit at once is one request.
    const [a, b] = await Promise.all([notify('wait@example.com'), notify('WAIT@example.com ')]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect((await notify('other@example.com')).statusCode).toBe(202);
    expect((await notify('not-an-email')).statusCode).toBe(400);
    expect((await shopper.post('/api/products/no-such/notify', { email: 'x@example.com' })).statusCode).toBe(404);
    const inStock = await createProduct(t.db, { name: 'Plenty Cloth', inventory: 5 });
    expect((await shopper.post(`/api/products/${inStock.id}/notify`, { email: 'x@example.com' })).statusCode).toBe(409);

    await adjust(p.id, { reason: 'received', quantity: 3 });
    const sent = (await outbox('back-in-stock')).filter((m) => m.subject.includes('Comeback Refill'));
    expect(sent.map((m) => m.to_address).sort()).toEqual(['other@example.com', 'wait@example.com']);
    expect(sent[0]!.text).toContain(`/products/${p.id}`);
    // Done: more stock sends nothing more; selling out and coming back again has nobody waiting.
    await adjust(p.id, { reason: 'received', quantity: 1 });
    await adjust(p.id, { reason: 'counted', quantity: 0 });
    await adjust(p.id, { reason: 'received', quantity: 1 });
    expect((await outbox('back-in-stock')).filter((m) => m.subject.includes('Comeback Refill'))).toHaveLength(2);

    // Rate-limited per address, counted before anything is stored.
    const spammer = new TestClient(t.app, '10.79.0.2');
    await adjust(p.id, { reason: 'counted', quantity: 0 });
    const statuses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => notify(`s${i}@example.com`, spammer).then((r) => r.statusCode)),
    );
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const waiting = await t.db
      .selectFrom('back_in_stock_requests')
      .select('id')
      .where('product_id', '=', p.id)
      .where('notified_at', 'is', null)
      .execute();
    expect(waiting).toHaveLength(10);
  });
});
