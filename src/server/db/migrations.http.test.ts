import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { tablesOf } from '../test/db-tables.js';
import { migrateToLatest } from './migrate.js';
import { seedDatabase } from './seed/seed.js';
import { loadConfig } from '../config.js';
import { seedCategories, seedProducts, seedSettings, seedShippingOptions } from './seed/catalog-data.js';
import { DEMO_CUSTOMER } from './seed/demo-accounts.js';
import { verifyPassword } from '../accounts/password.js';

const TABLES = [
  'users',
  'sessions',
  'products',
  'product_options',
  'product_variants',
  'categories',
  'coupons',
  'coupon_redemptions',
  'shipping_options',
  'orders',
  'order_items',
  'stock_items',
  'stray_payments',
  'stock_movements',
  'stock_reservations',
  'back_in_stock_requests',
  'coupon_holds',
  'faqs',
  'settings',
  'email_templates',
  'email_outbox',
  'contact_messages',
  'audit_log',
  'saved_carts',
  'server_secrets',
  'order_events',
  'refunds',
  'subscription_plans',
  'subscription_consents',
  'subscriptions',
  'subscription_items',
  'subscription_links',
  'subscription_cycles',
  'test_payment_methods',
  'test_off_session_charges',
  'reviews',
  'email_opt_outs',
  'marketing_consents',
  'checkout_recoveries',
  'emptied_carts',
  'reorder_reminders',
];

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

describe(`migrations and seed on ${testDialect()}`, () => {
  it('create every table, are idempotent, and seed an empty database once', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      expect(await migrateToLatest(db, schema)).toEqual([
        '0001-initial',
        '0002-order-search',
        '0003-payment-holds',
        '0004-checkout-bounds',
        '0005-sign-in-devices',
        '0006-order-events',
        '0007-refunds',
        '0008-order-labels',
        '0009-product-search',
        '0010-shop-changes',
        '0011-search-in-memory',
        '0012-order-tracking',
        '0013-truthful-content',
        '0014-product-image-alts',
        '0015-template-blocks',
        '0016-audit-log',
        '0017-inventory',
        '0018-stock-counters',
        '0021-admin-product-list',
        '0023-order-search-and-reference',
        '0024-confirmation-delivery',
        '0025-email-verification',
        '0026-saved-carts',
        '0027-product-variants',
        '0028-unique-skus-and-reply-to',
        '0029-shipping-label-files',
        '0030-stray-payments',
        '0033-last-units-holds',
        '0034-variant-unit-sizes',
        '0035-guest-order-links',
        '0036-message-states-and-money-days',
        '0037-product-draft-status',
        '0038-order-origin',
        '0040-order-reference-terms',
        '0041-welcome-and-tracking-faq',
        '0042-subscriptions',
        '0043-subscription-timeline',
        '0044-subscription-card-updates',
        '0045-subscription-price-notices',
        '0046-subscription-figures',
        '0047-subscription-cards-to-learn',
        '0048-reviews',
        '0049-subscription-money-indexes',
        '0050-marketing-consent',
        '0051-checkout-recovery',
        '0052-reorder-reminders',
        '0053-checkout-devices',
      ]);
      expect(await migrateToLatest(db, schema)).toEqual([]);
      const tables = [...(await tablesOf(db, schema)).keys()];
      for (const t of TABLES) expect(tables).toContain(t);

      const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: testDb.url });
      const first = await seedDatabase(db, config);
      expect(first.catalogue).toBe(true);
      const count = async (table: 'products' | 'categories' | 'settings' | 'shipping_options' | 'email_templates') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select(sql<number>`count(*)`.as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('products')).toBe(seedProducts.length);
      expect(await count('categories')).toBe(seedCategories.length);
      expect(await count('settings')).toBe(seedSettings.length);
      expect(await count('shipping_options')).toBe(seedShippingOptions.length);
      expect(await count('email_templates')).toBeGreaterThanOrEqual(6);

      // The demo customer is reset at every start.
      await db.updateTable('users').set({ loyalty_points: 1, total_points_earned: 2 }).where('email', '=', DEMO_CUSTOMER.email).execute();
      const second = await seedDatabase(db, config);
      expect(second.catalogue).toBe(false);
      expect(await count('products')).toBe(seedProducts.length);
      const customer = await db.selectFrom('users').selectAll().where('email', '=', DEMO_CUSTOMER.email).executeTakeFirstOrThrow();
      expect(customer.loyalty_points).toBe(250);
      expect(customer.total_points_earned).toBe(850);
      expect(customer.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      expect(await verifyPassword(customer.password_hash, DEMO_CUSTOMER.password)).toBe(true);
    } finally {
      await close();
    }
  });

  it('keeps demo accounts out of production and creates the first admin from the environment', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      await migrateToLatest(db, schema);
      const config = loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: testDb.url,
        ADMIN_EMAIL: 'owner@shop.example',
        ADMIN_PASSWORD: 'a-long-owner-password',
      });
      await seedDatabase(db, config);
      const users = await db.selectFrom('users').select(['email', 'role']).execute();
      expect(users).toEqual([{ email: 'owner@shop.example', role: 'admin' }]);
    } finally {
      await close();
    }
  });

  it('enforces stock and money constraints in the database itself', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      await migrateToLatest(db, schema);
      await seedDatabase(db, loadConfig({ NODE_ENV: 'test', DATABASE_URL: testDb.url }));
      const id = seedProducts[0]!.id;
      await expect(db.updateTable('products').set({ inventory: -1 }).where('id', '=', id).execute()).rejects.toThrow();
      await expect(db.updateTable('products').set({ price_cents: -5 }).where('id', '=', id).execute()).rejects.toThrow();
    } finally {
      await close();
    }
  });

  it('allows one variant per combination of option values, at a price of zero or more', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      await migrateToLatest(db, schema);
      const now = new Date().toISOString();
      await db
        .insertInto('products')
        .values({
          id: 'spray',
          name: 'Spray',
          description: 'd',
          price_cents: 500,
          max_price_cents: null,
          sole_variant_id: null,
          images: '[]',
          image_alts: '[]',
          sort_number: null,
          sku: null,
          brand: null,
          stripe_price_id: null,
          category_id: null,
          featured: 0,
          weight_lbs: null,
          length_in: null,
          width_in: null,
          height_in: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const variant = (id: string, option1: string, option2: string, priceCents: number) => ({
        id,
        product_id: 'spray',
        position: 0,
        option1,
        option2,
        option3: '',
        sku: null,
        price_cents: priceCents,
        compare_at_cents: null,
        weight_lbs: null,
        image: null,
        enabled: 1,
        created_at: now,
        updated_at: now,
      });
      await db
        .insertInto('product_variants')
        .values([variant('var_a', 'Lavender', '1 L', 500), variant('var_b', 'Lavender', '5 L', 0), variant('var_c', 'Mint', '1 L', 700)])
        .execute();
      // The same combination twice is refused, whatever its id or price.
      await expect(
        db
          .insertInto('product_variants')
          .values(variant('var_d', 'Lavender', '1 L', 900))
          .execute(),
      ).rejects.toThrow();
      await expect(db.updateTable('product_variants').set({ option1: 'Lavender' }).where('id', '=', 'var_c').execute()).rejects.toThrow();
      // A negative price (or compare-at price) is refused.
      await expect(
        db
          .insertInto('product_variants')
          .values(variant('var_e', 'Rose', '1 L', -1))
          .execute(),
      ).rejects.toThrow();
      await expect(db.updateTable('product_variants').set({ price_cents: -5 }).where('id', '=', 'var_a').execute()).rejects.toThrow();
      await expect(db.updateTable('product_variants').set({ compare_at_cents: -1 }).where('id', '=', 'var_a').execute()).rejects.toThrow();
      // At most three options.
      await expect(
        db.insertInto('product_options').values({ product_id: 'spray', position: 4, name: 'Extra', values: '["x"]' }).execute(),
      ).rejects.toThrow();
      expect(await db.selectFrom('product_variants').select(['id', 'option1', 'option2', 'price_cents']).orderBy('id').execute()).toEqual([
        { id: 'var_a', option1: 'Lavender', option2: '1 L', price_cents: 500 },
        { id: 'var_b', option1: 'Lavender', option2: '5 L', price_cents: 0 },
        { id: 'var_c', option1: 'Mint', option2: '1 L', price_cents: 700 },
      ]);
    } finally {
      await close();
    }
  });
});
