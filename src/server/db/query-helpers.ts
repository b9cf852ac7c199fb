import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

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
