import type { Kysely, RawBuilder } from 'kysely';

/*
 * Guarded writes sent with the COMMIT (decision 0023, third pass).
 *
 * A sale's stock row is locked by the update that moves it until the transaction's commit is done.
 * Sent as its own statement, the update's answer goes back to the shop, waits there for the event
 * loop (busy with other shoppers on a sale day), and only then does the COMMIT come: measured, the
 * row stayed locked 2–3 ms per checkout, twice per checkout (the reservation and the payment), and
 * every other buyer of the product queued behind it. Here such an update waits in the connection and
 * goes out with the COMMIT in one message (PostgreSQL's simple query protocol runs the statements
 * in order and stops at the first error), so the row is locked for the update and the commit's own
 * write only.
 *
 * The statement cannot be looked at before the commit, so it carries its own guard: written as
 * `with u as (update … where <the rule> returning 1) select 1 / (select count(*)::int from u)`,
 * it fails with a division by zero when the rule did not hold, the COMMIT is then never run, the
 * transaction is rolled back, and the caller gets a `GuardFailedAtCommit` to run the work again
 * the careful way (the update first, then its answer looked at).
 *
 * The simple query protocol takes no separate values: each value is written into the text as an
 * untyped literal (`E'…'`, quotes and backslashes escaped; numbers and booleans quoted the same way,
 * so each takes its type from where it stands, as a bound value does; null), only for the types the
 * shop passes. SQLite needs none of this: a statement there is a function call, and its one writer
 * holds no lock another process waits on.
 */

/** A deferred guarded write did not find its rule holding at commit: the transaction was rolled back. */
export class GuardFailedAtCommit extends Error {
  constructor(cause?: unknown) {
    super('a guarded write found its rows changed at commit; the transaction was rolled back', { cause });
  }
}

/** PostgreSQL's division_by_zero: what a guard raises. */
const GUARD_FAILED = '22012';

/** Marks a compiled statement `writeAtCommit` hands to the connection (db/pg-driver.ts keeps it for the COMMIT). */
export const AT_COMMIT = Symbol('sent with the commit');

export function isGuardFailure(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === GUARD_FAILED;
}

/** A value as a PostgreSQL literal, for the types the shop's guarded writes use. */
export function postgresLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  // Quoted like text: an untyped literal takes its type from where it stands, as a bound value does.
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return `'${String(value)}'`;
  }
  if (typeof value === 'bigint') return `'${value.toString()}'`;
  if (typeof value === 'boolean') return value ? `'true'` : `'false'`;
  if (value instanceof Date) return postgresLiteral(value.toISOString());
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new Error('a text value holds a NUL character');
    return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  }
  throw new Error(`no literal for a value of type ${typeof value}`);
}

/**
 * A compiled statement's `$n` placeholders replaced by its values as literals. Placeholders are
 * looked for outside quoted text and quoted names only.
 */
export function inlineParameters(text: string, parameters: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(text, i, c);
      out += text.slice(i, end);
      i = end;
    } else if (c === '$' && /[0-9]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /[0-9]/.test(text[j]!)) j++;
      const n = Number(text.slice(i + 1, j));
      if (n < 1 || n > parameters.length) throw new Error(`placeholder $${n} has no value`);
      out += postgresLiteral(parameters[n - 1]);
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index just past the quote closing the one at `start` (a doubled quote stays inside). */
function closingQuote(text: string, start: number, q: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === q) {
      if (text[i + 1] === q) i += 2;
      else return i + 1;
    } else i++;
  }
  throw new Error('unterminated quote in a statement');
}

/**
 * Runs a guarded write (see above, a PostgreSQL statement: callers use it on PostgreSQL only) with
 * the caller's transaction's COMMIT, or at once outside a transaction. Either way a guard that does
 * not hold ends in `GuardFailedAtCommit`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function writeAtCommit(trx: Kysely<any>, statement: RawBuilder<unknown>): Promise<void> {
  const compiled = statement.compile(trx);
  try {
    await trx.executeQuery(Object.assign({}, compiled, { [AT_COMMIT]: true }));
  } catch (err) {
    throw isGuardFailure(err) ? new GuardFailedAtCommit(err) : err;
  }
}
