import { sql, type Kysely } from 'kysely';

/**
 * Issue [5/8]: the worker asks Stripe for the card of subscriptions whose card is not known yet
 * (subscriptions/learn-cards.ts); this partial index keeps that question as small as its answer.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists subscriptions_card_unknown_idx on subscriptions (provider, created_at) where card_brand is null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists subscriptions_card_unknown_idx`.execute(db);
}
