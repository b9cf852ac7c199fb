import type SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
  type SqliteDatabase,
} from 'kysely';

/**
 * Group commit for SQLite (decision 0023). A commit writes every page the transaction changed to
 * the write-ahead log: on a sale, a third of the server's time went to committing checkouts that
 * each changed the same stock, index and order pages. Here the transactions that run in one turn
 * of the event loop share one commit:
 *
 * - the first transaction of a turn opens the group (`begin`) and schedules its commit
 *   (`setImmediate`, after the turn's I/O callbacks);
 * - each transaction is a savepoint inside it: its rollback undoes only its own work;
 * - a transaction's commit releases its savepoint, lets the next transaction have the connection,
 *   and answers only when the group's `commit` is done. Nothing is answered as saved before it
 *   is, and a group that fails to commit fails every transaction in it (their requests answer
 *   with an error; nothing they did stays).
 *
 * A write outside a transaction while a group is open joins the group and waits for its commit
 * the same way. Reads outside a transaction read the group's work (it is about to be committed,
 * or the requests that wrote it fail).
 *
 * SQLite has one writer at a time anyway (Kysely already runs one transaction at a time on the
 * shop's one connection), so this changes no isolation a transaction relies on: each still sees
 * all work committed before it and none of a later one's.
 */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly #sqlite: SQLite.Database;
  readonly #prepared: SqliteDatabase;

  constructor(sqlite: SQLite.Database, prepared: SqliteDatabase) {
    super({ database: prepared });
    this.#sqlite = sqlite;
    this.#prepared = prepared;
  }

  override createDriver(): Driver {
    return new GroupCommitDriver(this.#sqlite, this.#prepared);
  }
}

type Group = { done: Promise<void>; resolve: () => void; reject: (err: unknown) => void; settled: boolean };

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A group nobody waits on (every member rolled back) must not report an unhandled rejection.
  done.catch(() => {});
  return { done, resolve, reject, settled: false };
}

/** One use of the connection: a transaction or a single statement. */
class Lease implements DatabaseConnection {
  inTransaction = false;
  released = false;
  constructor(readonly driver: GroupCommitDriver) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.run<R>(this, compiledQuery);
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiledQuery;
    if (!SelectQueryNode.is(query)) throw new Error('Sqlite driver only supports streaming of select queries');
    const stmt = this.driver.prepared.prepare(sql);
    for (const row of stmt.iterate(parameters as unknown[])) yield { rows: [row as R] };
  }
}

class GroupCommitDriver implements Driver {
  readonly #sqlite: SQLite.Database;
  readonly prepared: SqliteDatabase;
  /** Whoever waits for the connection, first come first served. */
  readonly #waiting: Array<() => void> = [];
  #busy = false;
  #group: Group | null = null;

  constructor(sqlite: SQLite.Database, prepared: SqliteDatabase) {
    this.#sqlite = sqlite;
    this.prepared = prepared;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock();
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    this.#openGroup();
    this.#exec('savepoint group_member');
    lease.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    this.#exec('release group_member');
    lease.inTransaction = false;
    await this.#handOverAndWait(lease);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // Its commit already handed the connection on: the group's commit failed, nothing to undo here.
    if (lease.released) return;
    lease.inTransaction = false;
    if (!this.#sqlite.inTransaction) {
      // An error SQLite answers by rolling back the whole transaction (a full disk, an I/O error):
      // the group's earlier members are gone too, and must not be answered as saved.
      this.#failGroup(new Error('The database rolled back a group of transactions after an error; try again.'));
      return;
    }
    this.#exec('rollback to group_member');
    this.#exec('release group_member');
  }

  async savepoint(_connection: DatabaseConnection, name: string): Promise<void> {
    this.#savepointCommand('savepoint', name);
  }

  async rollbackToSavepoint(_connection: DatabaseConnection, name: string): Promise<void> {
    this.#savepointCommand('rollback to', name);
  }

  async releaseSavepoint(_connection: DatabaseConnection, name: string): Promise<void> {
    this.#savepointCommand('release', name);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.released) return;
    lease.released = true;
    this.#unlock();
  }

  async destroy(): Promise<void> {
    // Whatever is still open is committed before the database closes.
    if (this.#group) await this.#flush();
    this.prepared.close();
  }

  /** A statement on a lease. A write outside a transaction answers once its group is committed. */
  async run<R>(lease: Lease, compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    const stmt = this.prepared.prepare(sql) as unknown as SQLite.Statement;
    if (stmt.reader) {
      const rows = stmt.all(parameters as unknown[]) as R[];
      if (!stmt.readonly) await this.#joinGroupOutsideTransaction(lease);
      return { rows };
    }
    const { changes, lastInsertRowid } = stmt.run(parameters as unknown[]);
    await this.#joinGroupOutsideTransaction(lease);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  /** A write outside a transaction made while a group is open is in that group: it answers with it. */
  async #joinGroupOutsideTransaction(lease: Lease): Promise<void> {
    if (!lease.inTransaction && this.#group && this.#sqlite.inTransaction) await this.#handOverAndWait(lease);
  }

  /** Lets the next one have the connection, and waits for the group this lease's work is in. */
  async #handOverAndWait(lease: Lease): Promise<void> {
    const group = this.#group;
    lease.released = true;
    this.#unlock();
    if (group) await group.done;
  }

  /** Savepoints a transaction sets inside itself (Kysely's `trx.savepoint()`), nested in its own. */
  #savepointCommand(command: 'savepoint' | 'rollback to' | 'release', name: string): void {
    this.#exec(`${command} "${name.replace(/"/g, '""')}"`);
  }

  #exec(sql: string): void {
    this.prepared.prepare(sql).run([]);
  }

  #openGroup(): void {
    if (this.#group && this.#sqlite.inTransaction) return;
    this.#exec('begin');
    this.#group = newGroup();
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    await this.#lock();
    const group = this.#group;
    this.#group = null;
    try {
      if (!group) return;
      try {
        if (this.#sqlite.inTransaction) this.#exec('commit');
        group.settled = true;
        group.resolve();
      } catch (err) {
        if (this.#sqlite.inTransaction) this.#exec('rollback');
        group.settled = true;
        group.reject(err);
      }
    } finally {
      this.#unlock();
    }
  }

  #failGroup(err: Error): void {
    const group = this.#group;
    this.#group = null;
    if (group && !group.settled) {
      group.settled = true;
      group.reject(err);
    }
  }

  #lock(): Promise<void> {
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#busy = false;
  }
}
