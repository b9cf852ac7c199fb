import { describe, expect, it } from 'vitest';
import { testDialect, type TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { insertReview, makePaidOrder } from '../test/reviews.js';
import { createProduct } from '../db/seed/factories.js';
import { randomString } from '../lib/ids.js';
import { REPORT_MESSAGES } from '../../shared/schemas/reports.js';
import type { ReviewFigures } from '../../shared/reviews.js';

/**
 * Issue [6/8] item 6, the figures: reviews per day of the shop's calendar (its time zone, across a
 * daylight-saving change), the published reviews' average per product, and the share of request
 * e-mails sent in the period that led to a review, each matching rows counted by hand.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const figures = async (query: string): Promise<ReviewFigures> => {
  const res = await admin.get(`/api/admin/reviews/figures${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function request(orderProductId: string, createdAt: string, o: { reviewedAt?: string; skipped?: boolean } = {}) {
  const { orderId } = await makePaidOrder(t, { productId: orderProductId });
  await t.db
    .insertInto('review_requests')
    .values({
      id: `revreq_${randomString(12)}`,
      order_id: orderId,
      email: 'figures@example.com',
      user_id: null,
      status: o.skipped ? 'skipped' : 'sent',
      skip_reason: o.skipped ? 'opted-out' : null,
      created_at: createdAt,
      first_review_at: o.reviewedAt ?? null,
    })
    .execute();
}

describe(`review figures on ${testDialect()}`, () => {
  it('count reviews per shop day (Los Angeles, the spring change inside), average by product, and the request share, as counted by hand', async () => {
    expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: 'America/Los_Angeles' })).statusCode).toBe(200);
    const a = await createProduct(t.db, { name: 'Figures A' });
    const b = await createProduct(t.db, { name: 'Figures B' });
    const c = await createProduct(t.db, { name: 'Figures C' });
    const at = (s: string) => new Date(s);
    // 2030-03-10 is the day Los Angeles moves from PST (UTC−8) to PDT (UTC−7).
    await insertReview(t, { productId: a.id, rating: 4, at: at('2030-03-09T07:59:00Z') }); // March 8 there: outside
    await insertReview(t, { productId: a.id, rating: 5, at: at('2030-03-09T08:00:00Z') }); // March 9, 00:00
    await insertReview(t, { productId: a.id, rating: 2, status: 'pending', at: at('2030-03-10T07:30:00Z') }); // March 9, 23:30
    await insertReview(t, { productId: b.id, rating: 4, at: at('2030-03-10T12:00:00Z') }); // March 10, 05:00
    await insertReview(t, { productId: b.id, rating: 1, status: 'hidden', at: at('2030-03-11T06:59:00Z') }); // March 10, 23:59
    await insertReview(t, { productId: a.id, rating: 3, at: at('2030-03-11T07:00:00Z') }); // March 11, 00:00
    await insertReview(t, { productId: c.id, rating: 5, at: at('2030-03-12T07:00:00Z') }); // March 12: outside

    await request(a.id, '2030-03-09T07:00:00Z', { reviewedAt: '2030-03-09T10:00:00Z' }); // March 8 there: outside
    await request(a.id, '2030-03-09T09:00:00Z', { reviewedAt: '2030-03-15T10:00:00Z' }); // sent, reviewed (later)
    await request(a.id, '2030-03-10T09:00:00Z'); // sent, no review
    await request(b.id, '2030-03-10T10:00:00Z', { skipped: true }); // not sent
    await request(b.id, '2030-03-11T10:00:00Z', { reviewedAt: '2030-03-11T12:00:00Z' }); // sent, reviewed
    await request(b.id, '2030-03-12T07:00:00Z', { reviewedAt: '2030-03-12T08:00:00Z' }); // March 12: outside

    const f = await figures('?from=2030-03-09&to=2030-03-11');
    expect(f.from).toBe('2030-03-09');
    expect(f.to).toBe('2030-03-11');
    expect(f.byDay).toEqual([
      { day: '2030-03-09', count: 2, averageRating: 3.5 },
      { day: '2030-03-10', count: 2, averageRating: 2.5 },
      { day: '2030-03-11', count: 1, averageRating: 3 },
    ]);
    expect(f.total).toBe(5);
    // The period's own average: its five reviews' stars summed (15) over five, not the days' averages averaged.
    expect(f.averageRating).toBe(3);
    // Each product's average as the shop shows it: its published reviews (A: 4, 5 and 3; B: 4, its hidden 1
    // left out; C: 5; A's pending 2 left out), most reviewed first, then the higher average.
    // (The demo shop's own reviewed products are listed too: these three are compared.)
    expect(f.byProduct.filter((x) => [a.id, b.id, c.id].includes(x.productId))).toEqual([
      { productId: a.id, name: 'Figures A', count: 3, average: 4 },
      { productId: c.id, name: 'Figures C', count: 1, average: 5 },
      { productId: b.id, name: 'Figures B', count: 1, average: 4 },
    ]);
    expect(f.requests).toEqual({ sent: 3, reviewed: 2, share: 0.667 });

    // One day, and a day with nothing: zeros, not gaps.
    const one = await figures('?from=2030-03-12&to=2030-03-13');
    expect(one.byDay).toEqual([
      { day: '2030-03-12', count: 1, averageRating: 5 },
      { day: '2030-03-13', count: 0, averageRating: 0 },
    ]);
    expect(one.requests).toEqual({ sent: 1, reviewed: 1, share: 1 });
    expect((await figures('?from=2031-01-01&to=2031-01-01')).requests).toEqual({ sent: 0, reviewed: 0, share: 0 });
  });

  it('cover the last 30 days when no period is given, and refuse a period that is not one', async () => {
    const f = await figures('');
    expect(f.byDay).toHaveLength(30);
    expect(f.byDay.at(-1)!.day).toBe(f.to);
    for (const [query, message] of [
      ['?from=2030-03-09', REPORT_MESSAGES.bothDates],
      ['?from=2030-03-11&to=2030-03-09', REPORT_MESSAGES.fromAfterTo],
      ['?from=2029-01-01&to=2030-03-09', REPORT_MESSAGES.tooLong],
      ['?from=2030-02-30&to=2030-03-09', REPORT_MESSAGES.dateFormat('Start date')],
      ['?from=2030-03-01&to=2030-03-09&period=day', ''],
    ] as const) {
      const res = await admin.get(`/api/admin/reviews/figures${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toContain(message);
    }
  });
});
