import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import type { Database } from './schema.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

/** Rows as a shop on migration 0003 had them: a guest's paid coupon order and an open checkout. */
async function seedBefore0004(db: Kysely<Database>): Promise<void> {
  const at = new Date().toISOString();
  const later = new Date(Date.now() + 20 * 60_000).toISOString();
  await db
    .insertInto('products')
    .values({
      id: 'p1',
      name: 'Cloth',
      description: 'd',
      price_cents: 500,
      images: '[]',
      featured: 0,
      inventory: 5,
      created_at: at,
      updated_at: at,
    } as never)
    .execute();
  await db
    .insertInto('coupons')
    .values({
      id: 'c1',
      code: 'MIG10',
      discount_type: 'percentage',
      discount_value: 10,
      current_uses: 1,
      valid_from: at,
      is_active: 1,
      created_at: at,
      updated_at: at,
    } as never)
    .execute();
  for (const [id, email, status] of [
    ['o-paid', 'Pat.Buyer+x@GoogleMail.com', 'paid'],
    ['o-open', 'Sam@Example.com', 'unpaid'],
  ] as const) {
    await db
      .insertInto('orders')
      .values({
        id,
        order_number: id,
        email,
        status: 'pending',
        payment_status: status,
        guest_token_hash: `dev-${id}`,
        coupon_code: 'MIG10',
        created_at: at,
        updated_at: at,
      } as never)
      .execute();
  }
  await db
    .insertInto('coupon_redemptions')
    .values({ id: 'r1', coupon_id: 'c1', order_id: 'o-paid', device_id: 'dev-o-paid', created_at: at } as never)
    .execute();
  // A table of its time (migration 0017 replaced it with stock_reservations).
  await (db as unknown as Kysely<{ stock_holds: object }>)
    .insertInto('stock_holds')
    .values({ order_id: 'o-open', product_id: 'p1', quantity: 2, expires_at: later } as never)
    .execute();
  await db
    .insertInto('coupon_holds')
    .values({ order_id: 'o-open', coupon_code: 'MIG10', expires_at: later } as never)
    .execute();
}

describe(`migration 0004 (checkout bounds) on ${testDialect()}`, () => {
  it('backfills who holds and the normalized e-mail, and widens money to 64 bits', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      expect(await migrateUpTo(db, schema, '0003-payment-holds')).toContain('0003-payment-holds');
      await seedBefore0004(db);
      expect(await migrateToLatest(db, schema)).toContain('0004-checkout-bounds');

      expect(await db.selectFrom('coupon_redemptions').select('email_normalized').executeTakeFirstOrThrow()).toEqual({
        email_normalized: 'patbuyer@gmail.com',
      });
      expect(await db.selectFrom('coupon_holds').select(['email_normalized', 'device_id', 'user_id']).executeTakeFirstOrThrow()).toEqual({
        email_normalized: 'sam@example.com',
        device_id: 'dev-o-open',
        user_id: null,
      });
      expect(await db.selectFrom('stock_reservations').select(['device_id', 'ip']).executeTakeFirstOrThrow()).toEqual({
        device_id: 'dev-o-open',
        ip: null,
      });
      expect(
        (await db.selectFrom('orders').select('stock_shortfall').where('id', '=', 'o-paid').executeTakeFirstOrThrow()).stock_shortfall,
      ).toBeNull();

      // Past 2^31 - 1 cents (PostgreSQL's integer): stored and read back as an exact number on both engines.
      const big = 3_000_000_000;
      await db.updateTable('orders').set({ total_cents: big, subtotal_cents: big }).where('id', '=', 'o-paid').execute();
      const row = await db
        .selectFrom('orders')
        .select(['total_cents', 'subtotal_cents'])
        .where('id', '=', 'o-paid')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ total_cents: big, subtotal_cents: big });
      // count(*) arrives as a number too (int8 on PostgreSQL).
      const n = await db
        .selectFrom('orders')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      expect(n.n).toBe(2);
    } finally {
      await close();
    }
  });
});
