import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/query-helpers.js';

/**
 * The tables of one schema and their columns, for the migration tests. Kysely's introspector reads
 * every schema of the PostgreSQL database, and fails when another test file drops its schema while
 * it reads (the HTTP suite runs files side by side): this asks about ours alone.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function tablesOf(db: Kysely<any>, schema?: string): Promise<Map<string, string[]>> {
  const { rows } = isPostgres(db)
    ? await sql<{ table: string; column: string }>`
        select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = ${schema ?? sql`current_schema()`} order by table_name, ordinal_position`.execute(db)
    : await sql<{ table: string; column: string }>`
        select m.name as "table", p.name as "column" from sqlite_master m join pragma_table_info(m.name) p
        where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, p.cid`.execute(db);
  const tables = new Map<string, string[]>();
  for (const r of rows) tables.set(r.table, [...(tables.get(r.table) ?? []), r.column]);
  return tables;
}
