import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { seedLarge } from '../db/seed/large.js';
import { clearAllCaches } from '../http/micro-cache.js';

/**
 * The admin order list with 100,000 orders answers its first page and a search in under 50 ms.
 * A timing, so it runs in the `scale` project: alone, once per database, after the HTTP suites.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

describe('admin order list at 100,000 orders', () => {
  it(
    'answers the first page and a narrow search in under 50 ms, a common word in under 100 ms, a full name in under 150 ms',
    { timeout: 420_000 },
    async () => {
      await seedLarge(t.db, { products: 200, users: 5_000, orders: 100_000 }, () => undefined);
      // As autovacuum would soon after a bulk load: statistics, and the visibility map that lets
      // PostgreSQL answer from the word index without visiting the table.
      if (t.dialect === 'postgres') await sql`vacuum (analyze) orders, order_search_terms, order_items, users`.execute(t.db);
      const sample = await t.db
        .selectFrom('orders as o')
        .innerJoin('users as u', 'u.id', 'o.user_id')
        .select(['o.id', 'o.order_number', 'o.total_cents', 'u.email', 'u.full_name'])
        .orderBy('o.created_at', 'desc')
        .offset(777)
        .limit(1)
        .executeTakeFirstOrThrow();

      const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      const [today, monthAgo, yearAgo] = [day(0), day(29), day(364)];
      const median = async (url: string, runs = 13) => {
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          // Measure the database work, not the one-second page cache.
          clearAllCaches();
          const started = performance.now();
          const res = await admin.get(url);
          const ms = performance.now() - started;
          expect(res.statusCode).toBe(200);
          if (i >= 2) times.push(ms);
        }
        times.sort((a, b) => a - b);
        return times[Math.floor(times.length / 2)]!;
      };
      const figures = {
        firstPage: await median('/api/admin/orders?page=1&pageSize=20'),
        byNumber: await median(`/api/admin/orders?search=${sample.order_number}`),
        byEmail: await median(`/api/admin/orders?search=${encodeURIComponent(sample.email)}`),
        byName: await median(`/api/admin/orders?search=${encodeURIComponent(sample.full_name)}`),
        // Issue 28's kinds: a line's whole SKU (one product of 200), a city (one order in 20), an amount (exact).
        bySku: await median('/api/admin/orders?search=lrg-123'),
        byCity: await median('/api/admin/orders?search=tacoma'),
        byAmount: await median(`/api/admin/orders?search=${encodeURIComponent(`$${(sample.total_cents / 100).toFixed(2)}`)}`),
        // The payment filters (migration 0007's index): every order of the large seed is paid.
        paid: await median('/api/admin/orders?payment=paid'),
        refunded: await median('/api/admin/orders?payment=refunded'),
        abandoned: await median('/api/admin/orders?payment=abandoned'),
        // A period of the shop's days: a range of the created_at index (the seed's orders span two years).
        lastMonth: await median(`/api/admin/orders?from=${monthAgo}&to=${today}`),
      };
      // The overview reads its period, not the history: 90 days is about 12,000 of the orders and
      // 24,000 lines, each read once from the created_at and order_id indexes (about 70 ms for the
      // daily sums and 100 ms for sales by product on a loaded 2-core machine); a year, four times that.
      const reports = {
        overview90Days: await median('/api/admin/orders/overview?days=90', 7),
        overviewYear: await median(`/api/admin/orders/overview?from=${yearAgo}&to=${today}`, 5),
      };
      console.log(`admin order list, 100,000 orders on ${t.dialect} (median ms):`, figures);
      console.log(`orders overview, 100,000 orders on ${t.dialect} (median ms):`, reports);
      // A word many orders share costs what it finds (decision 0003): a common name, or a city that
      // one order in 20 ships to (5,000 orders here), is counted for the page total. Everything
      // else is an exact, narrow match and answers within 50 ms.
      // A product's SKU is on about one order in a hundred here (one product of 200, one to three
      // lines an order): 1,000 or more orders counted, like the city. Alone it answers in 10–12 ms;
      // once in CI, straight after the PostgreSQL HTTP suite, its median was 62 ms.
      const { byName, byCity, bySku, ...narrow } = figures;
      for (const ms of Object.values(narrow)) expect(ms).toBeLessThan(50);
      expect(bySku).toBeLessThan(100);
      // A customer's full name is two common words whose pair may be rare. Walking the orders newest
      // first until a page of them turned up took 17 to 101 ms depending on the name drawn; the words'
      // shared ids are now read first (admin-orders.ts), 56 to 80 ms on a quiet machine, bounded by
      // the rarer word. Making a common word cheaper still (a capped count) is open work.
      expect(byName).toBeLessThan(150);
      expect(byCity).toBeLessThan(100);
      expect(reports.overview90Days).toBeLessThan(400);
      expect(reports.overviewYear).toBeLessThan(1500);
    },
  );
});
