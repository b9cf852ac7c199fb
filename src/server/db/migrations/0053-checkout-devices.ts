import { sql, type Kysely } from 'kysely';

/**
 * The browser of a checkout, kept as long as its order (issue [7/8], checkout recovery). A
 * checkout's order carries its browser's device hash (`orders.guest_token_hash`); its stock holds
 * did too, but they are swept some 82 minutes after the checkout, before a recovery e-mail at a
 * later first delay. So the recovery pass and the cart page's "emptied" note read the order's.
 * - `orders_device_idx`: a browser's checkouts since a moment (partial: owner-made orders and
 *   renewals have none).
 * - `checkout_recoveries_device_idx`: a browser's recoveries (closing them when its cart is emptied).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists orders_device_idx on orders (guest_token_hash, created_at) where guest_token_hash is not null`.execute(
    db,
  );
  await db.schema.createIndex('checkout_recoveries_device_idx').ifNotExists().on('checkout_recoveries').column('device_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists checkout_recoveries_device_idx`.execute(db);
  await sql`drop index if exists orders_device_idx`.execute(db);
}
