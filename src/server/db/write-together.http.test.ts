import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { createProduct } from './seed/factories.js';
import { writeTogether } from './query-helpers.js';

let t: TestApp;

const setting = (key: string, value: string, at: string) => ({ key, value, description: null, created_at: at, updated_at: at });
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe(`writeTogether on ${testDialect()}`, () => {
  it('writes every part, each with its own values (more than nine values in all), a row and its dependants together', async () => {
    const p = await createProduct(t.db, { id: 'wt-product', priceCents: 100 });
    const at = new Date().toISOString();
    await t.db.transaction().execute((trx) =>
      writeTogether(trx, [
        trx
          .insertInto('categories')
          .values({ id: 'wt-cat', name: 'Write Together', description: null, image_url: null, sort_order: 7, created_at: at }),
        // A row that references the category written by the part before it (checked once the whole statement has run).
        trx.updateTable('products').set({ category_id: 'wt-cat', updated_at: at }).where('id', '=', p.id),
        trx
          .insertInto('settings')
          .values([
            setting('wt-a', 'one', at),
            setting('wt-b', 'two', at),
            setting('wt-c', 'three', at),
            setting('wt-d', 'four', at),
            setting('wt-e', 'five', at),
          ]),
      ]),
    );
    const settings = await t.db.selectFrom('settings').select(['key', 'value']).where('key', 'like', 'wt-%').orderBy('key').execute();
    expect(settings).toEqual([
      { key: 'wt-a', value: 'one' },
      { key: 'wt-b', value: 'two' },
      { key: 'wt-c', value: 'three' },
      { key: 'wt-d', value: 'four' },
      { key: 'wt-e', value: 'five' },
    ]);
    const product = await t.db.selectFrom('products').select(['category_id']).where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(product.category_id).toBe('wt-cat');
  });

  it('writes nothing when one part fails', async () => {
    await t.db
      .insertInto('settings')
      .values(setting('wt-taken', 'first', new Date().toISOString()))
      .execute();
    await expect(
      t.db.transaction().execute((trx) =>
        writeTogether(trx, [
          trx.insertInto('settings').values(setting('wt-lost', 'x', new Date().toISOString())),
          trx.insertInto('settings').values(setting('wt-taken', 'again', new Date().toISOString())), // the key exists: unique violation
        ]),
      ),
    ).rejects.toThrow();
    const lost = await t.db.selectFrom('settings').select('key').where('key', '=', 'wt-lost').execute();
    expect(lost).toEqual([]);
  });
});
