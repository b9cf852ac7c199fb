import {
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { AT_COMMIT, GuardFailedAtCommit, inlineParameters, isGuardFailure } from './pg-commit-tail.js';

/*
 * The shop's PostgreSQL driver for Kysely (decision 0023, third pass). Kysely's own sends every
 * statement unnamed, so PostgreSQL parses and plans it again each time: measured with pgbench on
 * this machine, a one-row select runs 2.3× as often per second prepared as unnamed, and on a sale
 * day the database's CPU, not the shop's, ran out first (6.5 ms of it per whole checkout, some 20
 * statements). Here:
 *
 * - each connection prepares a statement the first time it runs its text (a name of its own,
 *   `s1`, `s2`, … per connection), and later runs only bind and execute: PostgreSQL keeps the
 *   plan (a generic one once it has proved no worse). At most PREPARED_PER_CONNECTION texts per
 *   connection are prepared (the shop's statements are a few hundred; lists with many values make
 *   more), past that they run unnamed as before;
 * - BEGIN is not a round trip of its own: it goes out with the transaction's first statement, in
 *   one message (that statement then runs unprepared, its values written in as literals; one whose
 *   values have no literal form runs after a BEGIN of its own, as before);
 * - writes `writeAtCommit` hands over (db/pg-commit-tail.ts) wait in the connection and go out
 *   with the COMMIT in one message.
 *
 * Behind a connection pooler that hands a session's statements to other server connections
 * (PgBouncer in transaction mode before 1.21), set PG_PREPARED_STATEMENTS=false: statements then
 * run unnamed, as Kysely's own driver sends them.
 *
 * A prepared statement's result columns are fixed when it is prepared: should a table change under
 * it (a migration while the process runs), PostgreSQL answers "cached plan must not change result
 * type"; the connection then forgets all it prepared and, outside a transaction, runs the
 * statement once more.
 */

/** Texts prepared per connection, at most. */
export const PREPARED_PER_CONNECTION = 400;

/** Longer texts run unnamed (a one-off import or a long list of values is not worth keeping). */
const LONGEST_PREPARED = 8000;

export class ShopPostgresDialect extends PostgresDialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly options: { prepare: boolean } = { prepare: true },
  ) {
    super({ pool });
  }

  override createDriver(): Driver {
    return new ShopPostgresDriver(this.pool, this.options.prepare);
  }
}

class ShopPostgresConnection implements DatabaseConnection {
  /** Statement text → its prepared name on this connection. */
  readonly prepared = new Map<string, string>();
  /** Names given so far (never reused, even after a forget). */
  private named = 0;
  /** Guarded writes waiting for the COMMIT, as text with their values written in. */
  tail: string[] = [];
  /** Between BEGIN and its end: outside a transaction a guarded write runs at once (it is its own commit). */
  inTransaction = false;
  /** BEGIN not sent yet: it goes with the transaction's first statement (or its COMMIT), in one message. */
  beginPending = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly prepare: boolean,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if ((query as { [AT_COMMIT]?: boolean })[AT_COMMIT] && this.inTransaction) {
      this.tail.push(inlineParameters(query.sql, query.parameters));
      return { rows: [] };
    }
    if (this.beginPending) {
      this.beginPending = false;
      const first = inlinedOrNull(query);
      if (first !== null) return resultOf<R>(lastOf(await this.client.query<R & pg.QueryResultRow>(`begin;\n${first}`)));
      await this.client.query('begin');
    }
    try {
      return await this.run<R>(query);
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      await this.forgetPrepared();
      if (this.inTransaction) throw err;
      return this.run<R>(query);
    }
  }

  private async run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = [...query.parameters];
    const name = this.nameFor(query.sql);
    const result = name
      ? await this.client.query<R & pg.QueryResultRow>({ name, text: query.sql, values })
      : await this.client.query<R & pg.QueryResultRow>(query.sql, values);
    return resultOf<R>(result);
  }

  /** The prepared name for a text, preparing it from now on while there is room. */
  private nameFor(text: string): string | undefined {
    const known = this.prepared.get(text);
    if (known) return known;
    if (!this.prepare || this.prepared.size >= PREPARED_PER_CONNECTION || text.length > LONGEST_PREPARED) return undefined;
    const name = `s${++this.named}`;
    this.prepared.set(text, name);
    return name;
  }

  async forgetPrepared(): Promise<void> {
    this.prepared.clear();
    const c = (this.client as unknown as { connection?: { parsedStatements?: object; submittedNamedStatements?: object } }).connection;
    if (c) {
      c.parsedStatements = {};
      c.submittedNamedStatements = {};
    }
    // Inside a transaction (aborted by the stale answer) the names are deallocated once it ended.
    if (!this.inTransaction) await this.client.query('deallocate all');
    else this.stale = true;
  }

  /** Names prepared before a forget inside a transaction, to deallocate once it ended. */
  private stale = false;

  async commit(): Promise<void> {
    this.inTransaction = false;
    const tail = this.tail;
    this.tail = [];
    const begin = this.beginPending;
    this.beginPending = false;
    // A transaction that ran nothing has nothing to commit.
    if (begin && tail.length === 0) return;
    const text = `${begin ? 'begin;\n' : ''}${tail.length ? `${tail.join(';\n')};\n` : ''}commit`;
    try {
      await this.client.query(text);
    } catch (err) {
      throw isGuardFailure(err) ? new GuardFailedAtCommit(err) : err;
    }
  }

  async afterTransaction(): Promise<void> {
    if (!this.stale) return;
    this.stale = false;
    await this.client.query('deallocate all');
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the shop’s PostgreSQL driver');
  }
}

class ShopPostgresDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, ShopPostgresConnection>();
  private pool: pg.Pool | undefined;

  constructor(
    pool: pg.Pool,
    private readonly prepare: boolean,
  ) {
    this.pool = pool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.pool) throw new Error('driver has already been destroyed');
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) this.connections.set(client, (connection = new ShopPostgresConnection(client, this.prepare)));
    connection.tail = [];
    connection.inTransaction = false;
    connection.beginPending = false;
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as ShopPostgresConnection;
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = 'start transaction';
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    c.tail = [];
    if (text === 'begin') c.beginPending = true;
    else await c.client.query(text);
    c.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as ShopPostgresConnection;
    await c.commit();
    await c.afterTransaction();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as ShopPostgresConnection;
    c.tail = [];
    c.inTransaction = false;
    // BEGIN never sent: nothing ran, nothing to undo.
    if (c.beginPending) c.beginPending = false;
    else await c.client.query('rollback');
    await c.afterTransaction();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as ShopPostgresConnection;
    c.tail = [];
    c.inTransaction = false;
    c.beginPending = false;
    c.client.release();
  }

  async destroy(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
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

/** A message of several statements answers one result each: the last is the statement's. */
function lastOf(result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult {
  return Array.isArray(result) ? result[result.length - 1]! : result;
}

/** The statement with its values written in, or null when one of them has no literal form (then it runs bound). */
function inlinedOrNull(query: CompiledQuery): string | null {
  try {
    return inlineParameters(query.sql, query.parameters);
  } catch {
    return null;
  }
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
