import type { Compilable, CompiledQuery, InsertObject, Kysely } from 'kysely';
import type { Database } from './schema.js';
import { isPostgres, type PendingWrite } from './query-helpers.js';

/** Stands for a value while the statement is compiled; each call's own value takes its place. */
const SLOT = '\u0000compiled-once:';

type Kept = { template: CompiledQuery; slots: (string | undefined)[] };

/** A statement of more values (or an insert of more rows) than this is built each time: its texts are not kept. */
const MOST_KEPT = 64;

/** The dialect a statement's kept text is for, or null where texts are not kept (a Kysely with plugins: a test's recorder). */
function keptDialect(db: Kysely<Database>): 'postgres' | 'sqlite' | null {
  if (db.getExecutor().plugins.length > 0) return null;
  return isPostgres(db) ? 'postgres' : 'sqlite';
}

/** A list given to a compiledOnce statement as the values `${name}0`, `${name}1`, …: its length shapes the statement. */
export function listValues(name: string, list: readonly string[]): Record<string, string> {
  return Object.fromEntries(list.map((item, i) => [`${name}${i}`, item]));
}

/** In a compiledOnce build, the list listValues gave under `name`, in its order. */
export function listOf(values: Record<string, string>, name: string): string[] {
  const item = new RegExp(`^${name}\\d+$`);
  return Object.keys(values)
    .filter((key) => item.test(key))
    .map((key) => values[key]!);
}

/**
 * A statement whose text never changes, only its values (a look-up by key on the sale path): Kysely
 * builds its tree and compiles it to text once per dialect, and each call puts its own values into
 * the kept text's parameters. Building and compiling a statement cost the server about as much as
 * sending it and reading its answer (docs/benchmarks.md, "CPU per checkout and per page").
 *
 * `build` must give the same statement whatever the values are: it may only pass them on to Kysely
 * as values (`where('id', '=', v.id)`), never look at them, test them or write them into the text
 * (`sql.lit`, `sql.raw`); a value it did not pass on as a parameter is refused on the first call.
 * It may shape the statement by which values are given, their names (`'userId' in v`, or `id0`,
 * `id1`, … for a list): a text is kept for each set of names, up to MOST_KEPT names. A Kysely with
 * plugins (none in the shop; a test's recorder) builds and compiles on every call.
 */
export function compiledOnce<V extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R>,
): (db: Kysely<Database>, values: V) => CompiledQuery<R> {
  const kept = new Map<string, Kept>();
  return (db, values) => {
    // With plugins (a test's recorder), every call is built and compiled as usual, so each sees it.
    const names = Object.keys(values);
    const dialect = keptDialect(db);
    if (!dialect || names.length > MOST_KEPT) return build(db, values).compile();
    const key = `${dialect}:${names.join(',')}`;
    let k = kept.get(key);
    if (!k) {
      const stand = Object.fromEntries(names.map((n) => [n, `${SLOT}${n}`])) as V;
      const template = build(db, stand).compile();
      const slots = template.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? p.slice(SLOT.length) : undefined));
      const missing = names.filter((n) => !slots.includes(n));
      if (missing.length || template.sql.includes(SLOT))
        throw new Error(`compiledOnce: ${missing.join(', ') || 'a value'} is not a parameter of the statement`);
      k = { template, slots };
      kept.set(key, k);
    }
    const { template, slots } = k;
    const parameters = template.parameters.map((p, i) => {
      const name = slots[i];
      return name === undefined ? p : values[name];
    });
    return { ...template, parameters } as CompiledQuery<R>;
  };
}

/** Insert texts by dialect, table, row count and columns; null where Kysely's text did not take the rows' values in order. */
const insertTexts = new Map<string, CompiledQuery | null>();

const isPlainValue = (v: unknown) => typeof v !== 'function' && !(v !== null && typeof v === 'object' && 'toOperationNode' in v);

/**
 * `db.insertInto(table).values(rows)`, not run yet (a PendingWrite), with the statement's text kept
 * by its shape: the table, the number of rows and their columns. Kysely builds and compiles each
 * shape once per dialect; later inserts of that shape only lay out their values. An insert builds a
 * larger tree than a look-up (each value is a node), and the sale path writes seven of them per
 * checkout (docs/benchmarks.md).
 *
 * Only plain values are kept by shape: rows whose columns differ (a value left undefined in one
 * row), or a value that is an expression, are built by Kysely as usual, and so is every insert on a
 * Kysely with plugins (a test's recorder). The first text of a shape is checked to take exactly
 * the rows' values, row by row, in the first row's column order; a shape whose text does not is
 * never kept.
 */
export function insertRows<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: readonly InsertObject<Database, T>[],
): PendingWrite {
  const built = () => db.insertInto(table).values(rows as never);
  const first = rows[0] as Record<string, unknown> | undefined;
  const dialect = keptDialect(db);
  if (!first || !dialect || rows.length > MOST_KEPT) return built();
  const columns = Object.keys(first).filter((c) => first[c] !== undefined);
  const values: unknown[] = [];
  for (const row of rows as readonly Record<string, unknown>[]) {
    let defined = 0;
    for (const c in row) if (row[c] !== undefined) defined++;
    if (defined !== columns.length) return built();
    for (const c of columns) {
      const v = row[c];
      if (v === undefined || !isPlainValue(v)) return built();
      values.push(v);
    }
  }
  const key = `${dialect}:${table}:${rows.length}:${columns.join(',')}`;
  let template = insertTexts.get(key);
  if (template === undefined) {
    const compiled = built().compile();
    const same = compiled.parameters.length === values.length && compiled.parameters.every((p, i) => p === values[i]);
    template = same ? compiled : null;
    insertTexts.set(key, template);
  }
  if (template === null) return built();
  const compiled = { ...template, parameters: values } as CompiledQuery;
  return { compile: () => compiled, execute: () => db.executeQuery(compiled) } as PendingWrite;
}
