import type { SelectQueryBuilder } from 'kysely';
import type { Dialect } from './database.js';

/**
 * Row locks for rules about money and stock. PostgreSQL takes them with FOR UPDATE; SQLite needs
 * none because a write transaction there already runs alone (one connection, serialised).
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? qb.forUpdate() : qb;
}
