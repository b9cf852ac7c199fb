import type { CompiledQuery, Kysely, RawBuilder } from 'kysely';

/*
 * Guarded writes sent with the COMMIT (decision 0023, third pass; bound since decision 0050).
 *
 * A sale's stock row is locked by the update that moves it until the transaction's commit is done.
 * Sent as its own statement, the update's answer goes back to the shop, waits there for the event
 * loop (busy with other shoppers on a sale day), and only then does the COMMIT come: measured, the
 * row stayed locked 2–3 ms per checkout, twice per checkout (the reservation and the payment), and
 * every other buyer of the product queued behind it. Here such an update waits in the connection and
 * goes out with the COMMIT, pipelined (db/pg-connection.ts): PostgreSQL runs the update and then the
 * COMMIT without waiting for the shop, so the row is locked for the update and the commit's own
 * write only. The update is an ordinary statement: prepared, its values bound.
 *
 * The statement cannot be looked at before the commit, so it carries its own guard: written as
 * `with u as (update … where <the rule> returning 1) select 1 / (select count(*)::int from u)`,
 * it fails with a division by zero when the rule did not hold, the transaction is aborted and the
 * COMMIT behind it only ends it, and the caller gets a `GuardFailedAtCommit` to run the work again
 * the careful way (the update first, then its answer looked at). SQLite needs none of this: a
 * statement there is a function call, and its one writer holds no lock another process waits on.
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

/** Marks a statement whose answer nobody reads, sent with the transaction's next statement (`withNext`). */
export const WITH_NEXT = Symbol('sent with the next statement');

/**
 * `statement`, whose answer nobody reads (an advisory lock, writes that return nothing), to go out
 * on PostgreSQL with the transaction's next statement or its COMMIT, in the same round trip:
 * PostgreSQL runs them in the order they were made, so every later read sees the writes and every
 * later lock comes after this one, as before. Should it fail, the next statement (or the COMMIT)
 * throws its error and the transaction rolls back, as it would have. Outside a transaction, and on
 * SQLite, it runs at once.
 */
export function withNext<R>(statement: CompiledQuery<R>): CompiledQuery<R> {
  return Object.assign({}, statement, { [WITH_NEXT]: true });
}
