import { afterAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateUpTo } from './migrate.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

const BEFORE = '0027-product-variants';
const THIS = '0028-unique-skus-and-reply-to';
const at = new Date(Date.now() - 3_600_000).toISOString();

/** Products as the shop held them before 0027 made their variants: each one's SKU becomes its own variant's. */
async function productsBefore0027(db: AnyDb, products: { id: string; sku: string | null }[]): Promise<void> {
  for (const p of products)
    await db
      .insertInto('products')
      .values({
        id: p.id,
        name: `The ${p.id}`,
        description: 'd',
        price_cents: 500,
        sku: p.sku,
        images: '[]',
        featured: 0,
        inventory: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
}

const setSku = (db: AnyDb, variantId: string, sku: string) =>
  db.updateTable('product_variants').set({ sku }).where('id', '=', variantId).execute();

async function objectsOf0028(db: AnyDb, postgres: boolean) {
  const index = postgres
    ? await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = 'product_variants_sku_uq'`.execute(db)
    : await sql`select 1 from sqlite_master where type = 'index' and name = 'product_variants_sku_uq'`.execute(db);
  const column = postgres
    ? await sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'email_outbox' and column_name = 'reply_to'`.execute(
        db,
      )
    : await sql`select 1 from pragma_table_info('email_outbox') where name = 'reply_to'`.execute(db);
  return { index: index.rows.length === 1, replyTo: column.rows.length === 1 };
}

describe(`migration 0028 (one SKU, one stocked item; reply-to) on ${testDialect()}`, () => {
  it('refuses, changing nothing, while two items share a SKU or one is too long, naming each; then holds one SKU per item, and is undone', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db: typed, schema, close } = openDatabase(testDb.url);
    const db = typed as unknown as AnyDb;
    const postgres = testDb.dialect === 'postgres';
    try {
      await migrateUpTo(typed, schema, '0026-saved-carts');
      // cloth's SKU is on its product row and on its own variant (0027 copies it): one item, no clash.
      await productsBefore0027(db, [
        { id: 'cloth', sku: 'CL-1' },
        { id: 'towel', sku: ' cl-1 ' },
        { id: 'mop', sku: 'MOP-2' },
        { id: 'bare', sku: null },
        { id: 'blank', sku: '' },
        { id: 'blank2', sku: '  ' },
        { id: 'long', sku: 'L'.repeat(101) },
      ]);
      await migrateUpTo(typed, schema, BEFORE);

      const refusal = migrateUpTo(typed, schema, THIS);
      await expect(refusal).rejects.toThrow(/Migration 0028 stopped, and changed nothing/);
      const message = await refusal.catch((err: Error) => err.message);
      expect(message).toContain(
        'SKU CL-1 is used by The cloth (product cloth, variant var_cloth); The towel (product towel, variant var_towel)',
      );
      expect(message).toContain('the SKU of product long has 101 characters (at most 100)');
      expect(message).toContain('the SKU of variant var_long has 101 characters (at most 100)');
      expect(message).not.toContain('MOP-2');
      expect(message).not.toContain('blank');
      expect(await objectsOf0028(db, postgres)).toEqual({ index: false, replyTo: false });
      expect(
        (
          await db
            .selectFrom('product_variants')
            .select(['id', 'sku'])
            .where('id', 'in', ['var_cloth', 'var_towel'])
            .orderBy('id')
            .execute()
        ).map((v) => v.sku),
      ).toEqual(['CL-1', ' cl-1 ']);

      // The owner gives each its own SKU; the migration then runs.
      await setSku(db, 'var_towel', 'TW-1');
      await db.updateTable('products').set({ sku: 'TW-1' }).where('id', '=', 'towel').execute();
      await setSku(db, 'var_long', 'L-1');
      await db.updateTable('products').set({ sku: 'L-1' }).where('id', '=', 'long').execute();
      expect(await migrateUpTo(typed, schema, THIS)).toEqual([THIS]);
      expect(await objectsOf0028(db, postgres)).toEqual({ index: true, replyTo: true });

      // One SKU per item, whatever its case and spaces; blank SKUs are none; a product's row and its own variant are one item.
      await expect(setSku(db, 'var_mop', ' cl-1')).rejects.toThrow();
      await setSku(db, 'var_bare', '   ');
      await db.updateTable('products').set({ sku: 'CL-1' }).where('id', '=', 'cloth').execute();
      await expect(setSku(db, 'var_mop', 'M'.repeat(101))).rejects.toThrow();
      await expect(
        db
          .updateTable('products')
          .set({ sku: 'M'.repeat(101) })
          .where('id', '=', 'mop')
          .execute(),
      ).rejects.toThrow();
      await setSku(db, 'var_mop', 'M'.repeat(100));

      // Undone: the index, the limit and the column go, and nothing else changes.
      expect(await migrateUpTo(typed, schema, BEFORE)).toEqual([THIS]);
      expect(await objectsOf0028(db, postgres)).toEqual({ index: false, replyTo: false });
      await setSku(db, 'var_towel', 'CL-1');
      await setSku(db, 'var_mop', 'M'.repeat(120));
      expect(
        (
          await db
            .selectFrom('product_variants')
            .select('sku')
            .where(sql<string>`lower(trim(sku))`, '=', 'cl-1')
            .execute()
        ).length,
      ).toBe(2);
    } finally {
      await close();
    }
  });
});
