import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { TestClient, useAdminTestApp } from '../test/http-client.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { BACK_IN_STOCK_MESSAGES, NOTIFY_MAX_PER_ADDRESS_PER_DAY, NOTIFY_MAX_WAITING_PER_ADDRESS } from './back-in-stock.js';
import { BackInStockWaitingList } from '../../shared/schemas/inventory.js';

/**
 * "Notify me when it's back" as an attacker and an owner meet it (issue [2/8]): the same answer
 * whether an address already waits or not; a cap per target address (per day, and waiting at
 * once), counted before the work; the request is for the chosen variant, whose e-mail names it,
 * and another variant's restock sends nothing; the owner sees what shoppers wait for.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

let ip = 0;
const shopper = () => new TestClient(t.app, `10.81.${Math.floor(++ip / 250)}.${ip % 250}`);
const notify = (c: TestClient, productId: string, email: string, variantId?: string) =>
  c.post(`/api/products/${productId}/notify`, variantId ? { email, variantId } : { email });
const open = (email: string) =>
  t.db.selectFrom('back_in_stock_requests').select(['stock_item_id']).where('email', '=', email).where('notified_at', 'is', null).execute();
const outbox = (to: string) =>
  t.db
    .selectFrom('email_outbox')
    .select(['subject', 'text', 'html'])
    .where('template_id', '=', 'back-in-stock')
    .where('to_address', '=', to)
    .execute();

/** `email` already waiting for each of `products`, asked on earlier days (one a day, from two days ago back). */
async function waitingSince(email: string, products: readonly { id: string }[], tag: string): Promise<void> {
  const items = await t.db
    .selectFrom('stock_items')
    .select(['id', 'product_id'])
    .where(
      'product_id',
      'in',
      products.map((p) => p.id),
    )
    .execute();
  await t.db
    .insertInto('back_in_stock_requests')
    .values(
      items.map((item, i) => ({
        id: `bis_${tag}_${i}`,
        stock_item_id: item.id,
        product_id: item.product_id,
        email,
        created_at: new Date(Date.now() - 86_400_000 * (i + 2)).toISOString(),
        notified_at: null,
      })),
    )
    .execute();
}

describe('"Notify me": the same answer for everyone, a cap per address, the chosen variant', () => {
  it('answers a new and an already-waiting address alike', async () => {
    const p = await createProduct(t.db, { name: 'Quiet Refill', inventory: 0 });
    const first = await notify(shopper(), p.id, 'same@example.com');
    const again = await notify(shopper(), p.id, 'SAME@example.com');
    const other = await notify(shopper(), p.id, 'new@example.com');
    for (const res of [first, again, other]) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ ok: true, message: BACK_IN_STOCK_MESSAGES.saved });
    }
    expect(await open('same@example.com')).toHaveLength(1);
  });

  it('caps requests per address a day, from any network address, counted before anything is stored', async () => {
    const products = await Promise.all(
      Array.from({ length: NOTIFY_MAX_PER_ADDRESS_PER_DAY + 3 }, (_, i) => createProduct(t.db, { name: `Daily ${i}`, inventory: 0 })),
    );
    const statuses = await Promise.all(products.map((p) => notify(shopper(), p.id, 'daily@example.com')));
    const limited = statuses.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(3);
    expect(limited[0]!.json().error).toBe(BACK_IN_STOCK_MESSAGES.tooManyToday);
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(3600);
    expect(await open('daily@example.com')).toHaveLength(NOTIFY_MAX_PER_ADDRESS_PER_DAY);
  });

  it('caps the requests one address has waiting at once; repeating one of them still answers the same', async () => {
    const email = 'hoarder@example.com';
    const products = await Promise.all(
      Array.from({ length: NOTIFY_MAX_WAITING_PER_ADDRESS + 1 }, (_, i) => createProduct(t.db, { name: `Hoard ${i}`, inventory: 0 })),
    );
    // Already waiting for the cap (asked over several days).
    const waitedFor = products.slice(0, NOTIFY_MAX_WAITING_PER_ADDRESS);
    await waitingSince(email, waitedFor, 'hoard');
    const more = await notify(shopper(), products[NOTIFY_MAX_WAITING_PER_ADDRESS]!.id, email);
    expect(more.statusCode).toBe(429);
    expect(more.json().error).toBe(BACK_IN_STOCK_MESSAGES.tooManyWaiting);
    const repeat = await notify(shopper(), products[0]!.id, email);
    expect(repeat.statusCode).toBe(202);
    expect(await open(email)).toHaveLength(NOTIFY_MAX_WAITING_PER_ADDRESS);
  });

  it('keeps the waiting cap when several requests for new products arrive at the same moment', async () => {
    const email = 'racer@example.com';
    const before = NOTIFY_MAX_WAITING_PER_ADDRESS - 2;
    const products = await Promise.all(
      Array.from({ length: before + 6 }, (_, i) => createProduct(t.db, { name: `Race ${i}`, inventory: 0 })),
    );
    await waitingSince(email, products.slice(0, before), 'race');
    // Six at once from six network addresses (under the daily cap of the address): exactly two fit.
    const answers = await Promise.all(products.slice(before).map((p) => notify(shopper(), p.id, email)));
    const saved = answers.filter((r) => r.statusCode === 202).length;
    expect(answers.every((r) => r.statusCode === 202 || r.statusCode === 429)).toBe(true);
    expect(saved).toBe(2);
    expect(await open(email)).toHaveLength(before + saved);
  });

  it('is for the chosen variant: its e-mail names it, and another variant coming back sends nothing', async () => {
    const p = await createProduct(t.db, { name: 'Scented Cleaner', inventory: 0 });
    const lavender = await createVariant(t.db, p.id, { options: ['Lavender', '32 oz'], inventory: 0, position: 1 });
    const lemon = await createVariant(t.db, p.id, { options: ['Lemon', '16 oz'], inventory: 0, position: 2 });
    expect((await notify(shopper(), p.id, 'lavender@example.com', lavender)).statusCode).toBe(202);

    await admin.post(`/api/admin/variants/${lemon}/stock`, { reason: 'received', quantity: 4 });
    expect(await outbox('lavender@example.com')).toHaveLength(0);
    expect(await open('lavender@example.com')).toHaveLength(1);

    const back = await admin.post(`/api/admin/variants/${lavender}/stock`, { reason: 'received', quantity: 2 });
    expect(back.statusCode, back.body).toBe(200);
    const sent = await outbox('lavender@example.com');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toContain('Scented Cleaner — Lavender, 32 oz');
    expect(sent[0]!.text).toContain(`variant=${encodeURIComponent(lavender)}`);
  });
});

describe('what shoppers wait for, in the back office', () => {
  it('lists each awaited variant with how many wait and since when, most awaited first, by pages', async () => {
    const p = await createProduct(t.db, { name: 'Awaited Spray', inventory: 0 });
    const rose = await createVariant(t.db, p.id, { options: ['Rose', '8 oz'], inventory: 0 });
    for (const email of ['a1@example.com', 'a2@example.com', 'a3@example.com']) await notify(shopper(), p.id, email, rose);
    await notify(shopper(), p.id, 'b1@example.com');

    const res = await admin.get('/api/admin/back-in-stock?pageSize=100');
    expect(res.statusCode).toBe(200);
    const list = BackInStockWaitingList.parse(res.json());
    const mine = list.items.filter((r) => r.productId === p.id);
    expect(mine.map((r) => [r.variantLabel, r.waiting, r.onHand])).toEqual([
      ['Rose, 8 oz', 3, 0],
      [null, 1, 0],
    ]);
    expect(mine[0]!.productName).toBe('Awaited Spray');
    expect(Date.parse(mine[0]!.oldestRequestAt)).toBeLessThanOrEqual(Date.now());
    // Most awaited first across the shop; no addresses in the answer.
    const counts = list.items.map((r) => r.waiting);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(res.body).not.toContain('@example.com');
    expect(list.totalWaiting).toBe(list.items.reduce((n, r) => n + r.waiting, 0));

    const one = BackInStockWaitingList.parse((await admin.get('/api/admin/back-in-stock?page=2&pageSize=1')).json());
    expect(one.items).toHaveLength(1);
    expect(one.total).toBe(list.total);
    expect(one.totalPages).toBe(list.total);
    expect((await admin.get('/api/admin/back-in-stock?pageSize=0')).statusCode).toBe(400);
  });

  it('is the owner’s: 401 for a guest, 403 for a customer', async () => {
    expect((await shopper().get('/api/admin/back-in-stock')).statusCode).toBe(401);
    const customer = shopper();
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await customer.get('/api/admin/back-in-stock')).statusCode).toBe(403);
  });
});
