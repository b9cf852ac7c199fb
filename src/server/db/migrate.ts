import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';
import { isPostgres } from './query-helpers.js';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-order-search.js';
import * as m0003 from './migrations/0003-payment-holds.js';
import * as m0004 from './migrations/0004-checkout-bounds.js';
import * as m0005 from './migrations/0005-sign-in-devices.js';
import * as m0006 from './migrations/0006-order-events.js';
import * as m0007 from './migrations/0007-refunds.js';
import * as m0008 from './migrations/0008-order-labels.js';
import * as m0009 from './migrations/0009-product-search.js';
import * as m0010 from './migrations/0010-shop-changes.js';
import * as m0011 from './migrations/0011-search-in-memory.js';
import * as m0012 from './migrations/0012-order-tracking.js';
import * as m0013 from './migrations/0013-truthful-content.js';
import * as m0014 from './migrations/0014-product-image-alts.js';
import * as m0015 from './migrations/0015-template-blocks.js';
import * as m0016 from './migrations/0016-audit-log.js';
import * as m0017 from './migrations/0017-inventory.js';
import * as m0018 from './migrations/0018-stock-counters.js';
import * as m0021 from './migrations/0021-admin-product-list.js';
import * as m0023 from './migrations/0023-order-search-and-reference.js';
import * as m0024 from './migrations/0024-confirmation-delivery.js';
import * as m0025 from './migrations/0025-email-verification.js';
import * as m0026 from './migrations/0026-saved-carts.js';
import * as m0027 from './migrations/0027-product-variants.js';
import * as m0028 from './migrations/0028-unique-skus-and-reply-to.js';
import * as m0029 from './migrations/0029-shipping-label-files.js';
import * as m0030 from './migrations/0030-stray-payments.js';
import * as m0033 from './migrations/0033-last-units-holds.js';
import * as m0034 from './migrations/0034-variant-unit-sizes.js';
import * as m0035 from './migrations/0035-guest-order-links.js';
import * as m0036 from './migrations/0036-message-states-and-money-days.js';
import * as m0037 from './migrations/0037-product-draft-status.js';
import * as m0038 from './migrations/0038-order-origin.js';
import * as m0040 from './migrations/0040-order-reference-terms.js';
import * as m0041 from './migrations/0041-welcome-and-tracking-faq.js';
import * as m0042 from './migrations/0042-subscriptions.js';
import * as m0043 from './migrations/0043-subscription-timeline.js';
import * as m0044 from './migrations/0044-subscription-card-updates.js';
import * as m0045 from './migrations/0045-subscription-price-notices.js';
import * as m0046 from './migrations/0046-subscription-figures.js';
import * as m0047 from './migrations/0047-subscription-cards-to-learn.js';
import * as m0048 from './migrations/0048-reviews.js';
import * as m0049 from './migrations/0049-subscription-money-indexes.js';
import * as m0050 from './migrations/0050-marketing-consent.js';
import * as m0051 from './migrations/0051-checkout-recovery.js';
import * as m0052 from './migrations/0052-reorder-reminders.js';
import * as m0053 from './migrations/0053-checkout-devices.js';

/** Migrations are listed in code so they work the same from source, tests and bundles. */
const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-order-search': m0002,
  '0003-payment-holds': m0003,
  '0004-checkout-bounds': m0004,
  '0005-sign-in-devices': m0005,
  '0006-order-events': m0006,
  '0007-refunds': m0007,
  '0008-order-labels': m0008,
  '0009-product-search': m0009,
  '0010-shop-changes': m0010,
  '0011-search-in-memory': m0011,
  '0012-order-tracking': m0012,
  '0013-truthful-content': m0013,
  '0014-product-image-alts': m0014,
  '0015-template-blocks': m0015,
  '0016-audit-log': m0016,
  '0017-inventory': m0017,
  '0018-stock-counters': m0018,
  '0021-admin-product-list': m0021,
  '0023-order-search-and-reference': m0023,
  '0024-confirmation-delivery': m0024,
  '0025-email-verification': m0025,
  '0026-saved-carts': m0026,
  '0027-product-variants': m0027,
  '0028-unique-skus-and-reply-to': m0028,
  '0029-shipping-label-files': m0029,
  '0030-stray-payments': m0030,
  '0033-last-units-holds': m0033,
  '0034-variant-unit-sizes': m0034,
  '0035-guest-order-links': m0035,
  '0036-message-states-and-money-days': m0036,
  '0037-product-draft-status': m0037,
  '0038-order-origin': m0038,
  '0040-order-reference-terms': m0040,
  '0041-welcome-and-tracking-faq': m0041,
  '0042-subscriptions': m0042,
  '0043-subscription-timeline': m0043,
  '0044-subscription-card-updates': m0044,
  '0045-subscription-price-notices': m0045,
  '0046-subscription-figures': m0046,
  '0047-subscription-cards-to-learn': m0047,
  '0048-reviews': m0048,
  '0049-subscription-money-indexes': m0049,
  '0050-marketing-consent': m0050,
  '0051-checkout-recovery': m0051,
  '0052-reorder-reminders': m0052,
  '0053-checkout-devices': m0053,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * What Kysely's migrator asks of PostgreSQL (do its schema and its two bookkeeping tables exist?),
 * answered for our one schema. Kysely's own introspector reads every column of every table of
 * every schema in the database for it, and fails ("schema … does not exist") when another schema
 * is dropped while it reads: the PostgreSQL test suite drops one per test file while other files
 * migrate theirs.
 */
function schemaIntrospector(db: Kysely<Database>, schema: string | undefined): DatabaseIntrospector {
  const ours = schema === undefined ? sql<string>`current_schema()` : sql<string>`${schema}`;
  const tables = async () => {
    const { rows } = await sql<{ name: string; schema: string; type: string }>`
      select table_name as name, table_schema as schema, table_type as type
      from information_schema.tables where table_schema = ${ours}`.execute(db);
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.type === 'VIEW', columns: [] }));
  };
  return {
    getSchemas: async () => {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${ours}`.execute(db);
      return rows;
    },
    getTables: tables,
    getMetadata: async () => ({ tables: await tables() }),
  };
}

/** The database as the migrator sees it: on PostgreSQL, its introspection limited to our schema. */
function forMigrator(db: Kysely<Database>, schema: string | undefined): Kysely<Database> {
  if (!isPostgres(db)) return db;
  const introspection = schemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function migratorFor(db: Kysely<Database>, schema?: string): Migrator {
  return new Migrator({
    db: forMigrator(db, schema),
    provider: new StaticProvider(),
    // Kysely looks for its bookkeeping tables across schemas; pin them to ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

function applied({ error, results }: Awaited<ReturnType<Migrator['migrateToLatest']>>): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return applied(await migratorFor(db, schema).migrateToLatest());
}

/** Applies the migrations up to and including `name` (tests of one migration start from the shop as it was before it). */
export async function migrateUpTo(db: Kysely<Database>, schema: string | undefined, name: string): Promise<string[]> {
  if (!(name in migrations)) throw new Error(`Unknown migration ${name}`);
  return applied(await migratorFor(db, schema).migrateTo(name));
}
