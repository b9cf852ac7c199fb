import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';
import { isPostgres } from './query-helpers.js';

/** Stands for a value while the statement is compiled; each call's own value takes its place. */
const SLOT = '\u0000compiled-once:';

type Kept = { template: CompiledQuery; slots: (string | undefined)[] };

/**
 * A statement whose text never changes, only its values (a look-up by key on the sale path): Kysely
 * builds its tree and compiles it to text once per dialect, and each call puts its own values into
 * the kept text's parameters. Building and compiling a statement cost the server about as much as
 * sending it and reading its answer (docs/benchmarks.md, "CPU per checkout and per page").
 *
 * `build` must give the same statement whatever the values are: it may only pass them on to Kysely
 * as values (`where('id', '=', v.id)`), never look at them, test them or write them into the text
 * (`sql.lit`, `sql.raw`); a value it did not pass on as a parameter is refused on the first call.
 * A Kysely with plugins (none in the shop; a test's recorder) builds and compiles on every call.
 */
export function compiledOnce<V extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R>,
): (db: Kysely<Database>, values: V) => CompiledQuery<R> {
  const kept = new Map<'postgres' | 'sqlite', Kept>();
  return (db, values) => {
    // With plugins (a test's recorder), every call is built and compiled as usual, so each sees it.
    if (db.getExecutor().plugins.length > 0) return build(db, values).compile();
    const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
    let k = kept.get(dialect);
    if (!k) {
      const names = Object.keys(values);
      const stand = Object.fromEntries(names.map((n) => [n, `${SLOT}${n}`])) as V;
      const template = build(db, stand).compile();
      const slots = template.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? p.slice(SLOT.length) : undefined));
      const missing = names.filter((n) => !slots.includes(n));
      if (missing.length || template.sql.includes(SLOT))
        throw new Error(`compiledOnce: ${missing.join(', ') || 'a value'} is not a parameter of the statement`);
      k = { template, slots };
      kept.set(dialect, k);
    }
    const { template, slots } = k;
    const parameters = template.parameters.map((p, i) => {
      const name = slots[i];
      return name === undefined ? p : values[name];
    });
    return { ...template, parameters } as CompiledQuery<R>;
  };
}
