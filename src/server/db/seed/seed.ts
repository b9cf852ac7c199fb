import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { Config } from '../../config.js';
import { nowIso } from '../../lib/ids.js';
import { hashPassword } from '../../accounts/password.js';
import { defaultEmailTemplates } from '../../email/default-templates.js';
import { seedCategories, seedCoupons, seedFaqs, seedProducts, seedSettings, seedShippingOptions } from './catalog-data.js';
import { createCategory, createCoupon, createFaq, createProduct, createShippingOption, createUser } from './factories.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from './demo-accounts.js';
import { removeDemoSubscriptions, seedDemoSubscription, seedSubscriptionPlans } from './subscriptions.js';
import { seedDemoReviews } from './reviews.js';
import { LOYALTY_REWARD_PERCENT, LOYALTY_REWARD_VALID_DAYS } from '../../../shared/pricing.js';

export type SeedResult = { catalogue: boolean; demoAccounts: boolean; admin: boolean };

/** Seeds an empty catalogue once; adds settings keys and built-in templates that are missing. */
export async function seedCatalogue(db: Kysely<Database>): Promise<boolean> {
  const existing = await db.selectFrom('categories').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  await db.transaction().execute(async (trx) => {
    for (const c of seedCategories) await createCategory(trx, c);
    // Stagger creation times so "newest first" is stable and meaningful.
    const start = Date.parse('2026-01-05T09:00:00.000Z');
    for (const [i, p] of seedProducts.entries()) {
      await createProduct(trx, { ...p, createdAt: new Date(start + i * 3_600_000).toISOString() });
    }
    for (const s of seedShippingOptions) await createShippingOption(trx, s);
    for (const c of seedCoupons) await createCoupon(trx, c);
    for (const f of seedFaqs) await createFaq(trx, f);
  });
  return true;
}

export async function seedSettingsAndTemplates(db: Kysely<Database>): Promise<void> {
  const at = nowIso();
  const haveKeys = new Set((await db.selectFrom('settings').select('key').execute()).map((r) => r.key));
  const missing = seedSettings.filter((s) => !haveKeys.has(s.key));
  if (missing.length) {
    await db
      .insertInto('settings')
      .values(missing.map((s) => ({ key: s.key, value: s.value, description: s.description, created_at: at, updated_at: at })))
      .execute();
  }
  const haveTemplates = new Set((await db.selectFrom('email_templates').select('id').execute()).map((r) => r.id));
  const missingTemplates = defaultEmailTemplates.filter((t) => !haveTemplates.has(t.id));
  if (missingTemplates.length) {
    await db
      .insertInto('email_templates')
      .values(
        missingTemplates.map((t) => ({
          id: t.id,
          name: t.name,
          subject: t.subject,
          html: t.html,
          text: t.text,
          variables: JSON.stringify(t.variables),
          built_in: 1,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
}

/**
 * Demo accounts outside production, reset at every start (the test customer back to 250 points,
 * 850 earned, and the two reward coupons those 850 gave). In production they never exist; the first admin comes from ADMIN_EMAIL/ADMIN_PASSWORD.
 */
/** How long ago the demo accounts were opened. */
const DEMO_ACCOUNT_AGE_MS = 180 * 24 * 3_600_000;

export async function seedAccounts(db: Kysely<Database>, config: Config): Promise<{ demo: boolean; admin: boolean }> {
  const demoEmails = [DEMO_ADMIN.email, DEMO_CUSTOMER.email];
  if (config.env === 'production') {
    await removeDemoSubscriptions(db, demoEmails);
    await db.deleteFrom('users').where('email', 'in', demoEmails).execute();
    const anyAdmin = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
    if (anyAdmin || !config.adminEmail || !config.adminPassword) return { demo: false, admin: false };
    await createUser(db, {
      email: config.adminEmail,
      password: config.adminPassword,
      fullName: 'Shop Owner',
      role: 'admin',
      emailVerified: true,
    });
    return { demo: false, admin: true };
  }

  const at = nowIso();
  for (const demo of [
    { ...DEMO_ADMIN, role: 'admin' as const, loyaltyPoints: 0, totalPointsEarned: 0 },
    { ...DEMO_CUSTOMER, role: 'client' as const },
  ]) {
    const row = await db.selectFrom('users').select(['id']).where('email', '=', demo.email).executeTakeFirst();
    if (!row) {
      await createUser(db, {
        email: demo.email,
        password: demo.password,
        fullName: demo.fullName,
        role: demo.role,
        loyaltyPoints: demo.loyaltyPoints,
        totalPointsEarned: demo.totalPointsEarned,
        emailVerified: true,
        // Returning customers (850 points earned take a while): the dashboard greets them "Welcome back".
        createdAt: new Date(Date.now() - DEMO_ACCOUNT_AGE_MS).toISOString(),
      });
    } else {
      await db
        .updateTable('users')
        .set({
          role: demo.role,
          password_hash: await hashPassword(demo.password),
          loyalty_points: demo.loyaltyPoints,
          total_points_earned: demo.totalPointsEarned,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .execute();
    }
  }
  await seedDemoRewardCoupons(db);
  // The demo customer's subscription and its two past orders, on `npm start` / `npm run dev` only:
  // the HTTP tests and browser journeys (NODE_ENV=test) count orders from an empty shop, so they
  // call seedDemoSubscription themselves where they need it.
  if (config.env === 'development') await seedDemoSubscription(db);
  // The demo products' reviews (issue [6/8]), from the demo customer's and three demo buyers' paid
  // orders: on the same starts only, after the subscription (the laundry review is of its first order).
  if (config.env === 'development') await seedDemoReviews(db);
  return { demo: true, admin: false };
}

/**
 * The test customer's reward coupons, reset with the points: the fixture's own (unused, valid
 * LOYALTY_REWARD_VALID_DAYS from now) and no others, so the card shows what 850 earned points gave.
 */
async function seedDemoRewardCoupons(db: Kysely<Database>): Promise<void> {
  const customer = await db.selectFrom('users').select(['id']).where('email', '=', DEMO_CUSTOMER.email).executeTakeFirst();
  if (!customer) return;
  const now = new Date();
  const validUntil = new Date(now.getTime() + LOYALTY_REWARD_VALID_DAYS * 86_400_000).toISOString();
  await db.deleteFrom('coupons').where('owner_user_id', '=', customer.id).execute();
  await db
    .insertInto('coupons')
    .values(
      DEMO_CUSTOMER.rewardCouponCodes.map((code, i) => ({
        id: `coupon-demo-reward-${i + 1}`,
        code,
        description: `Loyalty reward: ${LOYALTY_REWARD_PERCENT}% off`,
        discount_type: 'percentage' as const,
        discount_value: LOYALTY_REWARD_PERCENT,
        min_order_cents: null,
        max_uses: 1,
        current_uses: 0,
        valid_from: now.toISOString(),
        valid_until: validUntil,
        is_active: 1,
        free_product_id: null,
        stripe_coupon_id: null,
        owner_user_id: customer.id,
        // Apart by a second, so "newest first" lists them in a stable order.
        created_at: new Date(now.getTime() - (DEMO_CUSTOMER.rewardCouponCodes.length - i) * 1000).toISOString(),
        updated_at: now.toISOString(),
      })),
    )
    .execute();
}

export async function seedDatabase(db: Kysely<Database>, config: Config): Promise<SeedResult> {
  const catalogue = await seedCatalogue(db);
  // Also on a catalogue seeded before subscriptions came: each seeded plan is written once, never over the owner's.
  await seedSubscriptionPlans(db);
  await seedSettingsAndTemplates(db);
  const accounts = await seedAccounts(db, config);
  return { catalogue, demoAccounts: accounts.demo, admin: accounts.admin };
}
