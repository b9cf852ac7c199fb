import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** The one-per-customer e-mail rule as this migration wrote it (frozen: the live one is src/shared/coupons.ts). */
function normalizeCouponEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    local = local.replace(/\./g, '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** Every column that holds money (cents), widened to 64 bits on PostgreSQL. */
const MONEY_COLUMNS: [table: string, column: string][] = [
  ['products', 'price_cents'],
  ['coupons', 'discount_value'],
  ['coupons', 'min_order_cents'],
  ['shipping_options', 'price_cents'],
  ['shipping_options', 'minimum_order_cents'],
  ['orders', 'subtotal_cents'],
  ['orders', 'discount_cents'],
  ['orders', 'shipping_cents'],
  ['orders', 'tax_cents'],
  ['orders', 'total_cents'],
  ['order_items', 'price_cents'],
  ['payment_sessions', 'amount_cents'],
];

/**
 * Checkout bounds and who holds what (docs/decisions/0005):
 * - holds say whose they are (IP, browser, account; the coupon's also the normalized e-mail), so
 *   one shopper's units on hold can be capped and a one-per-customer coupon cannot be held twice
 *   by one e-mail;
 * - coupon redemptions keep the normalized e-mail, so a guest cannot reuse a coupon by dropping
 *   the browser cookie;
 * - orders carry `stock_shortfall`, set when a payment arrived for units no longer in stock;
 * - money columns become bigint on PostgreSQL (SQLite's integers are 64-bit already). Totals are
 *   capped far lower ($999,999.99), but a column must never be the thing that overflows.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('orders').addColumn('stock_shortfall', 'text').execute();

  for (const column of ['ip', 'device_id', 'user_id']) {
    await db.schema.alterTable('stock_holds').addColumn(column, 'text').execute();
    await db.schema.createIndex(`stock_holds_${column}_idx`).on('stock_holds').columns([column, 'expires_at']).execute();
  }
  for (const column of ['email_normalized', 'device_id', 'user_id']) {
    await db.schema.alterTable('coupon_holds').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('coupon_redemptions').addColumn('email_normalized', 'text').execute();
  await db.schema.createIndex('coupon_redemptions_email_idx').on('coupon_redemptions').columns(['coupon_id', 'email_normalized']).execute();
  await db.schema.createIndex('coupon_redemptions_device_idx').on('coupon_redemptions').columns(['coupon_id', 'device_id']).execute();

  // Holds open now belong to their order's browser and account.
  await db
    .updateTable('stock_holds')
    .set({
      device_id: sql`(select o.guest_token_hash from orders o where o.id = stock_holds.order_id)`,
      user_id: sql`(select o.user_id from orders o where o.id = stock_holds.order_id)`,
    })
    .execute();
  await db
    .updateTable('coupon_holds')
    .set({
      device_id: sql`(select o.guest_token_hash from orders o where o.id = coupon_holds.order_id)`,
      user_id: sql`(select o.user_id from orders o where o.id = coupon_holds.order_id)`,
    })
    .execute();

  // The e-mail rule (lower case, no +tag, Gmail without dots) is code, so the backfill runs here, a batch at a time.
  for (const table of ['coupon_redemptions', 'coupon_holds'] as const) {
    const key = table === 'coupon_redemptions' ? 'id' : 'order_id';
    let after = '';
    for (;;) {
      const batch: { key: string; email: string | null }[] = await db
        .selectFrom(`${table} as r`)
        .innerJoin('orders as o', 'o.id', 'r.order_id')
        .select([`r.${key} as key`, 'o.email'])
        .where(`r.${key}`, '>', after)
        .orderBy(`r.${key}`)
        .limit(500)
        .execute();
      if (batch.length === 0) break;
      for (const row of batch) {
        if (row.email) {
          await db
            .updateTable(table)
            .set({ email_normalized: normalizeCouponEmail(row.email) })
            .where(key, '=', row.key)
            .execute();
        }
      }
      after = batch[batch.length - 1]!.key;
    }
  }

  if (postgres) {
    for (const [table, column] of MONEY_COLUMNS) {
      await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type bigint`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const [table, column] of MONEY_COLUMNS) {
      await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type integer`.execute(db);
    }
  }
  await db.schema.dropIndex('coupon_redemptions_device_idx').execute();
  await db.schema.dropIndex('coupon_redemptions_email_idx').execute();
  await db.schema.alterTable('coupon_redemptions').dropColumn('email_normalized').execute();
  for (const column of ['email_normalized', 'device_id', 'user_id']) {
    await db.schema.alterTable('coupon_holds').dropColumn(column).execute();
  }
  for (const column of ['ip', 'device_id', 'user_id']) {
    await db.schema.dropIndex(`stock_holds_${column}_idx`).execute();
    await db.schema.alterTable('stock_holds').dropColumn(column).execute();
  }
  await db.schema.alterTable('orders').dropColumn('stock_shortfall').execute();
}
