import { PostgresDialect, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { ShopPostgresConnection, type ConnectionOptions } from './pg-connection.js';

/*
 * The shop's PostgreSQL driver for Kysely (decision 0050, after 0023's third pass). Kysely's own
 * sends every statement unnamed, so PostgreSQL parses and plans it again each time: measured with
 * pgbench on this machine, a one-row select runs 2.3× as often per second prepared as unnamed, and
 * on a sale day the database's CPU, not the shop's, ran out first. And it gives BEGIN and COMMIT a
 * round trip each, while a sale's stock row stays locked until the COMMIT is done.
 *
 * Here (db/pg-connection.ts): every value is a bound parameter; each connection prepares the texts
 * it runs (the least recently used of PREPARED_PER_CONNECTION evicted and deallocated); BEGIN goes
 * out pipelined with the transaction's first statement, and the guarded writes of
 * db/pg-commit-tail.ts with the COMMIT; savepoints work, and drop the guarded writes they undo.
 *
 * The pool's clients should have `pipeline: true` (db/database.ts); without it the same messages
 * go one trip each. Behind a connection pooler that hands a session's statements to other server
 * connections (PgBouncer in transaction mode before 1.21), set PG_PREPARED_STATEMENTS=false:
 * statements then run unnamed, still bound.
 */

/** Texts prepared per connection, at most (the shop runs a few hundred; lists of many values make more). */
export const PREPARED_PER_CONNECTION = 400;

const DEFAULTS: ConnectionOptions = {
  prepare: true,
  capacity: PREPARED_PER_CONNECTION,
  longest: 8000,
  retireAfterNames: 2000,
};

export class ShopPostgresDialect extends PostgresDialect {
  private readonly options: ConnectionOptions;

  constructor(
    private readonly pool: pg.Pool,
    options: Partial<ConnectionOptions> = {},
  ) {
    super({ pool });
    this.options = { ...DEFAULTS, ...options };
  }

  override createDriver(): Driver {
    return new ShopPostgresDriver(this.pool, this.options);
  }
}

class ShopPostgresDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, ShopPostgresConnection>();
  private pool: pg.Pool | undefined;

  constructor(
    pool: pg.Pool,
    private readonly options: ConnectionOptions,
  ) {
    this.pool = pool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.pool) throw new Error('driver has already been destroyed');
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) this.connections.set(client, (connection = new ShopPostgresConnection(client, this.options)));
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = 'start transaction';
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    (connection as ShopPostgresConnection).startTransaction(text);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ShopPostgresConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ShopPostgresConnection).rollback();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as ShopPostgresConnection).savepoint(name);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as ShopPostgresConnection).rollbackToSavepoint(name);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as ShopPostgresConnection).releaseSavepoint(name);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as ShopPostgresConnection).release();
  }

  async destroy(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }
}
