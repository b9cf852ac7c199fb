import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { createProduct } from '../db/seed/factories.js';
import { adjustStock } from './admin.js';
import { requestBackInStock } from './back-in-stock.js';

/**
 * Two shops in one process (decision 0051): each app's stock e-mails link to its own address, the
 * one its PUBLIC_URL names, however their work interleaves. (The address was one module-wide value
 * that the last app built overwrote.)
 */
const SHOPS = { a: 'http://shop-a.test', b: 'http://shop-b.test:8080' } as const;
const OWNER = 'owner@shops.test';
const actor = { userId: null, label: 'test' };

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp({ env: { PUBLIC_URL: SHOPS.a } });
  b = await createTestApp({ env: { PUBLIC_URL: SHOPS.b } });
  for (const t of [a, b]) await t.db.updateTable('settings').set({ value: OWNER }).where('key', '=', 'contact_email').execute();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const sent = (t: TestApp, templateId: string) =>
  t.db.selectFrom('email_outbox').select(['text', 'html']).where('template_id', '=', templateId).execute();

describe(`two apps in one process on ${testDialect()}`, () => {
  it('each links its low-stock, sold-out and back-in-stock e-mails to its own address', async () => {
    const pa = await createProduct(a.db, { name: 'Shop A Sponge', inventory: 20 });
    const pb = await createProduct(b.db, { name: 'Shop B Sponge', inventory: 20 });
    // Interleaved: A, then B, then A again, each built before any of it.
    await adjustStock(a.db, pa.id, { reason: 'counted', quantity: 3 }, actor);
    await adjustStock(b.db, pb.id, { reason: 'counted', quantity: 3 }, actor);
    await adjustStock(a.db, pa.id, { reason: 'counted', quantity: 0 }, actor);
    await adjustStock(b.db, pb.id, { reason: 'counted', quantity: 0 }, actor);
    await requestBackInStock(a.db, pa.id, 'shopper-a@example.com');
    await requestBackInStock(b.db, pb.id, 'shopper-b@example.com');
    await adjustStock(a.db, pa.id, { reason: 'counted', quantity: 5 }, actor);
    await adjustStock(b.db, pb.id, { reason: 'counted', quantity: 5 }, actor);

    for (const [t, own, other, product] of [
      [a, SHOPS.a, SHOPS.b, pa],
      [b, SHOPS.b, SHOPS.a, pb],
    ] as const) {
      const [low] = await sent(t, 'stock-low');
      const [out] = await sent(t, 'stock-sold-out');
      const [back] = await sent(t, 'back-in-stock');
      expect(low?.text).toContain(`${own}/admin?tab=products&stock=low`);
      expect(out?.text).toContain(`${own}/admin?tab=products&stock=out`);
      expect(back?.text).toContain(`${own}/products/${encodeURIComponent(product.id)}`);
      for (const e of [low, out, back]) expect(`${e?.text} ${e?.html}`).not.toContain(other);
    }
  });
});
