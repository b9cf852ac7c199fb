import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { createProduct } from './seed/factories.js';
import { compiledOnce } from './compiled-once.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe(`compiledOnce on ${testDialect()}`, () => {
  it("keeps one text and runs each call with its own values, the statement's own values kept", async () => {
    await createProduct(t.db, { id: 'co-a', priceCents: 100 });
    await createProduct(t.db, { id: 'co-b', priceCents: 250 });
    let built = 0;
    const product = compiledOnce((db, v: { id: string; least: number }) => {
      built++;
      return db
        .selectFrom('products')
        .select(['id', 'price_cents'])
        .where('id', '=', v.id)
        .where('price_cents', '>=', v.least)
        .where('status', '<>', 'draft')
        .limit(1);
    });
    const run = async (v: { id: string; least: number }) => (await t.db.executeQuery(product(t.db, v))).rows;
    expect(await run({ id: 'co-a', least: 0 })).toEqual([{ id: 'co-a', price_cents: 100 }]);
    expect(await run({ id: 'co-b', least: 200 })).toEqual([{ id: 'co-b', price_cents: 250 }]);
    expect(await run({ id: 'co-a', least: 200 })).toEqual([]);
    // Inside a transaction too, with the same text.
    const inTrx = await t.db.transaction().execute(async (trx) => (await trx.executeQuery(product(trx, { id: 'co-b', least: 1 }))).rows);
    expect(inTrx).toEqual([{ id: 'co-b', price_cents: 250 }]);
    expect(built).toBe(1);
    expect(product(t.db, { id: 'x', least: 1 }).sql).toBe(product(t.db, { id: 'y', least: 2 }).sql);
  });

  it('refuses a statement that writes a value into its text instead of passing it on', () => {
    const inlined = compiledOnce((db, v: { id: string }) => db.selectFrom('products').select('id').where('id', '=', sql.lit(v.id)));
    expect(() => inlined(t.db, { id: 'co-a' })).toThrow(/not a parameter/);
  });
});
