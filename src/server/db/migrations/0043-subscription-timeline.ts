import { sql, type Kysely } from 'kysely';

/**
 * Issue [5/8]: what the customer and the owner change on a subscription.
 * - `subscription_events`: its timeline, one row per event, never updated or deleted (started,
 *   renewed, skipped, changed, paused, resumed, delivered now, address, card, cancelled,
 *   reactivated, price notices), each with who did it as they read then.
 * - `subscription_extras`: one-time items added to the next delivery only; the renewal that pays
 *   takes them in and deletes them in its transaction.
 * - `subscription_items.skip_next`: one item left out of the next delivery only.
 * - `subscriptions.card_brand`, `card_last4`: the card renewals charge, as the customer knows it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscription_events')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscription_events_sub_idx')
    .ifNotExists()
    .on('subscription_events')
    .columns(['subscription_id', 'id'])
    .execute();
  await db.schema
    .createIndex('subscription_events_type_idx')
    .ifNotExists()
    .on('subscription_events')
    .columns(['type', 'created_at'])
    .execute();

  // Subscriptions from before the timeline: their start and any cancellation, dated as they were,
  // with ids that sort before every event written from now on.
  await sql`
    insert into subscription_events (id, subscription_id, type, actor_user_id, actor_label, data, created_at)
    select 'sev_000000000' || s.id, s.id, 'started', null, 'system', '{}', s.created_at from subscriptions s
    where not exists (select 1 from subscription_events e where e.subscription_id = s.id)`.execute(db);
  await sql`
    insert into subscription_events (id, subscription_id, type, actor_user_id, actor_label, data, created_at)
    select 'sev_000000001' || s.id, s.id, 'cancelled', null, 'customer', '{}', s.cancelled_at from subscriptions s
    where s.cancelled_at is not null
      and not exists (select 1 from subscription_events e where e.subscription_id = s.id and e.type = 'cancelled')`.execute(db);

  await db.schema
    .createTable('subscription_extras')
    .ifNotExists()
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscription_extras_pk', ['subscription_id', 'variant_id'])
    .execute();

  // The card renewals charge, as the customer knows it (never a number): shown on "My Subscriptions".
  await db.schema.alterTable('subscriptions').addColumn('card_brand', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('card_last4', 'text').execute();

  await db.schema
    .alterTable('subscription_items')
    .addColumn('skip_next', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`skip_next in (0, 1)`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('card_last4').execute();
  await db.schema.alterTable('subscriptions').dropColumn('card_brand').execute();
  await db.schema.alterTable('subscription_items').dropColumn('skip_next').execute();
  await db.schema.dropTable('subscription_extras').ifExists().execute();
  await db.schema.dropTable('subscription_events').ifExists().execute();
}
