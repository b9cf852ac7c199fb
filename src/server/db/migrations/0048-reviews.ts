import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue [6/8], reviews from people who bought (decision 0059).
 * - `reviews`: one per product and author (`author_key`: 'user:<id>' for an account, 'email:<address>'
 *   for a guest who wrote through a request e-mail's link). `order_id` is the paid order that makes it
 *   a "Verified buyer" review: set by the server from the order only, never by hand; null for a review
 *   without an order (allowed only when the owner switches it on). `status`: published, pending (held
 *   for approval) or hidden (always with a stated reason). `photos_hidden` hides the photos alone.
 * - `review_photos`: a review's photos, through the image pipeline (sizes, metadata stripped).
 * - `product_ratings`: each product's published reviews summed (count, sum, one count per star),
 *   written in the same transaction as the review; `updated_at` lets every process see within a poll
 *   that one product's stars changed (http/shop-changes.ts), so only its pages and lists are drawn again.
 * - `review_requests`: the request e-mail, once per order (`order_id` unique), sent or skipped and why.
 * - `review_links`: one signed link per order and product in a request (the token's hash), valid 60
 *   days, used once to write; it signs nobody in.
 * - `email_opt_outs`: addresses that asked not to get a kind of e-mail ('review-requests' here).
 * - `email_outbox.list_unsubscribe`: the one-click opt-out address an e-mail carries in its
 *   `List-Unsubscribe` header (RFC 8058, with `List-Unsubscribe-Post`); null for e-mails without one.
 *
 * SQLite runs migrations outside a transaction: every step can run again after a crash.
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

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reviews')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('author_key', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('variant_label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rating', 'integer', (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'published', 'hidden')`))
    .addColumn('hidden_reason', 'text', (c) => c.check(sql`hidden_reason in ('spam', 'abuse', 'personal-data', 'off-topic')`))
    .addColumn('hidden_note', 'text')
    .addColumn('hidden_at', 'text')
    .addColumn('hidden_by', 'text')
    .addColumn('photos_hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('photo_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply_text', 'text')
    .addColumn('reply_at', 'text')
    .addColumn('reply_by', 'text')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('account', 'link')`))
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('published_at', 'text')
    .addUniqueConstraint('reviews_product_author_key', ['product_id', 'author_key'])
    .execute();
  // The product page's list (newest; by stars; with photos), the owner's queue, and the figures by period.
  await db.schema
    .createIndex('reviews_product_list_idx')
    .ifNotExists()
    .on('reviews')
    .columns(['product_id', 'status', 'published_at'])
    .execute();
  await db.schema
    .createIndex('reviews_product_rating_idx')
    .ifNotExists()
    .on('reviews')
    .columns(['product_id', 'status', 'rating', 'published_at'])
    .execute();
  await db.schema.createIndex('reviews_queue_idx').ifNotExists().on('reviews').columns(['status', 'created_at']).execute();
  // The queue's "with photos" (a partial index: the few with photos; the query says `photo_count > 0` as written here)
  // and its star filter, each with its counts per status read from the index alone.
  await db.schema
    .createIndex('reviews_queue_photos_idx')
    .ifNotExists()
    .on('reviews')
    .columns(['status', 'created_at'])
    .where(sql.ref('photo_count'), '>', sql.lit(0))
    .execute();
  await db.schema.createIndex('reviews_queue_rating_idx').ifNotExists().on('reviews').columns(['rating', 'status', 'created_at']).execute();
  // The figures read a period's reviews from this index alone (day, status, stars, product).
  await db.schema
    .createIndex('reviews_created_idx')
    .ifNotExists()
    .on('reviews')
    .columns(['created_at', 'status', 'rating', 'product_id'])
    .execute();
  await db.schema.createIndex('reviews_user_idx').ifNotExists().on('reviews').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('review_photos')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('review_id', 'text', (c) => c.notNull().references('reviews.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_photos_review_idx').ifNotExists().on('review_photos').columns(['review_id', 'position']).execute();

  await db.schema
    .createTable('product_ratings')
    .ifNotExists()
    .addColumn('product_id', 'text', (c) => c.primaryKey().references('products.id'))
    .addColumn('review_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stars_1', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stars_2', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stars_3', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stars_4', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stars_5', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('product_ratings_updated_idx').ifNotExists().on('product_ratings').columns(['updated_at']).execute();

  await db.schema
    .createTable('review_requests')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().unique().references('orders.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'skipped')`))
    .addColumn('skip_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('first_review_at', 'text')
    .execute();
  // The figures' request share: a period's requests, read from the index alone.
  await db.schema
    .createIndex('review_requests_created_idx')
    .ifNotExists()
    .on('review_requests')
    .columns(['created_at', 'status', 'first_review_at'])
    .execute();

  await db.schema
    .createTable('review_links')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('review_requests.id'))
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('variant_label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('review_id', 'text')
    .execute();
  await db.schema.createIndex('review_links_order_idx').ifNotExists().on('review_links').columns(['order_id', 'product_id']).execute();

  await db.schema
    .createTable('email_opt_outs')
    .ifNotExists()
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_opt_outs_pkey', ['email', 'kind'])
    .execute();

  // The request e-mail's schedule reads orders shipped some days ago.
  await db.schema.createIndex('orders_shipped_at_idx').ifNotExists().on('orders').columns(['shipped_at']).execute();

  // The request e-mail's one-click opt-out, carried to the mail server as headers by the delivery.
  if (!(await hasColumn(db, 'email_outbox', 'list_unsubscribe')))
    await db.schema.alterTable('email_outbox').addColumn('list_unsubscribe', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (await hasColumn(db, 'email_outbox', 'list_unsubscribe'))
    await db.schema.alterTable('email_outbox').dropColumn('list_unsubscribe').execute();
  await db.schema.dropIndex('orders_shipped_at_idx').ifExists().execute();
  for (const table of ['email_opt_outs', 'review_links', 'review_requests', 'product_ratings', 'review_photos', 'reviews'])
    await db.schema.dropTable(table).ifExists().execute();
}
