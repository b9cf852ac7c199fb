import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { ShopPostgresDialect } from './pg-driver.js';
import { planEachOnce, planOnce, type ConnectionOptions } from './pg-connection.js';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { recordPostgresWire, statementText, type WireMessage, type WireRecorder } from '../test/pg-wire-recorder.js';
import { GuardFailedAtCommit, withNext, writeAtCommit } from './pg-commit-tail.js';
import type { Database } from './schema.js';

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
describe.runIf(postgres)("the shop's connections", () => {
  it('plan every statement for its own values (a generic plan cannot see how much a search word finds)', async () => {
    const { rows } = await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(t.db);
    expect(rows[0]?.plan_cache_mode).toBe('force_custom_plan');
  });
});

describe.runIf(postgres)('statements planned once (planOnce: the session of every request)', () => {
  type Plans = { generic_plans: number; custom_plans: number };
  const plansOf = (conn: Kysely<Database>, text: string) =>
    sql<Plans>`select generic_plans::integer, custom_plans::integer from pg_prepared_statements where statement = ${text}`.execute(conn);
  const mode = async (conn: Kysely<Database>) =>
    (await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(conn)).rows[0]?.plan_cache_mode;

  it('keep one plan for every value, and leave every other statement planned for its values', async () => {
    await t.db.insertInto('settings').values(setting('po-one', 'kept')).execute();
    await t.db.connection().execute(async (conn) => {
      const statement = conn.selectFrom('settings').select('value').where('key', '=', '').compile();
      const values: (string | undefined)[] = [];
      for (const key of ['po-one', 'po-two', 'po-one']) {
        const { rows } = await conn.executeQuery(planOnce<{ value: string }>({ ...statement, parameters: [key] }));
        values.push(rows[0]?.value);
      }
      expect(values).toEqual(['kept', undefined, 'kept']);
      expect((await plansOf(conn, statement.sql)).rows).toEqual([{ generic_plans: 3, custom_plans: 0 }]);
      // The SET held for its own transaction only: the same text unmarked is planned for its value.
      expect(await mode(conn)).toBe('force_custom_plan');
      await conn.executeQuery({ ...statement, parameters: ['po-one'] });
      expect((await plansOf(conn, statement.sql)).rows).toEqual([{ generic_plans: 3, custom_plans: 1 }]);
    });
  });

  it('planEachOnce: every statement of the rest of the transaction planned once, the connection back to planning for values after, and an empty transaction sending nothing', async () => {
    await t.db.insertInto('settings').values(setting('po-tx', 'kept')).execute();
    await t.db.connection().execute(async (conn) => {
      const statement = conn.selectFrom('settings').select(['value', 'description']).where('key', '=', '').compile();
      const inside = await conn.transaction().execute(async (trx) => {
        await planEachOnce(trx);
        const values: (string | undefined)[] = [];
        for (const key of ['po-tx', 'po-none', 'po-tx'])
          values.push((await trx.executeQuery<{ value: string }>({ ...statement, parameters: [key] })).rows[0]?.value);
        return { values, mode: await mode(trx) };
      });
      expect(inside).toEqual({ values: ['kept', undefined, 'kept'], mode: 'force_generic_plan' });
      expect((await plansOf(conn, statement.sql)).rows).toEqual([{ generic_plans: 3, custom_plans: 0 }]);
      expect(await mode(conn)).toBe('force_custom_plan');
      // A transaction that ran nothing sends nothing, the SET included.
      await conn.transaction().execute((trx) => planEachOnce(trx));
      expect(await mode(conn)).toBe('force_custom_plan');
    });
  });

  it('commitWithoutWaiting: that one transaction commits without waiting for the disk, every other waits', async () => {
    await t.db.connection().execute(async (conn) => {
      const setting = sql<{ s: string }>`select current_setting('synchronous_commit') as s`.compile(conn);
      const without = (await conn.executeQuery(planOnce(setting, { commitWithoutWaiting: true }))).rows[0]?.s;
      const plain = (await conn.executeQuery(planOnce(setting))).rows[0]?.s;
      const after = (await conn.executeQuery(setting)).rows[0]?.s;
      expect([without, plain, after]).toEqual(['off', 'on', 'on']);
      // Inside a transaction the mark changes nothing: the transaction's own commit decides.
      const inside = await conn
        .transaction()
        .execute(async (trx) => (await trx.executeQuery(planOnce(setting, { commitWithoutWaiting: true }))).rows[0]?.s);
      expect(inside).toBe('on');
    });
  });

  it('run as an ordinary statement inside a transaction, and fail with their own error, leaving the connection usable', async () => {
    const inside = await t.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values(setting('po-inside', 'seen')).execute();
      const statement = trx.selectFrom('settings').select('value').where('key', '=', '').compile();
      const { rows } = await trx.executeQuery(planOnce<{ value: string }>({ ...statement, parameters: ['po-inside'] }));
      return [rows[0]?.value, await mode(trx)];
    });
    expect(inside).toEqual(['seen', 'force_custom_plan']);
    await t.db.connection().execute(async (conn) => {
      const failing = sql<{ n: number }>`select 1 / ${0}::integer as n`.compile(conn);
      await expect(conn.executeQuery(planOnce(failing))).rejects.toMatchObject({ code: '22012' });
      expect((await sql<{ n: number }>`select 2 as n`.execute(conn)).rows).toEqual([{ n: 2 }]);
      expect(await mode(conn)).toBe('force_custom_plan');
    });
  });
});

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
    // A first statement with an array value: bound like any other.
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

/** A Kysely of its own on one connection (the test's schema is not needed), with the driver's options. */
function ownDb(options: Partial<ConnectionOptions> = {}, url = process.env.TEST_DATABASE_URL): Kysely<Record<string, never>> {
  return new Kysely({ dialect: new ShopPostgresDialect(new pg.Pool({ connectionString: url, max: 1, pipeline: true }), options) });
}

const pidOf = async (db: Kysely<Record<string, never>>, label: string) =>
  (await sql<{ pid: number }>`select pg_backend_pid() as pid, ${label}::text as label`.execute(db)).rows[0]!.pid;

/** Whether the shop sent everything from message `from` up to message `to` before the server answered any of it. */
function sentTogether(messages: WireMessage[], from: number, to: number): boolean {
  return from >= 0 && to > from && messages.slice(from, to + 1).every((m) => m.from === 'shop');
}

/** A Kysely of its own whose connection goes through a recorder of every protocol message. */
async function recordedDb(): Promise<{ db: Kysely<Record<string, never>>; wire: WireRecorder }> {
  const direct = new URL(process.env.TEST_DATABASE_URL!);
  const wire = await recordPostgresWire({ host: direct.hostname, port: Number(direct.port || 5432) });
  direct.hostname = '127.0.0.1';
  direct.port = String(wire.port);
  return { db: ownDb({}, direct.toString()), wire };
}

describe.runIf(postgres)('the PostgreSQL driver, pipelined and bound', () => {
  it('sends BEGIN with the first statement, and a guarded write with the COMMIT, each without waiting for an answer', async () => {
    const { db, wire } = await recordedDb();
    try {
      await sql`create temp table pd_wire (key text primary key, value text)`.execute(db);
      await sql`insert into pd_wire values ('k', 'before')`.execute(db);
      const from = wire.messages.length;
      const n = await db.transaction().execute(async (trx) => {
        const r = await sql<{ n: number }>`select ${41}::integer + 1 as n`.execute(trx);
        await writeAtCommit(
          trx,
          sql`with u as (update pd_wire set value = ${'after'} where key = ${'k'} and value = ${'before'} returning 1)
              select 1 / (select count(*)::integer from u)`,
        );
        return r.rows[0]?.n;
      });
      expect(n).toBe(42);
      const m = wire.messages;
      const begin = m.findIndex((x, i) => i >= from && statementText(x) === 'begin');
      const firstExecute = m.findIndex((x, i) => i > begin && x.from === 'shop' && x.type === 'E');
      expect(sentTogether(m, begin, firstExecute)).toBe(true);
      const commit = m.findIndex((x, i) => i >= from && statementText(x) === 'commit');
      const guardedBind = m.findLastIndex((x, i) => i < commit && x.from === 'shop' && x.type === 'B');
      expect(guardedBind).toBeGreaterThan(firstExecute);
      expect(sentTogether(m, guardedBind, commit)).toBe(true);
      expect((await sql<{ value: string }>`select value from pd_wire`.execute(db)).rows).toEqual([{ value: 'after' }]);
    } finally {
      await db.destroy();
      await wire.close();
    }
  });

  it('sends a statement whose answer nobody reads (withNext) with the next statement, in order, and with the COMMIT when none follows', async () => {
    const { db, wire } = await recordedDb();
    const write = (value: string) => withNext(sql`insert into pd_next values (${value})`.compile(db));
    try {
      await sql`create temp table pd_next (value text primary key)`.execute(db);
      const from = wire.messages.length;
      const seen = await db.transaction().execute(async (trx) => {
        await trx.executeQuery(write('one'));
        await trx.executeQuery(write('two'));
        // The next statement sees both writes: they ran before it, in the order they were made.
        const read = await sql<{ values: string }>`select string_agg(value, ',' order by value) as values from pd_next`.execute(trx);
        await trx.executeQuery(write('three'));
        return read.rows[0]?.values;
      });
      expect(seen).toBe('one,two');
      const m = wire.messages;
      const begin = m.findIndex((x, i) => i >= from && statementText(x) === 'begin');
      const read = m.findIndex((x, i) => i > begin && (statementText(x) ?? '').startsWith('select string_agg'));
      // BEGIN, both writes and the read went out before any answer came back: one round trip.
      expect(sentTogether(m, begin, read)).toBe(true);
      expect(m.filter((x, i) => i > begin && i < read && x.from === 'shop' && x.type === 'B')).toHaveLength(2);
      const commit = m.findIndex((x, i) => i > read && statementText(x) === 'commit');
      const third = m.findLastIndex((x, i) => i < commit && x.from === 'shop' && x.type === 'B');
      expect(third).toBeGreaterThan(read);
      expect(sentTogether(m, third, commit)).toBe(true);
      expect((await sql<{ value: string }>`select value from pd_next order by value`.execute(db)).rows.map((r) => r.value)).toEqual([
        'one',
        'three',
        'two',
      ]);
      // Outside a transaction it runs at once.
      await db.executeQuery(write('four'));
      expect((await sql<{ n: number }>`select count(*)::integer as n from pd_next`.execute(db)).rows[0]?.n).toBe(4);
    } finally {
      await db.destroy();
      await wire.close();
    }
  });

  it('withNext: a failing statement fails the next one with its own error, and the transaction rolls back; undone by a savepoint, it is never sent', async () => {
    await t.db.insertInto('settings').values(setting('wn-taken', 'x')).execute();
    const insert = (key: string) => withNext(t.db.insertInto('settings').values(setting(key, 'x')).compile());
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert('wn-before'));
        await trx.executeQuery(insert('wn-taken'));
        await sql`select 1`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // At the COMMIT too.
    await expect(t.db.transaction().execute((trx) => trx.executeQuery(insert('wn-taken')))).rejects.toMatchObject({ code: '23505' });
    expect(await valueOf('wn-before')).toBeUndefined();
    const trx = await t.db.startTransaction().execute();
    const sp = await trx.savepoint('wn').execute();
    await sp.executeQuery(insert('wn-taken'));
    const back = await sp.rollbackToSavepoint('wn').execute();
    await back.executeQuery(insert('wn-after'));
    await back.commit().execute();
    expect(await valueOf('wn-after')).toBe('x');
  });

  it('keeps the most recently used statements prepared, and deallocates the one it evicts', async () => {
    const db = ownDb({ capacity: 3 });
    const run = (label: 'a' | 'b' | 'c') => sql`select ${1}::integer as ${sql.raw(label)}`.execute(db);
    const prepared = async () =>
      (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows
        .map((r) => / as (\w+)$/.exec(r.statement)?.[1] ?? 'list')
        .sort();
    try {
      for (const label of ['a', 'b', 'c'] as const) await run(label);
      // The list's own statement needs room: 'a', used longest ago, goes.
      expect(await prepared()).toEqual(['b', 'c', 'list']);
      await run('a');
      expect(await prepared()).toEqual(['a', 'c', 'list']);
      expect((await run('b')).rows).toEqual([{ b: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('closes a connection that has given many names, and one left inside a transaction', async () => {
    const db = ownDb({ capacity: 2, retireAfterNames: 3 });
    try {
      const first = await pidOf(db, 'one');
      expect(await pidOf(db, 'one')).toBe(first);
      // Three more texts: the fourth name given; the connection is closed when released.
      await sql`select ${1}::integer as x`.execute(db);
      await sql`select ${1}::integer as y`.execute(db);
      await sql`select ${1}::integer as z`.execute(db);
      const after = await pidOf(db, 'two');
      expect(after).not.toBe(first);
      const leftOpen = await db.connection().execute(async (c) => {
        await sql`begin`.execute(c);
        return pidOf(c as Kysely<Record<string, never>>, 'three');
      });
      expect(await pidOf(db, 'four')).not.toBe(leftOpen);
    } finally {
      await db.destroy();
    }
  });

  it('keeps savepoints: rolling back to one drops its work and the guarded writes made since; releasing one keeps them', async () => {
    await t.db.insertInto('settings').values(setting('sp-guarded', 'before')).execute();
    const trx = await t.db.startTransaction().execute();
    await trx.insertInto('settings').values(setting('sp-kept', 'x')).execute();
    const sp1 = await trx.savepoint('sp1').execute();
    await sp1.insertInto('settings').values(setting('sp-undone', 'x')).execute();
    await writeAtCommit(sp1, guardedSet('sp-guarded', 'before', 'undone'));
    const back1 = await sp1.rollbackToSavepoint('sp1').execute();
    // A statement failing inside a savepoint leaves the transaction usable once rolled back to it.
    const sp2 = await back1.savepoint('sp2').execute();
    await expect(sp2.insertInto('settings').values(setting('sp-kept', 'again')).execute()).rejects.toMatchObject({ code: '23505' });
    const back2 = await sp2.rollbackToSavepoint('sp2').execute();
    const sp3 = await back2.savepoint('sp3').execute();
    await writeAtCommit(sp3, guardedSet('sp-guarded', 'before', 'released'));
    const released = await sp3.releaseSavepoint('sp3').execute();
    await released.commit().execute();
    expect([await valueOf('sp-kept'), await valueOf('sp-undone'), await valueOf('sp-guarded')]).toEqual(['x', undefined, 'released']);
  });

  it('starts a transaction with its isolation level, sent with its first statement', async () => {
    const level = await t.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => (await sql<{ transaction_isolation: string }>`show transaction_isolation`.execute(trx)).rows[0]);
    expect(level).toEqual({ transaction_isolation: 'serializable' });
  });
});
