import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { ShopPostgresDialect } from './pg-driver.js';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { GuardFailedAtCommit, writeAtCommit } from './pg-commit-tail.js';

let t: TestApp;
const postgres = testDialect() === 'postgres';
const at = () => new Date().toISOString();
const setting = (key: string, value: string) => ({ key, value, description: null, created_at: at(), updated_at: at() });
const valueOf = async (key: string) => (await t.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

/** A guarded write: sets the setting to `to` only while it is `from` (else a division by zero, as the shop's guards do). */
const guardedSet = (key: string, from: string, to: string) =>
  sql`with u as (update settings set value = ${to} where key = ${key} and value = ${from} returning 1)
      select 1 / (select count(*)::integer from u)`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

// Guarded writes are PostgreSQL statements (`with … update … returning`): the shop writes them on PostgreSQL only.
describe.runIf(postgres)('guarded writes with the commit', () => {
  it('write with the transaction when the rule holds', async () => {
    await t.db.insertInto('settings').values(setting('pd-held', 'before')).execute();
    await t.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values(setting('pd-beside', 'written')).execute();
      await writeAtCommit(trx, guardedSet('pd-held', 'before', 'after'));
    });
    expect([await valueOf('pd-held'), await valueOf('pd-beside')]).toEqual(['after', 'written']);
  });

  it('roll the whole transaction back when the rule does not hold at commit, and say so', async () => {
    await t.db.insertInto('settings').values(setting('pd-moved', 'before')).execute();
    const run = t.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values(setting('pd-lost', 'written')).execute();
      await writeAtCommit(trx, guardedSet('pd-moved', 'before', 'after'));
      // Another shopper's change lands before the commit: the guarded write has not run yet.
      await t.db.updateTable('settings').set({ value: 'moved' }).where('key', '=', 'pd-moved').execute();
    });
    await expect(run).rejects.toBeInstanceOf(GuardFailedAtCommit);
    expect([await valueOf('pd-moved'), await valueOf('pd-lost')]).toEqual(['moved', undefined]);
    // A guard that fails at once fails the same way.
    await expect(t.db.transaction().execute((trx) => writeAtCommit(trx, guardedSet('pd-moved', 'before', 'x')))).rejects.toBeInstanceOf(
      GuardFailedAtCommit,
    );
  });

  it('run at once outside a transaction', async () => {
    await t.db.insertInto('settings').values(setting('pd-alone', 'before')).execute();
    await writeAtCommit(t.db, guardedSet('pd-alone', 'before', 'after'));
    expect(await valueOf('pd-alone')).toBe('after');
    await expect(writeAtCommit(t.db, guardedSet('pd-alone', 'before', 'again'))).rejects.toBeInstanceOf(GuardFailedAtCommit);
  });
});

describe.runIf(postgres)('the PostgreSQL driver', () => {
  it('sends BEGIN with the first statement: a failed first statement, a thrown error and an empty transaction leave nothing behind', async () => {
    await t.db.insertInto('settings').values(setting('pd-unique', 'one')).execute();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values(setting('pd-unique', 'two')).execute();
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values(setting('pd-thrown', 'x')).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await t.db.transaction().execute(async () => undefined);
    expect([await valueOf('pd-unique'), await valueOf('pd-thrown')]).toEqual(['one', undefined]);
    // A first statement whose value has no literal form (an array) runs bound, after a BEGIN of its own.
    const rows = await t.db.transaction().execute(async (trx) => {
      const r = await sql<{ n: number }>`select cardinality(${['a', 'b', "c'd"]}::text[]) as n`.execute(trx);
      // Both statements ran in one transaction: its start time is the same for both.
      const a = await sql<{ t: string }>`select now()::text as t`.execute(trx);
      await sql`select pg_sleep(0.01)`.execute(trx);
      const b = await sql<{ t: string }>`select now()::text as t`.execute(trx);
      return [r.rows[0]?.n, a.rows[0]?.t === b.rows[0]?.t];
    });
    expect(rows).toEqual([3, true]);
  });

  it('reads a value exactly as it was written, in the first statement and after it', async () => {
    const tricky = "it's \\ a \"test\" $1 -- ; 'x'";
    const [first, later] = await t.db.transaction().execute(async (trx) => {
      const a = await sql<{ v: string }>`select ${tricky}::text as v`.execute(trx);
      const b = await sql<{ v: string }>`select ${tricky}::text as v`.execute(trx);
      return [a.rows[0]?.v, b.rows[0]?.v];
    });
    expect([first, later]).toEqual([tricky, tricky]);
  });

  it('prepares a statement once per connection, and recovers when its table changes shape', async () => {
    await t.db.connection().execute(async (conn) => {
      await sql`create table pd_shape (a integer)`.execute(conn);
      await sql`insert into pd_shape values (1)`.execute(conn);
      const read = () =>
        conn
          .selectFrom('pd_shape' as never)
          .selectAll()
          .execute() as Promise<Record<string, unknown>[]>;
      expect(await read()).toEqual([{ a: 1 }]);
      expect(await read()).toEqual([{ a: 1 }]);
      const prepared = await sql<{
        n: number;
      }>`select count(*)::integer as n from pg_prepared_statements where statement = 'select * from "pd_shape"'`.execute(conn);
      expect(prepared.rows[0]?.n).toBe(1);
      await sql`alter table pd_shape add column b integer default 2`.execute(conn);
      expect(await read()).toEqual([{ a: 1, b: 2 }]);
      await sql`drop table pd_shape`.execute(conn);
    });
  });

  it('prepares nothing when told not to (PG_PREPARED_STATEMENTS=false, behind a pooler that cannot keep them)', async () => {
    const db = new Kysely<Record<string, never>>({
      dialect: new ShopPostgresDialect(new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 }), { prepare: false }),
    });
    try {
      for (let i = 0; i < 3; i++) await sql`select ${i}::integer as n`.execute(db);
      const prepared = await sql<{ n: number }>`select count(*)::integer as n from pg_prepared_statements`.execute(db);
      expect(prepared.rows[0]?.n).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
