import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { checkShopChanges } from '../http/shop-changes.js';
import { reservedAndCounted } from '../test/stock-checks.js';
import { LAST_UNITS_FIRM_MS, LAST_UNITS_WINDOW_MS, lapseReservations, RESERVE_MS } from './reservations.js';

/**
 * Holds of a product's last units (issue [2/8], decision 0042): unpaid checkouts together, whoever
 * holds them, keep a variant's last units from other shoppers for at most LAST_UNITS_FIRM_MS in any
 * hour; a late payment refunded as sold out does not start its holder's clock again; and a payment
 * recounts holds whose firm time ran out instead of trusting the watcher to have counted them out.
 */
// The watcher looks rarely here, so a hold whose firm time ran out stays counted until a test looks.
const ENV = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000', SHOP_CHANGE_POLL_MS: '10000' };
const address = { name: 'Lena Last', address: '9 Final St', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Lena Last' };

let t: TestApp;
let admin: TestClient;
let ipCount = 0;
const fresh = () => new TestClient(t.app, `10.93.${Math.floor(++ipCount / 250)}.${ipCount % 250}`);

beforeAll(async () => {
  t = await createTestApp({ env: ENV });
  admin = new TestClient(t.app, '10.93.250.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

const checkout = (c: TestClient, productId: string, quantity: number) =>
  c.post('/api/create-checkout-session', { items: [{ productId, quantity }], customerEmail: 'lena@example.com', shippingAddress: address });
const pay = (c: TestClient, sessionId: string) => c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));
const buyable = async (productId: string) => (await fresh().get(`/api/products/${productId}`)).json().product.inventory as number;
const holdsOf = (orderIds: string[]) =>
  t.db.selectFrom('stock_reservations').selectAll().where('order_id', 'in', orderIds).orderBy('created_at').execute();
const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** How long a hold keeps its units from others, from when it was made. */
const firmFor = (h: { created_at: string; firm_until: string }) => Date.parse(h.firm_until) - Date.parse(h.created_at);

/** The orders' reservations are moved `ms` into the past, as time would, and the watcher looks. */
async function age(orderIds: string[], ms: number): Promise<void> {
  const shift = (iso: string) => new Date(Date.parse(iso) - ms).toISOString();
  for (const r of await holdsOf(orderIds)) {
    await t.db
      .updateTable('stock_reservations')
      .set({
        created_at: shift(r.created_at),
        firm_until: shift(r.firm_until),
        expires_at: shift(r.expires_at),
        released_at: r.released_at ? shift(r.released_at) : null,
      })
      .where('order_id', '=', r.order_id)
      .where('stock_item_id', '=', r.stock_item_id)
      .execute();
  }
  await checkShopChanges(t.db);
}

describe(`the last units on ${testDialect()}`, () => {
  it('five rotating addresses cannot keep the last units indefinitely: 10 minutes an hour, whoever holds them', async () => {
    const p = await createProduct(t.db, { name: 'Rare Refill Jar', inventory: 3, priceCents: 2500 });
    const orders: string[] = [];
    // The first visitor holds all three: firm for the full ten minutes.
    const first = await checkout(fresh(), p.id, 3);
    expect(first.statusCode, first.body).toBe(200);
    orders.push(first.json().orderId);
    expect(firmFor((await holdsOf([first.json().orderId]))[0]!)).toBe(RESERVE_MS);
    expect(await buyable(p.id)).toBe(0);
    // It lapses unpaid; four more addresses (fresh browsers) each try the same, one after the other.
    await age(orders, RESERVE_MS + 1000);
    for (let i = 0; i < 4; i++) {
      const next = await checkout(fresh(), p.id, 3);
      expect(next.statusCode, next.body).toBe(200);
      const [hold] = await holdsOf([next.json().orderId]);
      // The hour's ten minutes are used up: the checkout may still be paid, but keeps nobody out.
      expect(firmFor(hold!)).toBeLessThanOrEqual(0);
      expect(hold!.counted).toBe(0);
      expect(await buyable(p.id)).toBe(3);
      orders.push(next.json().orderId);
      await age(orders, 60_000);
    }
    expect(await reservedAndCounted(t.db, p.id)).toEqual({ reserved: 0, counted: 0 });
    // A real shopper buys meanwhile.
    const buyer = fresh();
    const bought = await checkout(buyer, p.id, 1);
    expect(bought.statusCode).toBe(200);
    expect((await pay(buyer, bought.json().sessionId)).statusCode).toBe(303);
    // An hour later the last units may be held firm again.
    await age([...orders, bought.json().orderId], LAST_UNITS_WINDOW_MS);
    const later = await checkout(fresh(), p.id, 2);
    expect(later.statusCode).toBe(200);
    expect(firmFor((await holdsOf([later.json().orderId]))[0]!)).toBe(RESERVE_MS);
    expect(await buyable(p.id)).toBe(0);
  });

  it('a hold that ends in a sale does not use the last units’ time; plentiful stock is not bounded', async () => {
    const p = await createProduct(t.db, { name: 'Paid Quickly Jar', inventory: 4, priceCents: 2500 });
    const buyer = fresh();
    const a = (await checkout(buyer, p.id, 2)).json();
    await age([a.orderId], RESERVE_MS - 60_000);
    expect((await pay(buyer, a.sessionId)).statusCode).toBe(303);
    const b = await checkout(fresh(), p.id, 2);
    expect(firmFor((await holdsOf([b.json().orderId]))[0]!)).toBe(RESERVE_MS);

    // A product with plenty (far above its threshold of 10): each new address still gets its ten minutes.
    const plenty = await createProduct(t.db, { name: 'Plenty Jar', inventory: 100 });
    const first = (await checkout(fresh(), plenty.id, 5)).json();
    await age([first.orderId], RESERVE_MS + 1000);
    const second = (await checkout(fresh(), plenty.id, 5)).json();
    expect(firmFor((await holdsOf([second.orderId]))[0]!)).toBe(RESERVE_MS);
  });

  it('rotating addresses at once: the last units are held firm together for ten minutes at most, then not at all', async () => {
    const p = await createProduct(t.db, { name: 'Burst Jar', inventory: 5, priceCents: 1500 });
    const wave = () => Promise.all(Array.from({ length: 8 }, () => checkout(fresh(), p.id, 1)));
    const first = await wave();
    const ok = first.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(5);
    expect(first.filter((r) => r.statusCode === 409)).toHaveLength(3);
    const firstIds = ok.map((r) => r.json().orderId as string);
    const held = await holdsOf(firstIds);
    // Each is firm for its ten minutes at most, and they run side by side: the spans overlap, so
    // together they keep the units for about ten minutes (a span starts when its request did).
    expect(held.every((h) => firmFor(h) > 0 && firmFor(h) <= LAST_UNITS_FIRM_MS)).toBe(true);
    const lastStart = Math.max(...held.map((h) => Date.parse(h.created_at)));
    expect(Math.min(...held.map((h) => Date.parse(h.firm_until)))).toBeGreaterThan(lastStart);
    expect(await reservedAndCounted(t.db, p.id)).toEqual({ reserved: 5, counted: 5 });
    expect(await buyable(p.id)).toBe(0);

    // They lapse unpaid; eight new addresses try at once: none keeps anything from anyone.
    await age(firstIds, RESERVE_MS + 1000);
    const second = await wave();
    expect(second.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const soft = await holdsOf(second.map((r) => r.json().orderId as string));
    expect(soft.every((h) => h.counted === 0 && firmFor(h) <= 0)).toBe(true);
    expect(await reservedAndCounted(t.db, p.id)).toEqual({ reserved: 0, counted: 0 });
    expect(await buyable(p.id)).toBe(5);
    // The first to pay gets the unit.
    const payer = second[3]!.json();
    expect((await pay(new TestClient(t.app, '10.93.251.1'), payer.sessionId)).statusCode).toBe(303);
    expect(await orderRow(payer.orderId)).toMatchObject({ payment_status: 'paid', stock_shortfall: null });
  });

  it('a late payment refunded as sold out does not give its holder a fresh ten minutes', async () => {
    // Threshold 0: only a hold of the very last unit is weighed, so this checks the holder's own clock.
    const p = await createProduct(t.db, { name: 'Twice Late Jar', inventory: 2, priceCents: 1800 });
    await t.db.updateTable('stock_items').set({ low_stock_threshold: 0 }).where('product_id', '=', p.id).execute();
    const lateIp = '10.93.252.1';
    const late = new TestClient(t.app, lateIp);
    const a = (await checkout(late, p.id, 1)).json();
    await age([a.orderId], RESERVE_MS + 60_000);
    const buyer = fresh();
    const b = (await checkout(buyer, p.id, 2)).json();
    expect((await pay(buyer, b.sessionId)).statusCode).toBe(303);
    expect((await pay(late, a.sessionId)).statusCode).toBe(303);
    expect(await orderRow(a.orderId)).toMatchObject({ payment_status: 'refunded', status: 'cancelled' });
    // Its reservation ended; the row stays for the holder's window.
    const [ended] = await holdsOf([a.orderId]);
    expect(ended).toMatchObject({ counted: 0 });
    expect(ended!.released_at).not.toBeNull();

    // Stock comes back; the same address checks out again from a fresh browser.
    expect((await admin.post(`/api/admin/products/${p.id}/stock`, { reason: 'received', quantity: 2 })).statusCode).toBe(200);
    const again = await checkout(new TestClient(t.app, lateIp), p.id, 1);
    expect(again.statusCode, again.body).toBe(200);
    const [hold] = await holdsOf([again.json().orderId]);
    // The holder's ten minutes started with the first checkout, eleven minutes ago: nothing left.
    expect(firmFor(hold!)).toBeLessThanOrEqual(0);
  });

  it('a payment after its hold lapsed recounts holds whose time ran out, instead of being refunded for a free unit', async () => {
    const p = await createProduct(t.db, { name: 'Recounted Jar', inventory: 2, priceCents: 1800 });
    await t.db.updateTable('stock_items').set({ low_stock_threshold: 0 }).where('product_id', '=', p.id).execute();
    const late = fresh();
    const a = (await checkout(late, p.id, 1)).json();
    await age([a.orderId], RESERVE_MS + 1000);
    // Another shopper holds both units; their ten minutes run out, and the watcher has not looked yet.
    const other = fresh();
    const b = (await checkout(other, p.id, 2)).json();
    await t.db
      .updateTable('stock_reservations')
      .set({ firm_until: new Date(Date.now() - 1000).toISOString() })
      .where('order_id', '=', b.orderId)
      .execute();
    expect(await reservedAndCounted(t.db, p.id)).toEqual({ reserved: 2, counted: 2 });
    // The late payer pays first: the units are on sale again, so they get one.
    expect((await pay(late, a.sessionId)).statusCode).toBe(303);
    expect(await orderRow(a.orderId)).toMatchObject({ payment_status: 'paid', stock_shortfall: null });
    expect(await reservedAndCounted(t.db, p.id)).toEqual({ reserved: 0, counted: 0 });
    // The other pays after: one unit is left for two, so that payment is refunded; nothing is oversold.
    expect((await pay(other, b.sessionId)).statusCode).toBe(303);
    expect(await orderRow(b.orderId)).toMatchObject({
      payment_status: 'refunded',
      stock_shortfall: 'Recounted Jar: 2 ordered, 1 in stock',
    });
    const level = await t.db.selectFrom('stock_items').select('on_hand').where('product_id', '=', p.id).executeTakeFirstOrThrow();
    expect(Number(level.on_hand)).toBe(1);
  });

  it.skipIf(testDialect() !== 'postgres')(
    'a checkout short of units while the watcher is counting out the hold that keeps them waits for it, and gets them',
    async () => {
      const p = await createProduct(t.db, { name: 'Watched Jar', inventory: 2, priceCents: 1800 });
      await t.db.updateTable('stock_items').set({ low_stock_threshold: 0 }).where('product_id', '=', p.id).execute();
      const a = (await checkout(fresh(), p.id, 2)).json();
      await t.db
        .updateTable('stock_reservations')
        .set({ firm_until: new Date(Date.now() - 1000).toISOString() })
        .where('order_id', '=', a.orderId)
        .execute();
      // The watcher's count of lapsed holds, caught between locking the hold and committing (held open 300 ms).
      let locked!: () => void;
      const holding = new Promise<void>((r) => (locked = r));
      const watcher = t.db.transaction().execute(async (trx) => {
        await trx.selectFrom('stock_reservations').select('order_id').where('order_id', '=', a.orderId).forUpdate().execute();
        locked();
        await new Promise((r) => setTimeout(r, 300));
        await lapseReservations(trx, new Date());
      });
      await holding;
      const res = await checkout(fresh(), p.id, 2);
      await watcher;
      expect(res.statusCode, res.body).toBe(200);
      expect(await reservedAndCounted(t.db, p.id)).toEqual({ reserved: 2, counted: 2 });
    },
  );
});
