import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { seedDemoSubscription } from '../db/seed/subscriptions.js';
import { DEMO_REVIEWS, seedDemoReviews } from '../db/seed/reviews.js';
import { readRatingSummary } from './ratings.js';
import type { MyReview } from '../../shared/reviews.js';

/**
 * The demo shop's reviews (issue [6/8]): every one from a paid order of its product (verified,
 * naming the variant bought), published, counted in the product's stars; the same after every start.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoSubscription(t.db);
});
afterAll(async () => {
  await t?.close();
});

const demoRows = () =>
  t.db
    .selectFrom('reviews as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select([
      'r.id',
      'r.product_id',
      'r.rating',
      'r.status',
      'r.reply_text',
      'r.variant_label',
      'r.user_id',
      'o.user_id as order_user',
      'o.paid_at',
      'o.status as order_status',
      'o.shipped_at',
    ])
    .where('r.id', 'like', 'rev_demo_%')
    .orderBy('r.id')
    .execute();

describe('the demo reviews', () => {
  it('eight over four products, each from its author’s paid order of the product; ratings 3–5, two replies; the stars counted', async () => {
    expect(await seedDemoReviews(t.db)).toBe(DEMO_REVIEWS.length);
    const rows = await demoRows();
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.product_id)).size).toBe(4);
    for (const r of rows) {
      expect(r.status).toBe('published');
      expect(r.rating).toBeGreaterThanOrEqual(3);
      expect(r.rating).toBeLessThanOrEqual(5);
      expect(r.user_id).toBe(r.order_user);
      expect(r.paid_at).not.toBeNull();
      expect(r.order_status).not.toBe('cancelled');
      const line = await t.db
        .selectFrom('order_items')
        .select('id')
        .where('product_id', '=', r.product_id)
        .where('order_id', 'in', t.db.selectFrom('reviews').select('order_id').where('id', '=', r.id))
        .executeTakeFirst();
      expect(line, r.id).toBeDefined();
    }
    expect(rows.filter((r) => r.reply_text)).toHaveLength(2);
    expect(rows.find((r) => r.id === 'rev_demo_cleaner_customer')!.variant_label).toBe('Lavender, 32 oz');
    expect(await readRatingSummary(t.db, 'concentrated-cleaner')).toEqual({ count: 3, average: 4.7, stars: [0, 0, 0, 1, 2] });
    expect(await readRatingSummary(t.db, 'cloth-5-pack')).toMatchObject({ count: 2, average: 4 });
    // Shipped too long ago for a request e-mail, but for the demo subscription's order (its own fixture).
    const fortyDaysAgo = Date.now() - 40 * 86_400_000;
    for (const r of rows.filter((x) => x.id !== 'rev_demo_laundry_customer')) expect(Date.parse(r.shipped_at!)).toBeLessThan(fortyDaysAgo);
  });

  it('the same after another start: no second review or order; a review the demo customer wrote in the shop is kept, the demo one left out', async () => {
    const orders = async () => (await t.db.selectFrom('orders').select('id').where('id', 'like', 'order_seed_DEMOREV%').execute()).length;
    expect(await orders()).toBe(4);
    const customer = await t.db.selectFrom('users').select('id').where('email', '=', DEMO_CUSTOMER.email).executeTakeFirstOrThrow();
    // The customer rewrote their laundry review in the shop (a new id): the seed keeps theirs.
    await t.db.deleteFrom('reviews').where('id', '=', 'rev_demo_laundry_customer').execute();
    await t.db
      .insertInto('reviews')
      .values({
        id: 'rev_own',
        product_id: 'laundry-powder',
        author_key: `user:${customer.id}`,
        user_id: customer.id,
        email: DEMO_CUSTOMER.email,
        display_name: 'T. C.',
        order_id: null,
        rating: 2,
        title: 'Mine',
        body: 'Written in the shop by hand.',
        status: 'published',
        hidden_reason: null,
        hidden_note: null,
        hidden_at: null,
        hidden_by: null,
        reply_text: null,
        reply_at: null,
        reply_by: null,
        source: 'account',
        request_id: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        edited_at: null,
        published_at: new Date().toISOString(),
      })
      .execute();
    expect(await seedDemoReviews(t.db)).toBe(DEMO_REVIEWS.length - 1);
    expect(await orders()).toBe(4);
    expect(await demoRows()).toHaveLength(7);
    expect(await readRatingSummary(t.db, 'laundry-powder')).toMatchObject({ count: 1, average: 2 });
    expect(await readRatingSummary(t.db, 'concentrated-cleaner')).toMatchObject({ count: 3 });
  });

  it('the demo customer sees theirs in the account', async () => {
    const client = new TestClient(t.app, '10.64.0.1');
    await client.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const list = (await client.get('/api/account/reviews')).json<{ items: MyReview[] }>();
    expect(list.items.map((r) => r.id).sort()).toEqual(['rev_demo_cleaner_customer', 'rev_own']);
    expect(list.items.find((r) => r.id === 'rev_demo_cleaner_customer')).toMatchObject({
      verified: true,
      reply: { text: expect.any(String) },
    });
  });
});
