import { sql, type Kysely } from 'kysely';

/**
 * Issue [5/8], "update the card": `subscription_card_updates`, one row per page the customer was
 * sent to for a new card (Stripe Checkout in setup mode, or the built-in test card page in setup
 * mode). Single use: `open` until the provider's word saves its card (`completed`) or it ends
 * (`ended`, with why: run out, the subscription cancelled, the customer left the page). It keeps
 * who asked (the timeline's actor when the card is saved), where the customer goes back to
 * (`account` or `link`; a link's token is never kept), when the page runs out, and the card it saved
 * (brand and last four digits, never a number). `provider_session_id` finds the row from Stripe's
 * webhook (its cs_…); the test page's is the row's own id.
 *
 * SQLite runs migrations outside a transaction: every step can run again after a crash.
 * Everything below is frozen as of this migration (it imports nothing from the app).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscription_card_updates')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_session_id', 'text')
    .addColumn('customer_ref', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'completed', 'ended')`),
    )
    .addColumn('return_to', 'text', (c) => c.notNull().check(sql`return_to in ('account', 'link')`))
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('payment_method_ref', 'text')
    .addColumn('card_brand', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('message', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('subscription_card_updates_provider_session_idx')
    .ifNotExists()
    .unique()
    .on('subscription_card_updates')
    .column('provider_session_id')
    .execute();
  await db.schema
    .createIndex('subscription_card_updates_sub_idx')
    .ifNotExists()
    .on('subscription_card_updates')
    .columns(['subscription_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('subscription_card_updates').ifExists().execute();
}
