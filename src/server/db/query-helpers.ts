import { CompiledQuery, PostgresAdapter, sql, type Compilable, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { withNext } from './pg-commit-tail.js';

/** A LIKE pattern for "contains", with the wildcards in the text escaped so "100%" means the text "100%". */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "column contains text", the same on SQLite and PostgreSQL. */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${likePattern(text)} escape '\\'`;
}

type Page<T> = { items: T[]; page: number; pageSize: number; total: number; totalPages: number };

/** Runs one page of rows and the total count side by side, and shapes the answer every list uses. */
export async function pageOf<R, T>(
  rows: Promise<R[]>,
  count: Promise<{ n: number | string } | undefined>,
  { page, pageSize }: { page: number; pageSize: number },
  map: (row: R) => T,
): Promise<Page<T>> {
  const [r, c] = await Promise.all([rows, count]);
  const total = Number(c?.n ?? 0);
  return { items: r.map(map), page, pageSize, total, totalPages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** Whether this connection speaks PostgreSQL (for the few queries the two planners want shaped differently). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A write built with Kysely and not run yet (an insert, update or delete without `returning`). */
export type PendingWrite = Compilable & { execute(): Promise<unknown> };

/**
 * Runs writes that need no answer and do not read each other's rows, in the caller's transaction:
 * on PostgreSQL in one round trip (`with w1 as (insert …), w2 as (update …) select 1`), on SQLite
 * one after another (a statement there is a function call, not a round trip). PostgreSQL runs the
 * parts on one snapshot, so none may depend on what another writes, except through foreign keys,
 * which are checked once the whole statement has run. The sale-day work (decision 0023): a
 * PostgreSQL round trip cost the shop more CPU than the statement itself. Inside a transaction the
 * statement goes out with the transaction's next one (`withNext`, db/pg-commit-tail.ts): a failure
 * shows there, and rolls the transaction back as before.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function writeTogether(db: Kysely<any>, writes: PendingWrite[]): Promise<void> {
  if (writes.length === 0) return;
  if (!isPostgres(db)) {
    for (const w of writes) await w.execute();
    return;
  }
  if (writes.length === 1) {
    await db.executeQuery(withNext(writes[0]!.compile()));
    return;
  }
  const parts: string[] = [];
  const parameters: unknown[] = [];
  writes.forEach((w, i) => {
    const compiled = w.compile();
    const offset = parameters.length;
    // Kysely numbers a statement's values $1, $2, …; each part's move past the parts before it.
    const text = offset ? compiled.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) : compiled.sql;
    parts.push(`w${i} as (${text})`);
    parameters.push(...compiled.parameters);
  });
  await db.executeQuery(withNext(CompiledQuery.raw(`with ${parts.join(', ')} select 1`, parameters)));
}
