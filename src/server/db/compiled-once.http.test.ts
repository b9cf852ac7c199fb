import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { createProduct } from './seed/factories.js';
import { compiledOnce, insertRows, listOf, listValues } from './compiled-once.js';

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

  it('keeps a text for each set of names given, and builds a statement of more than 64 values each time', async () => {
    await createProduct(t.db, { id: 'co-c', priceCents: 300 });
    let built = 0;
    const some = compiledOnce((db, v: Record<string, string>) => {
      built++;
      const ids = Object.keys(v).filter((n) => n.startsWith('id'));
      return db
        .selectFrom('products')
        .select('id')
        .where(
          'id',
          'in',
          ids.map((n) => v[n]!),
        )
        .orderBy('id');
    });
    const run = async (v: Record<string, string>) => (await t.db.executeQuery(some(t.db, v))).rows.map((r) => r.id);
    expect(await run({ id0: 'co-a' })).toEqual(['co-a']);
    expect(await run({ id0: 'co-b', id1: 'co-c' })).toEqual(['co-b', 'co-c']);
    expect(await run({ id0: 'co-c' })).toEqual(['co-c']);
    expect(await run({ id0: 'co-a', id1: 'co-b' })).toEqual(['co-a', 'co-b']);
    expect(built).toBe(2);
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`id${i}`, i === 64 ? 'co-b' : `none-${i}`]));
    expect(await run(many)).toEqual(['co-b']);
    expect(await run(many)).toEqual(['co-b']);
    expect(built).toBe(4);
  });
});

describe('listValues and listOf', () => {
  it('give a list as numbered values and read it back in order, whatever else is named', () => {
    const values = { gift: 'g', idx: 'not in the list', ...listValues('id', ['c', 'a', 'b']), identity: 'nor this' };
    expect(values).toMatchObject({ id0: 'c', id1: 'a', id2: 'b' });
    expect(listOf(values, 'id')).toEqual(['c', 'a', 'b']);
    expect(listOf(listValues('key', []), 'key')).toEqual([]);
  });
});

describe(`insertRows on ${testDialect()}`, () => {
  const at = '2026-11-30T00:00:00.000Z';
  const read = (keys: string[]) =>
    t.db.selectFrom('rate_limits').select(['key', 'hits', 'window_started_at']).where('key', 'in', keys).orderBy('key').execute();

  it("writes each call's rows with one kept text per table, row count and columns", async () => {
    const one = insertRows(t.db, 'rate_limits', [{ key: 'ir-a', hits: 1, window_started_at: at }]).compile();
    const again = insertRows(t.db, 'rate_limits', [{ key: 'ir-b', hits: 2, window_started_at: at }]).compile();
    expect(again.query).toBe(one.query);
    expect(again.parameters).toEqual(['ir-b', 2, at]);
    const two = insertRows(t.db, 'rate_limits', [
      { key: 'ir-c', hits: 3, window_started_at: at },
      { window_started_at: at, key: 'ir-d', hits: 4 },
    ]);
    expect(two.compile().query).not.toBe(one.query);
    expect(two.compile().parameters).toEqual(['ir-c', 3, at, 'ir-d', 4, at]);
    await t.db.transaction().execute(async (trx) => {
      await insertRows(trx, 'rate_limits', [{ key: 'ir-a', hits: 1, window_started_at: at }]).execute();
      await insertRows(trx, 'rate_limits', [
        { key: 'ir-c', hits: 3, window_started_at: at },
        { key: 'ir-d', hits: 4, window_started_at: at },
      ]).execute();
    });
    expect(await read(['ir-a', 'ir-b', 'ir-c', 'ir-d'])).toEqual([
      { key: 'ir-a', hits: 1, window_started_at: at },
      { key: 'ir-c', hits: 3, window_started_at: at },
      { key: 'ir-d', hits: 4, window_started_at: at },
    ]);
  });

  it('leaves to Kysely rows whose columns differ and values that are expressions', async () => {
    const uneven = insertRows(t.db, 'rate_limits', [
      { key: 'ir-e', hits: 1, window_started_at: at },
      { key: 'ir-f', hits: undefined as unknown as number, window_started_at: at },
    ]).compile();
    // Kysely's own: the missing value is the column's default (`default`; SQLite's `null`), not a parameter.
    expect(uneven.parameters).toEqual(['ir-e', 1, at, 'ir-f', at]);
    const expression = insertRows(t.db, 'rate_limits', [{ key: 'ir-g', hits: sql<number>`2 + 3`, window_started_at: at }]);
    expect(expression.compile().sql).toContain('2 + 3');
    await expression.execute();
    expect(await read(['ir-g'])).toEqual([{ key: 'ir-g', hits: 5, window_started_at: at }]);
  });
});
