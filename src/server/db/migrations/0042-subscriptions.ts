import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Subscribe and save (issue [4/8], decision 0058).
 *
 * - `subscription_plans`: what the owner offers, per product (`variant_id` '') and, where a
 *   variant needs its own terms or none, per variant (a variant's row wins over its product's):
 *   on or off, the intervals offered in weeks (a JSON array, ascending), the discount on each
 *   delivery (%), and optionally another discount from the Nth delivery on.
 * - `order_items.every_weeks` and `plan_discount_percent`: a line bought as a subscription (its
 *   price is already the discounted one); null on a one-time line.
 * - `subscription_consents`: the terms a shopper ticked next to Pay, with the order and the time.
 * - `subscriptions` and `subscription_items`: what renews, for whom, how often, on which saved
 *   payment method, with the consent it was made under; never deleted (a cancelled one stays).
 * - `subscription_cycles`: one row per subscription and cycle (the primary key): the schedule's
 *   unit of work, so no cycle is charged twice whatever the number of processes.
 * - `test_payment_methods`: what the built-in test card page keeps for later (a behaviour and the
 *   last four digits; never a card number).
 * - `test_off_session_charges`: the test card page's answer to each charge made with the customer
 *   away, by its idempotency key: the same key gets the first answer again, as Stripe's does.
 * - `orders.origin` gains 'renewal'. PostgreSQL swaps the CHECK; SQLite cannot alter one, so the
 *   column is renamed aside, added again with the wider CHECK, copied and the old one dropped (a
 *   column's own CHECK does not stop DROP COLUMN), with the index that names it made again.
 *
 * SQLite runs migrations outside a transaction: every step can run again after a crash.
 * Everything below is frozen as of this migration (it imports nothing from the app).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function hasColumn(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  const found = isPostgres(db)
    ? await sql`select 1 as found from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(db)
    : await sql`select 1 as found from pragma_table_info(${table}) where name = ${column}`.execute(db);
  return found.rows.length > 0;
}

const ORIGINS = sql`origin in ('checkout','owner','renewal')`;

async function widenOrigin(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table orders drop constraint if exists orders_origin_check`.execute(db);
    await sql`alter table orders add constraint orders_origin_check check (${ORIGINS})`.execute(db);
    return;
  }
  const [row] = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'orders'`.execute(db)).rows;
  if (row?.sql.includes("'renewal'")) return;
  if (!(await hasColumn(db, 'orders', 'origin_0038'))) {
    await sql`drop index if exists orders_payment_idx`.execute(db);
    await sql`alter table orders rename column origin to origin_0038`.execute(db);
  }
  if (!(await hasColumn(db, 'orders', 'origin')))
    await sql`alter table orders add column origin text not null default 'checkout' check (${ORIGINS})`.execute(db);
  await sql`update orders set origin = origin_0038`.execute(db);
  await sql`drop index if exists orders_payment_idx`.execute(db);
  await sql`alter table orders drop column origin_0038`.execute(db);
  await db.schema
    .createIndex('orders_payment_idx')
    .ifNotExists()
    .on('orders')
    .columns(['payment_status', 'refunded_cents', 'origin', 'created_at'])
    .execute();
}

/*
 * The order confirmation repeats the subscription terms and links to manage and cancel (helper B's
 * step, email/default-templates.ts SUBSCRIPTION_BLOCK_*; frozen here). A stored copy the owner never
 * edited (`updated_at = created_at`) gets the block where the built-in text has it, before "We will
 * send you another e-mail"; an edited copy keeps the owner's words and gets the block after them (a
 * subscriber must be told the terms and how to cancel), its timestamps unchanged. The block draws
 * nothing for an order without subscriptions. Every copy's variable list names the four new variables.
 */
const CONFIRMATION_ANCHOR_HTML =
  '            <p style="margin:0 0 16px 0;">We will send you another e-mail as soon as your order ships.</p>';
const CONFIRMATION_ANCHOR_TEXT = 'We will send you another e-mail as soon as your order ships.';
const SUBSCRIPTION_BLOCK_HTML =
  '            {{#if subscriptionTerms}}\n            <h2 style="margin:24px 0 8px 0;font-size:18px;line-height:1.3;color:#2f7d4a;">Your subscription</h2>\n            {{#each subscriptionTerms}}\n            <p style="margin:0 0 12px 0;">{{this}}</p>\n            {{/each}}\n            {{#if subscriptionAccountNote}}\n            <p style="margin:0 0 12px 0;">{{subscriptionAccountNote}}</p>\n            {{/if}}\n            <p style="margin:0 0 12px 0;">Manage your subscriptions any time from <a href="{{subscriptionManageUrl}}" style="color:#2f7d4a;">your account</a>.</p>\n            {{#each subscriptionCancelLinks}}\n            <p style="margin:0 0 16px 0;">{{label}}: <a href="{{url}}" style="color:#2f7d4a;">cancel this subscription</a> (or change it), no sign-in needed.</p>\n            {{/each}}\n            {{/if}}';
const SUBSCRIPTION_BLOCK_TEXT =
  '{{#if subscriptionTerms}}\nYour subscription\n{{#each subscriptionTerms}}\n{{this}}\n{{/each}}\n{{#if subscriptionAccountNote}}\n{{subscriptionAccountNote}}\n{{/if}}\nManage your subscriptions any time from your account: {{subscriptionManageUrl}}\n{{#each subscriptionCancelLinks}}\n{{label}}, cancel this subscription (or change it), no sign-in needed: {{url}}\n{{/each}}\n\n{{/if}}';
const SUBSCRIPTION_VARIABLES = ['subscriptionTerms', 'subscriptionAccountNote', 'subscriptionManageUrl', 'subscriptionCancelLinks'];

function withBlock(source: string, anchor: string, block: string, untouched: boolean): string {
  if (source.includes('subscriptionTerms')) return source;
  if (untouched && source.includes(anchor)) return source.replace(anchor, `${block}\n${anchor}`);
  const body = source.lastIndexOf('</body>');
  return body >= 0 ? `${source.slice(0, body)}${block}\n${source.slice(body)}` : `${source}\n${block}`;
}

async function addSubscriptionBlockToConfirmation(db: Kysely<any>): Promise<void> {
  const rows: { html: string; text: string | null; variables: string | null; created_at: string; updated_at: string }[] = await db
    .selectFrom('email_templates')
    .select(['html', 'text', 'variables', 'created_at', 'updated_at'])
    .where('id', '=', 'order-confirmation')
    .execute();
  for (const t of rows) {
    let names: unknown = [];
    try {
      names = JSON.parse(t.variables ?? '[]');
    } catch {
      names = [];
    }
    const listed = Array.isArray(names) ? names.filter((v): v is string => typeof v === 'string') : [];
    const untouched = t.updated_at === t.created_at;
    await db
      .updateTable('email_templates')
      .set({
        html: withBlock(t.html, CONFIRMATION_ANCHOR_HTML, SUBSCRIPTION_BLOCK_HTML, untouched),
        text: t.text === null ? null : withBlock(t.text, CONFIRMATION_ANCHOR_TEXT, SUBSCRIPTION_BLOCK_TEXT, untouched),
        variables: JSON.stringify([...listed, ...SUBSCRIPTION_VARIABLES.filter((n) => !listed.includes(n))]),
      })
      .where('id', '=', 'order-confirmation')
      .execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const money = isPostgres(db) ? 'bigint' : 'integer';
  await widenOrigin(db);

  await db.schema
    .createTable('subscription_plans')
    .ifNotExists()
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    // '' for the product's own plan; a variant's id for that variant's.
    .addColumn('variant_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .addColumn('intervals', 'text', (c) => c.notNull())
    .addColumn('discount_percent', 'integer', (c) => c.notNull().check(sql`discount_percent between 0 and 100`))
    .addColumn('later_discount_percent', 'integer', (c) => c.check(sql`later_discount_percent between 0 and 100`))
    .addColumn('later_from_delivery', 'integer', (c) => c.check(sql`later_from_delivery >= 2`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscription_plans_pk', ['product_id', 'variant_id'])
    .execute();

  if (!(await hasColumn(db, 'order_items', 'every_weeks')))
    await db.schema
      .alterTable('order_items')
      .addColumn('every_weeks', 'integer', (c) => c.check(sql`every_weeks between 1 and 52`))
      .execute();
  if (!(await hasColumn(db, 'order_items', 'plan_discount_percent')))
    await db.schema
      .alterTable('order_items')
      .addColumn('plan_discount_percent', 'integer', (c) => c.check(sql`plan_discount_percent between 0 and 100`))
      .execute();

  await db.schema
    .createTable('subscription_consents')
    .ifNotExists()
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active','paused','payment_failing','cancelled')`))
    .addColumn('every_weeks', 'integer', (c) => c.notNull().check(sql`every_weeks between 1 and 52`))
    .addColumn('discount_percent', 'integer', (c) => c.notNull().check(sql`discount_percent between 0 and 100`))
    .addColumn('later_discount_percent', 'integer')
    .addColumn('later_from_delivery', 'integer')
    // Deliveries paid so far (the first order is the first); the next cycle's number is cycles_started + 1.
    .addColumn('deliveries', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('cycles_started', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('next_renewal_at', 'text', (c) => c.notNull())
    .addColumn('shipping_address', 'text', (c) => c.notNull())
    .addColumn('shipping_option_id', 'text')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('customer_ref', 'text')
    .addColumn('payment_method_ref', 'text')
    // The first payment's own id at the provider (Stripe's pi_…): where a saved method not yet known is read from.
    .addColumn('payment_ref', 'text')
    .addColumn('first_order_id', 'text', (c) => c.notNull())
    .addColumn('consent_text', 'text', (c) => c.notNull())
    .addColumn('consent_at', 'text', (c) => c.notNull())
    .addColumn('manage_token_hash', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancel_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user_idx').ifNotExists().on('subscriptions').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('subscriptions_due_idx').ifNotExists().on('subscriptions').columns(['status', 'next_renewal_at']).execute();
  await db.schema.createIndex('subscriptions_manage_idx').ifNotExists().on('subscriptions').column('manage_token_hash').execute();

  // Each e-mail that links to a subscription mints its own token (only its hash is kept): every
  // link stays good until the subscription ends, and none can be rebuilt from the database.
  await db.schema
    .createTable('subscription_links')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscription_items')
    .ifNotExists()
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addPrimaryKeyConstraint('subscription_items_pk', ['subscription_id', 'variant_id'])
    .execute();

  await db.schema
    .createTable('subscription_cycles')
    .ifNotExists()
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('cycle', 'integer', (c) => c.notNull().check(sql`cycle >= 2`))
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('scheduled','charging','retrying','needs_customer','waiting_stock','paid','skipped','cancelled')`),
    )
    .addColumn('order_id', 'text')
    .addColumn('amount_cents', money)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // When a process may next act on it (the due time, a retry, a stock check).
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    // A process charging it holds it until then; past it, a crashed charge is taken up again with the same key.
    .addColumn('lease_until', 'text')
    .addColumn('waiting_since', 'text')
    .addColumn('reminded_at', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscription_cycles_pk', ['subscription_id', 'cycle'])
    .execute();
  await db.schema
    .createIndex('subscription_cycles_work_idx')
    .ifNotExists()
    .on('subscription_cycles')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('subscription_cycles_order_idx').ifNotExists().on('subscription_cycles').column('order_id').execute();

  await db.schema
    .createTable('test_payment_methods')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('behaviour', 'text', (c) => c.notNull().check(sql`behaviour in ('succeed','decline','authenticate')`))
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('test_off_session_charges')
    .ifNotExists()
    .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    // The answer given (paid with its reference, declined, needs the customer), as JSON.
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await addSubscriptionBlockToConfirmation(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'test_off_session_charges',
    'test_payment_methods',
    'subscription_cycles',
    'subscription_items',
    'subscriptions',
    'subscription_consents',
    'subscription_plans',
  ])
    await db.schema.dropTable(t).ifExists().execute();
  await db.schema.alterTable('order_items').dropColumn('plan_discount_percent').execute();
  await db.schema.alterTable('order_items').dropColumn('every_weeks').execute();
}
