import type { Kysely } from 'kysely';

/**
 * The audit log becomes the back office's record of who did what to an account (issue [1/6],
 * decision 0020). `actor_user_id` is always the person at the keyboard (the real admin while
 * impersonating); the new `acting_as_user_id` names the customer they were acting as, or is null.
 * The Users tab lists it newest first, filtered by action, actor, user or date: each filter has an
 * index that also gives the order (`created_at`), so a page is read from the index, not sorted.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('acting_as_user_id', 'text').execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'created_at']).execute();
  await db.schema.createIndex('audit_log_acting_as_idx').on('audit_log').columns(['acting_as_user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['audit_log_acting_as_idx', 'audit_log_action_idx', 'audit_log_target_idx', 'audit_log_actor_idx']) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
  await db.schema.alterTable('audit_log').dropColumn('acting_as_user_id').execute();
}
