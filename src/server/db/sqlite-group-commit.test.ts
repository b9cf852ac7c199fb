import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

type Db = { items: { id: number; n: number } };

let dir: string;
let file: string;
let db: Kysely<Db>;
let close: () => Promise<void>;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-'));
  file = path.join(dir, 'shop.db');
  const opened = openDatabase(`sqlite:${file}`);
  db = opened.db as unknown as Kysely<Db>;
  close = opened.close;
  await sql`create table items (id integer primary key, n integer not null check (n >= 0))`.execute(db);
});

afterEach(async () => {
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What another connection (another process, a backup) sees: only committed rows. */
function committedRows(): number[] {
  const other = new SQLite(file, { readonly: true });
  try {
    return (other.prepare('select id from items order by id').all() as { id: number }[]).map((r) => r.id);
  } finally {
    other.close();
  }
}

describe('SQLite group commit', () => {
  it('answers each transaction only once its group is committed', async () => {
    const seenAtAnswer: number[][] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((id) =>
        db
          .transaction()
          .execute((trx) => trx.insertInto('items').values({ id, n: 1 }).execute())
          .then(() => seenAtAnswer.push(committedRows())),
      ),
    );
    // Every answer came after its row was on disk for everyone else to read.
    expect(seenAtAnswer).toHaveLength(5);
    for (const [i, rows] of seenAtAnswer.entries()) expect(rows.length).toBeGreaterThanOrEqual(i + 1);
    expect(committedRows()).toEqual([1, 2, 3, 4, 5]);
  });

  it('rolls back only the transaction that failed, not the others in its group', async () => {
    const results = await Promise.allSettled([
      db.transaction().execute((trx) => trx.insertInto('items').values({ id: 1, n: 1 }).execute()),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 2, n: 1 }).execute();
        await trx.insertInto('items').values({ id: 3, n: -1 }).execute(); // the check fails
      }),
      db.transaction().execute((trx) => trx.insertInto('items').values({ id: 4, n: 1 }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committedRows()).toEqual([1, 4]);
  });

  it('keeps a transaction isolated from the next: each sees what was before it, none of what comes after', async () => {
    await db.insertInto('items').values({ id: 1, n: 10 }).execute();
    const take = (k: number) =>
      db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('items').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
        if (row.n < k) throw new Error('not enough');
        await trx
          .updateTable('items')
          .set({ n: row.n - k })
          .where('id', '=', 1)
          .execute();
      });
    const results = await Promise.allSettled([take(4), take(4), take(4)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect((await db.selectFrom('items').select('n').executeTakeFirstOrThrow()).n).toBe(2);
  });

  it('answers a write outside a transaction once it is committed, and reads need not wait', async () => {
    const pending = db.transaction().execute((trx) => trx.insertInto('items').values({ id: 1, n: 1 }).execute());
    await db.insertInto('items').values({ id: 2, n: 1 }).execute();
    expect(committedRows()).toEqual([1, 2]);
    await pending;
    expect((await db.selectFrom('items').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([1, 2]);
  });

  it("fails every member of a group whose commit fails, and keeps none of the group's work", async () => {
    // A foreign key checked at commit (deferred) is one way a commit fails; a full disk is another.
    await sql`create table kids (id integer primary key, item integer references items(id) deferrable initially deferred)`.execute(db);
    const kids = db as unknown as Kysely<Db & { kids: { id: number; item: number } }>;
    const results = await Promise.allSettled([
      db.transaction().execute((trx) => trx.insertInto('items').values({ id: 7, n: 1 }).execute()),
      kids.transaction().execute((trx) => trx.insertInto('kids').values({ id: 1, item: 99 }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(committedRows()).toEqual([]);
    // The next group commits as usual.
    await db.transaction().execute((trx) => trx.insertInto('items').values({ id: 9, n: 1 }).execute());
    expect(committedRows()).toEqual([9]);
  });
});

describe('SQLite checkpoints on their own thread', () => {
  it('copies the log into the database file without the writer doing it', async () => {
    const other = path.join(dir, 'log.db');
    const writer = new SQLite(other);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0'); // the writer never copies the log itself
    writer.exec('create table t (x text)');
    const checkpointer = startCheckpointer(other, 50);
    try {
      const before = fs.statSync(other).size;
      const insert = writer.prepare('insert into t values (?)');
      writer.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run('x'.repeat(200));
      })();
      // The checkpointer's thread copies the log as it comes: the file grows in steps, seen between them.
      const deadline = Date.now() + 5000;
      while (fs.statSync(other).size <= before + 200_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(fs.statSync(other).size).toBeGreaterThan(before + 200_000);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  });
});
