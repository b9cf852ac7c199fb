import { CompiledQuery, type DatabaseConnection, type QueryResult, type Transaction } from 'kysely';
import { isPostgres } from './query-helpers.js';
import type { Database } from './schema.js';
import type pg from 'pg';
import { AT_COMMIT, GuardFailedAtCommit, WITH_NEXT, isGuardFailure } from './pg-commit-tail.js';
import { PreparedStatements } from './pg-statement-cache.js';

/*
 * One pooled PostgreSQL connection as the shop's Kysely driver uses it (db/pg-driver.ts, decision
 * 0050). Every value goes to PostgreSQL as a bound parameter, never in the statement's text. What
 * used to be written into one text now goes out pipelined (node-pg's `pipeline: true`): each
 * statement is a message of its own with its own Sync, sent without waiting for the answer to the
 * one before, and PostgreSQL runs them in order.
 *
 * - BEGIN waits in the connection and goes out with the transaction's first statement, in one
 *   trip; a transaction that ran nothing sends nothing.
 * - Guarded writes (`writeAtCommit`, db/pg-commit-tail.ts) wait in the connection and go out with
 *   the COMMIT, in one trip. A guard that fails aborts the transaction; the COMMIT behind it then
 *   only ends it (PostgreSQL answers ROLLBACK) and the caller gets `GuardFailedAtCommit`.
 * - Statements whose answer nobody reads (`withNext`: an advisory lock, writes that return nothing)
 *   wait in the connection and go out with the transaction's next statement, in its trip.
 * - A savepoint marks how many guarded writes were waiting: rolling back to it drops those made
 *   since, as PostgreSQL drops the rest of the work.
 * - Statements are prepared per connection under names of their own, at most `capacity` texts, the
 *   least recently used evicted and deallocated on the server with the next statement.
 *
 * - A statement marked `ONE_PLAN` (`planOnce`) outside a transaction goes in a transaction of its
 *   own, `begin; set local plan_cache_mode = force_generic_plan`, it, `commit`, in one trip: planned
 *   once per connection instead of on every execution (the pool plans for each execution's values,
 *   db/database.ts). Marked also `COMMIT_WITHOUT_WAITING` (a rate limit's count), the SET turns
 *   `synchronous_commit` off for that transaction alone.
 *
 * Without `pipeline` on the pool's clients the same messages go one after another (correct, but a
 * trip each).
 */

/**
 * Marks a compiled statement whose best plan is the same for every value (a look-up by a primary
 * key): its connection keeps one plan for it (decision 0050, "One plan for the session"). Never for a statement whose plan
 * should see its values (a search word's range of terms, a status that keeps most orders or few).
 */
export const ONE_PLAN = Symbol('one plan for every value');

/**
 * Marks a ONE_PLAN write whose last moments may be lost should PostgreSQL itself crash, harming
 * nothing: a rate limit's count. Its commit does not wait for the disk (`synchronous_commit = off`
 * for that transaction alone): the count is seen by every process at once, as any commit, and on
 * disk within PostgreSQL's WAL writer delay (200 ms by default). A checkout or a payment always
 * waits for its commit.
 */
export const COMMIT_WITHOUT_WAITING = Symbol('commit without waiting for the disk');

/**
 * `statement`, to run with one plan kept for it on PostgreSQL (see ONE_PLAN; SQLite ignores the
 * mark). `commitWithoutWaiting`: see COMMIT_WITHOUT_WAITING.
 */
export function planOnce<R>(statement: CompiledQuery<R>, options: { commitWithoutWaiting?: boolean } = {}): CompiledQuery<R> {
  return Object.assign({}, statement, { [ONE_PLAN]: true, [COMMIT_WITHOUT_WAITING]: options.commitWithoutWaiting === true });
}

const BEGIN_ONE_PLAN = 'begin; set local plan_cache_mode = force_generic_plan';
const BEGIN_ONE_PLAN_NO_WAIT = `${BEGIN_ONE_PLAN}; set local synchronous_commit = off`;

/** Marks a statement sent with the transaction's BEGIN when that has not gone out yet (`planEachOnce`). */
const WITH_BEGIN = Symbol('sent with the BEGIN');

/**
 * Plans each statement of the rest of this transaction once per connection (a generic plan), as
 * `planOnce` does for one statement outside a transaction: for the sale path's transactions (a
 * checkout, a payment), whose statements all look rows up by key, so one plan is right for every
 * value. PostgreSQL planned each of them again for its values, two thirds of its CPU per checkout
 * (docs/benchmarks.md, "CPU per checkout and per page"). The SET LOCAL goes with the BEGIN, no trip
 * of its own, and ends with the transaction. Never for a transaction with a search or a filter whose
 * best plan depends on its values. SQLite, and PostgreSQL without prepared statements, ignore it.
 */
export async function planEachOnce(trx: Transaction<Database>): Promise<void> {
  if (!isPostgres(trx)) return;
  const set = Object.assign({}, CompiledQuery.raw('set local plan_cache_mode = force_generic_plan'), { [WITH_BEGIN]: true });
  await trx.executeQuery(set);
}

export type ConnectionOptions = {
  /** Prepare statements (off behind a pooler that cannot keep them: PG_PREPARED_STATEMENTS=false). */
  prepare: boolean;
  /** Texts kept prepared per connection. */
  capacity: number;
  /** Longer texts run unnamed. */
  longest: number;
  /**
   * node-pg remembers every statement name it parsed on a connection for the connection's life; a
   * connection that has given this many names (only under churn: the shop's own texts are a few
   * hundred) is closed when released, and the pool opens a fresh one.
   */
  retireAfterNames: number;
};

/** Whether a statement carries one of the marks above (planOnce, planEachOnce, withNext, writeAtCommit). */
function marked(query: CompiledQuery, mark: symbol): boolean {
  return (query as unknown as Record<symbol, unknown>)[mark] === true;
}

type Send = () => Promise<pg.QueryResult>;
type Settled = PromiseSettledResult<pg.QueryResult>;

export class ShopPostgresConnection implements DatabaseConnection {
  private readonly statements: PreparedStatements;
  /** The transaction's BEGIN, not sent yet: it goes with the first statement (or not at all). */
  private begin: string | null = null;
  /** A transaction is open on the server (its BEGIN has gone out and no COMMIT or ROLLBACK answered). */
  private open = false;
  /** Guarded writes waiting for the COMMIT. */
  private tail: CompiledQuery[] = [];
  /** Statements whose answer nobody reads, waiting for the next statement (`withNext`). */
  private waiting: CompiledQuery[] = [];
  /** Savepoints of the open transaction, with how many guarded writes were waiting when each was made. */
  private savepoints: { name: string; tail: number }[] = [];
  /** Prepared names evicted, to deallocate with the next statement. */
  private evicted: string[] = [];
  /** Every prepared name is to be deallocated (a table changed shape under them). */
  private deallocateAll = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly options: ConnectionOptions,
  ) {
    this.statements = new PreparedStatements(options.prepare ? options.capacity : 0, options.longest);
  }

  /** Texts prepared on this connection now. */
  get preparedCount(): number {
    return this.statements.size;
  }

  private get inTransaction(): boolean {
    return this.begin !== null || this.open;
  }

  startTransaction(beginText: string): void {
    this.reset();
    this.begin = beginText;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (marked(query, WITH_BEGIN)) {
      // Without prepared statements every statement is planned for its values anyway.
      if (!this.options.prepare) return { rows: [] };
      if (this.begin !== null) {
        this.begin = `${this.begin}; ${query.sql}`;
        return { rows: [] };
      }
    }
    if (marked(query, AT_COMMIT) && this.inTransaction) {
      this.tail.push(query);
      return { rows: [] };
    }
    if (marked(query, WITH_NEXT) && this.inTransaction) {
      this.waiting.push(query);
      return { rows: [] };
    }
    // Outside a transaction only: inside one, a SET LOCAL would hold for the rest of it.
    const onePlan = marked(query, ONE_PLAN) && this.options.prepare && !this.inTransaction;
    const run = () => (onePlan ? this.runWithOnePlan(query) : this.run(query));
    try {
      return resultOf<R>(await run());
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      this.forgetPrepared();
      if (this.inTransaction) throw err;
      return resultOf<R>(await run());
    }
  }

  /** A statement, sent with what waits to go before it (the BEGIN, deallocations, `withNext` statements) in one trip. */
  private async run(query: CompiledQuery): Promise<pg.QueryResult> {
    const statement = this.sender(query);
    const before = this.pending();
    const results = await this.batch([...before.sends, statement]);
    // The first failure among those that count is the cause (PostgreSQL refuses the rest of the transaction for it).
    for (const i of before.counted) if (results[i]!.status === 'rejected') throw (results[i] as PromiseRejectedResult).reason;
    const last = results[results.length - 1]!;
    if (last.status === 'rejected') throw last.reason;
    return last.value;
  }

  /**
   * A statement planned once for every value (ONE_PLAN): the pool's connections plan each execution
   * for its values (`plan_cache_mode = force_custom_plan`, db/database.ts), which for the session's
   * three-table look-up on every request cost PostgreSQL two to four times its CPU planned once.
   * SET LOCAL holds until the COMMIT, so nothing else on the connection (nor, behind a pooler, on
   * the server connection) plans otherwise.
   */
  private async runWithOnePlan(query: CompiledQuery): Promise<pg.QueryResult> {
    const statement = this.sender(query);
    const before = this.pending();
    // BEGIN and the SET in one message (constant text: nothing of the request is in it), the statement,
    // and the COMMIT: three answers, in one trip.
    const results = await this.batch([
      ...before.sends,
      () => this.client.query(marked(query, COMMIT_WITHOUT_WAITING) ? BEGIN_ONE_PLAN_NO_WAIT : BEGIN_ONE_PLAN),
      statement,
      () => this.client.query('commit'),
    ]);
    const [begin, answer, commit] = results.slice(before.sends.length);
    // The first failure is the cause (a statement after a failed one is refused for that reason).
    for (const r of [begin!, answer!, commit!]) if (r.status === 'rejected') throw r.reason;
    return (answer as PromiseFulfilledResult<pg.QueryResult>).value;
  }

  async commit(): Promise<void> {
    const tail = this.tail;
    this.tail = [];
    this.savepoints = [];
    // A transaction that ran nothing has nothing to commit.
    if (this.begin !== null && tail.length === 0 && this.waiting.length === 0) {
      this.begin = null;
      return;
    }
    const writes = tail.map((q) => this.sender(q));
    const before = this.pending();
    const results = await this.batch([...before.sends, ...writes, () => this.client.query('commit')]);
    // Answered, the COMMIT ended the transaction (as a ROLLBACK when something before it failed).
    if (results[results.length - 1]!.status === 'fulfilled') this.open = false;
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (!failure) return;
    if (isStalePlan(failure.reason)) this.forgetPrepared();
    throw isGuardFailure(failure.reason) ? new GuardFailedAtCommit(failure.reason) : failure.reason;
  }

  async rollback(): Promise<void> {
    this.tail = [];
    this.waiting = [];
    this.savepoints = [];
    // BEGIN never sent: nothing ran, nothing to undo.
    this.begin = null;
    if (!this.open) return;
    this.open = false;
    await this.client.query('rollback');
  }

  async savepoint(name: string): Promise<void> {
    await this.executeQuery(CompiledQuery.raw(`savepoint ${identifier(name)}`));
    this.savepoints.push({ name, tail: this.tail.length });
  }

  async rollbackToSavepoint(name: string): Promise<void> {
    // Made after the savepoint (every statement that went out before them was), they would be undone: never sent.
    this.waiting = [];
    await this.executeQuery(CompiledQuery.raw(`rollback to savepoint ${identifier(name)}`));
    const i = this.savepointIndex(name);
    // The savepoint itself stays (PostgreSQL keeps it); guarded writes made since it are dropped.
    this.tail.length = this.savepoints[i]!.tail;
    this.savepoints.length = i + 1;
  }

  async releaseSavepoint(name: string): Promise<void> {
    await this.executeQuery(CompiledQuery.raw(`release savepoint ${identifier(name)}`));
    this.savepoints.length = this.savepointIndex(name);
  }

  /** Back to the pool, or closed: when it has given many names, or is left inside a transaction. */
  release(): void {
    const status = this.client.getTransactionStatus();
    const retire = this.statements.given > this.options.retireAfterNames || status === 'T' || status === 'E';
    this.reset();
    this.client.release(retire);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the shop’s PostgreSQL driver');
  }

  private reset(): void {
    this.begin = null;
    this.open = false;
    this.tail = [];
    this.waiting = [];
    this.savepoints = [];
  }

  private savepointIndex(name: string): number {
    for (let i = this.savepoints.length - 1; i >= 0; i--) if (this.savepoints[i]!.name === name) return i;
    throw new Error(`no savepoint named ${name}`);
  }

  /** How to send a statement: bound always, under its prepared name when it has one. */
  private sender(query: CompiledQuery): Send {
    const values = [...query.parameters];
    const named = this.statements.nameFor(query.sql);
    if (named?.evicted) this.evicted.push(named.evicted);
    if (!named) return () => this.client.query(query.sql, values);
    return () => this.client.query({ name: named.name, text: query.sql, values });
  }

  /**
   * What waits to go before the next statement: the BEGIN, deallocations (never inside a failed
   * transaction), and `withNext` statements; `counted`: the places of those whose failure is the
   * caller's (the BEGIN and the `withNext` statements; a deallocation's is not).
   */
  private pending(): { sends: Send[]; counted: number[] } {
    const sends: Send[] = [];
    const counted: number[] = [];
    const begin = this.begin;
    if (begin !== null) {
      counted.push(sends.length);
      sends.push(() => this.client.query(begin));
      this.begin = null;
      this.open = true;
    }
    if (this.client.getTransactionStatus() !== 'E') {
      const texts = this.deallocateAll ? ['deallocate all'] : this.evicted.map((name) => `deallocate ${name}`);
      for (const text of texts) sends.push(() => this.client.query(text));
      this.deallocateAll = false;
      this.evicted = [];
    }
    for (const query of this.waiting) {
      counted.push(sends.length);
      sends.push(this.sender(query));
    }
    this.waiting = [];
    return { sends, counted };
  }

  /**
   * Sends the messages in order and waits for every answer. Pipelined, they go out at once; each
   * has its own Sync, so one failing does not stop the others being answered (inside a transaction
   * PostgreSQL refuses them, and a COMMIT then ends it as a ROLLBACK).
   */
  private async batch(sends: Send[]): Promise<Settled[]> {
    if (this.client.pipeline) {
      // Corked, the socket takes the batch's messages in one write (a system call costs more than
      // a statement here, decision 0023); node-pg corks each query's own messages the same way.
      const socket = sends.length > 1 ? this.client.connection.stream : undefined;
      socket?.cork();
      let answers: Promise<Settled[]>;
      try {
        answers = Promise.allSettled(sends.map((send) => send()));
      } finally {
        socket?.uncork();
      }
      return answers;
    }
    const results: Settled[] = [];
    for (const send of sends) {
      try {
        results.push({ status: 'fulfilled', value: await send() });
      } catch (reason) {
        results.push({ status: 'rejected', reason });
      }
    }
    return results;
  }

  /**
   * A prepared statement's result columns are fixed when it is prepared: after a table changed
   * shape under it, PostgreSQL answers "cached plan must not change result type". The connection
   * then forgets all it prepared (new names from now on) and deallocates the old ones as soon as
   * it can (not inside the transaction the error aborted).
   */
  private forgetPrepared(): void {
    this.statements.clear();
    this.evicted = [];
    this.deallocateAll = true;
  }
}

function resultOf<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount, rows } = result;
  return {
    numAffectedRows:
      command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE' ? BigInt(rowCount ?? 0) : undefined,
    rows: (rows ?? []) as R[],
  };
}

/** A savepoint's name as a quoted identifier (names come from the code, never from a request). */
function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** PostgreSQL's answer to a prepared statement whose table changed shape under it. */
function isStalePlan(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { code?: unknown }).code === '0A000' &&
    /cached plan must not change result type/.test(String((err as { message?: unknown }).message))
  );
}
