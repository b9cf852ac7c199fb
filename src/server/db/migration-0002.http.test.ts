import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateUpTo } from './migrate.js';
import type { Database } from './schema.js';
import { searchRowsOf } from '../orders/search-terms.js';
import { orderReferenceOf } from '../../shared/schemas/orders.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const T1 = '2026-03-01T10:00:00.000Z';

/**
 * Migration 0002 files the orders that already exist with its own frozen copy of the filing rule
 * (a migration imports nothing from the app). That copy must file an order exactly as the live
 * rule (orders/search-terms.ts) did when it was written.
 */
describe(`migration 0002 (order search) on ${testDialect()}`, () => {
  it('files existing orders under the same terms as the live rule', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      expect(await migrateUpTo(db, schema, '0001-initial')).toContain('0001-initial');
      await db
        .insertInto('users')
        .values({
          id: 'u-1',
          email: 'Ada.Lovelace+shop@Example.com',
          password_hash: 'x',
          full_name: 'Ada King-Lovelace',
          role: 'client',
          created_at: T1,
          updated_at: T1,
        } as never)
        .execute();
      const orders = [
        {
          id: 'ord-aaaa1111',
          order_number: 'ORD-1001',
          email: 'Ada.Lovelace+shop@Example.com',
          user_id: 'u-1',
          shipping_address: JSON.stringify({ name: 'Ada Ünver', email: 'ship.to@post.example' }),
        },
        { id: 'ord-bbbb2222', order_number: 'ORD-1002', email: null, user_id: null, shipping_address: 'not json' },
        {
          id: 'ord-cccc3333',
          order_number: 'ORD-1003',
          email: 'zoë@example.org',
          user_id: null,
          shipping_address: JSON.stringify('a string'),
        },
      ];
      for (const o of orders) {
        await db
          .insertInto('orders')
          .values({ ...o, status: 'pending', payment_status: 'paid', created_at: T1, updated_at: T1 } as never)
          .execute();
      }
      expect(await migrateUpTo(db, schema, '0002-order-search')).toContain('0002-order-search');

      const stored = await (db as unknown as Kysely<Database>)
        .selectFrom('order_search_terms')
        .select(['term', 'order_id'])
        .orderBy('order_id')
        .orderBy('term')
        .execute();
      const live = orders
        .flatMap((o) =>
          searchRowsOf({
            id: o.id,
            order_number: o.order_number,
            email: o.email,
            shipping_address: o.shipping_address,
            user_email: o.user_id ? 'Ada.Lovelace+shop@Example.com' : null,
            full_name: o.user_id ? 'Ada King-Lovelace' : null,
          }),
        )
        // The reference with the whole order number is filed by migration 0040, later.
        .filter((r) => r.term !== orderReferenceOf(r.order_id).toLowerCase())
        .sort((a, b) => (a.order_id === b.order_id ? (a.term < b.term ? -1 : a.term > b.term ? 1 : 0) : a.order_id < b.order_id ? -1 : 1));
      expect(stored).toEqual(live);
      expect(stored.map((r) => r.term)).toEqual(
        expect.arrayContaining(['ada', 'lovelace', 'king', 'ünver', 'post.example', 'ecaa1111', 'zoë@example.org']),
      );
    } finally {
      await close();
    }
  });
});
