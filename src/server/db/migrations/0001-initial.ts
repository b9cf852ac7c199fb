import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = (name: string) => [name, 'text'] as const;

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('client')
        .check(sql`role in ('client','admin')`),
    )
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('loyalty_points', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`loyalty_points >= 0`),
    )
    .addColumn('total_points_earned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shipping_address', 'text')
    .addColumn('billing_address', 'text')
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('acting_as_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('expires_at'), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('expires_at'), (c) => c.notNull())
    .addColumn(...ts('used_at'))
    .execute();
  await db.schema.createIndex('password_reset_tokens_user_idx').on('password_reset_tokens').column('user_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn(...ts('window_started_at'), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('image_url', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('category_id', 'text', (c) => c.references('categories.id').onDelete('restrict'))
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inventory', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`inventory >= 0`),
    )
    .addColumn('sort_number', 'integer')
    .addColumn('sku', 'text')
    .addColumn('brand', 'text')
    .addColumn('stripe_price_id', 'text')
    .addColumn('weight_lbs', sql`double precision`)
    .addColumn('length_in', sql`double precision`)
    .addColumn('width_in', sql`double precision`)
    .addColumn('height_in', sql`double precision`)
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();
  // Shop order (leading number, then price) with and without a category filter; admin list newest first.
  await db.schema.createIndex('products_shop_order_idx').on('products').columns(['sort_number', 'price_cents', 'name']).execute();
  await db.schema
    .createIndex('products_category_order_idx')
    .on('products')
    .columns(['category_id', 'sort_number', 'price_cents', 'name'])
    .execute();
  await db.schema.createIndex('products_created_at_idx').on('products').column('created_at').execute();
  await db.schema.createIndex('products_featured_idx').on('products').columns(['featured', 'created_at']).execute();

  await db.schema
    .createTable('coupons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('discount_type', 'text', (c) => c.notNull().check(sql`discount_type in ('percentage','fixed')`))
    .addColumn('discount_value', 'integer', (c) => c.notNull().check(sql`discount_value >= 0`))
    .addColumn('min_order_cents', 'integer')
    .addColumn('max_uses', 'integer')
    .addColumn('current_uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn(...ts('valid_from'), (c) => c.notNull())
    .addColumn(...ts('valid_until'))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('free_product_id', 'text', (c) => c.references('products.id').onDelete('set null'))
    .addColumn('stripe_coupon_id', 'text')
    .addColumn('owner_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('coupons_owner_idx').on('coupons').column('owner_user_id').execute();
  await db.schema.createIndex('coupons_created_at_idx').on('coupons').column('created_at').execute();

  await db.schema
    .createTable('shipping_options')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('estimated_days', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('minimum_order_cents', 'integer')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_number', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('email', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending','processing','shipped','delivered','cancelled','completed')`),
    )
    .addColumn('payment_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('unpaid')
        .check(sql`payment_status in ('unpaid','paid','failed','expired','refunded')`),
    )
    .addColumn('payment_provider', 'text')
    .addColumn('payment_session_id', 'text')
    .addColumn('shipping_address', 'text')
    .addColumn('billing_address', 'text')
    .addColumn('subtotal_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('discount_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shipping_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tax_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_cents', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`total_cents >= 0`),
    )
    .addColumn('coupon_code', 'text')
    .addColumn('shipping_option_id', 'text')
    .addColumn('shipstation_data', 'text')
    .addColumn('shipstation_tracking_number', 'text')
    .addColumn('guest_token_hash', 'text')
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .addColumn(...ts('paid_at'))
    .execute();
  await db.schema.createIndex('orders_user_created_idx').on('orders').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('orders_created_at_idx').on('orders').column('created_at').execute();
  await db.schema.createIndex('orders_status_created_idx').on('orders').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('orders_email_idx').on('orders').column('email').execute();
  await db.schema.createIndex('orders_payment_session_idx').on('orders').column('payment_session_id').execute();

  await db.schema
    .createTable('order_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('product_image', 'text')
    .addColumn('sku', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('size', 'text', (c) => c.notNull().defaultTo('One Size'))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('Default'))
    .addColumn('is_free_gift', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('order_items_order_idx').on('order_items').column('order_id').execute();
  await db.schema.createIndex('order_items_product_idx').on('order_items').column('product_id').execute();

  await db.schema
    .createTable('payment_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open','complete','expired')`))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('expires_at'), (c) => c.notNull())
    .addColumn(...ts('completed_at'))
    .execute();
  await db.schema.createIndex('payment_sessions_order_idx').on('payment_sessions').column('order_id').execute();
  await db.schema.createIndex('payment_sessions_status_expires_idx').on('payment_sessions').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('coupon_id', 'text', (c) => c.notNull().references('coupons.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('device_id', 'text')
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('coupon_redemptions_order_uq').on('coupon_redemptions').columns(['coupon_id', 'order_id']).unique().execute();
  await db.schema.createIndex('coupon_redemptions_user_idx').on('coupon_redemptions').columns(['coupon_id', 'user_id']).execute();

  await db.schema
    .createTable('faqs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('email_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('built_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('email_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('template_id', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued','sending','sent','failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn(...ts('next_attempt_at'), (c) => c.notNull())
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .addColumn(...ts('sent_at'))
    .execute();
  await db.schema.createIndex('email_outbox_due_idx').on('email_outbox').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('email_outbox_created_idx').on('email_outbox').column('created_at').execute();

  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('website-contact-form'))
    .addColumn('forward_status', 'text', (c) => c.notNull().defaultTo('stored'))
    .addColumn('forward_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn(...ts('next_attempt_at'))
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .addColumn(...ts('updated_at'), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_messages_created_idx').on('contact_messages').column('created_at').execute();
  await db.schema
    .createIndex('contact_messages_forward_idx')
    .on('contact_messages')
    .columns(['forward_status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_user_id', 'text')
    .addColumn('details', 'text')
    .addColumn(...ts('created_at'), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'audit_log',
    'contact_messages',
    'email_outbox',
    'email_templates',
    'settings',
    'faqs',
    'coupon_redemptions',
    'payment_sessions',
    'order_items',
    'orders',
    'shipping_options',
    'coupons',
    'products',
    'categories',
    'rate_limits',
    'password_reset_tokens',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
