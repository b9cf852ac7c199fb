import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { tablesOf } from '../test/db-tables.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import { listAuditLog } from '../audit/audit.js';
import { AuditLogQuery } from '../../shared/schemas/audit.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

describe(`migration 0016 (audit log) on ${testDialect()}`, () => {
  it('keeps the rows written before it, with no acting-as user, and lists them through the new indexes', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      await migrateUpTo(db, schema, '0015-template-blocks');
      await db
        .insertInto('audit_log')
        .values({
          id: 'audit_old',
          actor_user_id: 'user_admin',
          action: 'impersonation.start',
          target_user_id: 'user_c',
          details: null,
          created_at: '2026-01-02T03:04:05.000Z',
        } as never)
        .execute();
      expect(await migrateToLatest(db, schema)).toContain('0016-audit-log');
      const row = await db.selectFrom('audit_log').selectAll().where('id', '=', 'audit_old').executeTakeFirstOrThrow();
      expect(row.acting_as_user_id).toBeNull();
      const page = await listAuditLog(db, AuditLogQuery.parse({ actor: 'user_admin', from: '2026-01-02', to: '2026-01-02' }));
      expect(page.items).toEqual([
        {
          id: 'audit_old',
          action: 'impersonation.start',
          actor: { id: 'user_admin', email: null },
          actingAs: null,
          target: { id: 'user_c', email: null },
          details: {},
          createdAt: '2026-01-02T03:04:05.000Z',
        },
      ]);
      expect((await tablesOf(db, schema)).get('audit_log')).toContain('acting_as_user_id');
    } finally {
      await close();
    }
  });
});
