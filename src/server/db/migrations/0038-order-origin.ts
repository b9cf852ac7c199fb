import { sql, type Kysely } from 'kysely';

/**
 * How an order was made (issue 41, decision 0048): 'checkout' (the shopper's) or 'owner' (typed in
 * by the owner, with or without lines); a renewal of a subscription will be a third. Until now a
 * null `payment_provider` said "entered by the owner" while the order was unpaid, and then the
 * provider took its place; `payment_provider` now only names how the money came.
 *
 * Backfill: today's meaning of a null provider, and the owner's orders paid since (by a method
 * recorded by hand, or by a payment link: their `placed` event says they were entered by the owner).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('origin', 'text', (c) =>
      c
        .notNull()
        .defaultTo('checkout')
        .check(sql`origin in ('checkout','owner')`),
    )
    .execute();
  await db
    .updateTable('orders')
    .set({ origin: 'owner' })
    .where((eb) =>
      eb.or([
        eb('payment_provider', 'is', null),
        eb('payment_provider', 'in', ['cash', 'bank_transfer', 'card_phone']),
        eb.exists(
          eb
            .selectFrom('order_events as e')
            .select('e.id')
            .whereRef('e.order_id', '=', 'orders.id')
            .where('e.type', '=', 'placed')
            .where('e.data', 'like', '%"enteredByOwner":true%'),
        ),
      ]),
    )
    .execute();
  // The list's counts read placed orders from the index (migration 0007's, which named the provider).
  await db.schema.dropIndex('orders_payment_idx').execute();
  await db.schema
    .createIndex('orders_payment_idx')
    .on('orders')
    .columns(['payment_status', 'refunded_cents', 'origin', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_payment_idx').execute();
  await db.schema
    .createIndex('orders_payment_idx')
    .on('orders')
    .columns(['payment_status', 'refunded_cents', 'payment_provider', 'created_at'])
    .execute();
  await db.schema.alterTable('orders').dropColumn('origin').execute();
}
