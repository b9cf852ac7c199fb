import type { Kysely } from 'kysely';
import type { Database, UsersTable } from '../schema.js';
import { leadingNumber } from '../../../shared/schemas/catalog.js';
import { randomString, nowIso } from '../../lib/ids.js';
import { hashPassword } from '../../accounts/password.js';
import { noteShopChange } from '../../http/shop-changes.js';
import { openStock } from '../../inventory/stock.js';
import { createSoleVariant, refreshProductCopies } from '../../catalog/variants.js';
import type { SeedCategory, SeedCoupon, SeedFaq, SeedProduct, SeedShippingOption, UnitSize } from './catalog-data.js';

/**
 * Factories shared by the seed, the HTTP tests and the browser tests: each builds a complete,
 * valid row from a few overrides and inserts it.
 */
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomString(4)}`;

export async function createCategory(db: Kysely<Database>, o: Partial<SeedCategory> = {}): Promise<SeedCategory> {
  const c: SeedCategory = {
    id: o.id ?? `cat-${unique()}`,
    name: o.name ?? 'Test Category',
    description: o.description ?? 'A category made by a test.',
    imageUrl: o.imageUrl ?? '/images/placeholder.svg',
    sortOrder: o.sortOrder ?? 100,
  };
  await db
    .insertInto('categories')
    .values({
      id: c.id,
      name: c.name,
      description: c.description,
      image_url: c.imageUrl,
      sort_order: c.sortOrder,
      created_at: nowIso(),
    })
    .execute();
  return c;
}

export async function createProduct(db: Kysely<Database>, o: Partial<SeedProduct> & { createdAt?: string } = {}): Promise<SeedProduct> {
  const p: SeedProduct = {
    id: o.id ?? `prod-${unique()}`,
    name: o.name ?? 'Test Product',
    description: o.description ?? 'A product made by a test.',
    priceCents: o.priceCents ?? 999,
    categoryId: o.categoryId ?? 'cleaning-cloths',
    images: o.images ?? ['/images/placeholder.svg'],
    featured: o.featured ?? false,
    inventory: o.inventory ?? 50,
    sku: o.sku,
    brand: o.brand,
    weightLbs: o.weightLbs,
    dimensions: o.dimensions,
    options: o.options,
    variants: o.variants,
    unitSize: o.unitSize,
    reorderAfterDays: o.reorderAfterDays,
  };
  const at = o.createdAt ?? nowIso();
  await db
    .insertInto('products')
    .values({
      id: p.id,
      name: p.name,
      description: p.description,
      price_cents: p.priceCents,
      category_id: p.categoryId,
      images: JSON.stringify(p.images),
      featured: p.featured ? 1 : 0,
      inventory: 0,
      sort_number: leadingNumber(p.name),
      sku: p.sku ?? null,
      brand: p.brand ?? null,
      stripe_price_id: null,
      weight_lbs: p.weightLbs ?? null,
      length_in: p.dimensions?.length ?? null,
      width_in: p.dimensions?.width ?? null,
      height_in: p.dimensions?.height ?? null,
      reorder_after_days: p.reorderAfterDays ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const variantId = await createSoleVariant(db, { id: p.id, priceCents: p.priceCents, sku: p.sku ?? null, at });
  await openStock(db, { productId: p.id, variantId }, { quantity: p.inventory, actor: { userId: null, label: 'Shop' }, at: new Date(at) });
  if (p.unitSize) await giveUnitSize(db, variantId, p.unitSize);
  if (p.options?.length && p.variants?.length) await giveOptions(db, p.id, p.options, p.variants, at);
  // Written outside the back office: the running shop is told, as after an admin write.
  await noteShopChange(db);
  return p;
}

/** A seeded variant's size, for its price per unit (decision 0043). */
async function giveUnitSize(db: Kysely<Database>, variantId: string, size: UnitSize): Promise<void> {
  await db.updateTable('product_variants').set({ unit_quantity: size.quantity, unit: size.unit }).where('id', '=', variantId).execute();
}

/**
 * A seeded product's options and versions: the first version is the product's own variant (its
 * price, SKU and stock as created), the others are added with theirs.
 */
async function giveOptions(
  db: Kysely<Database>,
  productId: string,
  options: NonNullable<SeedProduct['options']>,
  variants: NonNullable<SeedProduct['variants']>,
  at: string,
): Promise<void> {
  await db
    .insertInto('product_options')
    .values(options.map((o, i) => ({ product_id: productId, position: i + 1, name: o.name, values: JSON.stringify(o.values) })))
    .execute();
  const [first, ...rest] = variants;
  const [option1 = '', option2 = '', option3 = ''] = first!.options;
  await db
    .updateTable('product_variants')
    .set({ option1, option2, option3, compare_at_cents: first!.compareAtCents ?? null, image: first!.image ?? null, updated_at: at })
    .where('id', '=', `var_${productId}`)
    .execute();
  if (first!.unitSize) await giveUnitSize(db, `var_${productId}`, first!.unitSize);
  for (const [i, v] of rest.entries()) {
    const id = await createVariant(db, productId, {
      options: v.options,
      priceCents: v.priceCents,
      sku: v.sku ?? null,
      inventory: v.inventory,
      position: i + 1,
      id: `var_${productId}-${v.options
        .join('-')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')}`,
    });
    if (v.compareAtCents !== undefined || v.image !== undefined)
      await db
        .updateTable('product_variants')
        .set({ compare_at_cents: v.compareAtCents ?? null, image: v.image ?? null })
        .where('id', '=', id)
        .execute();
    if (v.unitSize) await giveUnitSize(db, id, v.unitSize);
  }
  await refreshProductCopies(db, productId, at);
}

/**
 * Another variant of a product made by createProduct (its first stays `var_<productId>`), with its
 * own option values, price, SKU and opening stock; the product's copies follow.
 */
export async function createVariant(
  db: Kysely<Database>,
  productId: string,
  o: {
    id?: string;
    options?: string[];
    priceCents?: number;
    sku?: string | null;
    inventory?: number;
    enabled?: boolean;
    position?: number;
  } = {},
): Promise<string> {
  const id = o.id ?? `var_${unique()}`;
  const at = nowIso();
  const [option1 = '', option2 = '', option3 = ''] = o.options ?? [id];
  await db
    .insertInto('product_variants')
    .values({
      id,
      product_id: productId,
      position: o.position ?? 1,
      option1,
      option2,
      option3,
      sku: o.sku ?? null,
      price_cents: o.priceCents ?? 999,
      compare_at_cents: null,
      weight_lbs: null,
      image: null,
      enabled: o.enabled === false ? 0 : 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await openStock(db, { productId, variantId: id }, { quantity: o.inventory ?? 50, actor: { userId: null, label: 'Shop' } });
  await refreshProductCopies(db, productId, at);
  await noteShopChange(db);
  return id;
}

export async function createShippingOption(db: Kysely<Database>, o: Partial<SeedShippingOption> = {}): Promise<SeedShippingOption> {
  const s: SeedShippingOption = {
    id: o.id ?? `ship-${unique()}`,
    name: o.name ?? 'Test Shipping',
    description: o.description ?? '',
    priceCents: o.priceCents ?? 599,
    estimatedDays: o.estimatedDays ?? '5-7',
    enabled: o.enabled ?? true,
    minimumOrderCents: o.minimumOrderCents ?? null,
    sortOrder: o.sortOrder ?? 100,
  };
  const at = nowIso();
  await db
    .insertInto('shipping_options')
    .values({
      id: s.id,
      name: s.name,
      description: s.description,
      price_cents: s.priceCents,
      estimated_days: s.estimatedDays,
      enabled: s.enabled ? 1 : 0,
      minimum_order_cents: s.minimumOrderCents,
      sort_order: s.sortOrder,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return s;
}

export async function createCoupon(db: Kysely<Database>, o: Partial<SeedCoupon> = {}): Promise<SeedCoupon> {
  const c: SeedCoupon = {
    id: o.id ?? `coupon-${Date.now()}-${randomString(6)}`,
    code: (o.code ?? `TEST${randomString(6)}`).toUpperCase(),
    description: o.description ?? '',
    discountType: o.discountType ?? 'percentage',
    discountValue: o.discountValue ?? 10,
    minOrderCents: o.minOrderCents ?? null,
    maxUses: o.maxUses ?? null,
    currentUses: o.currentUses ?? 0,
    validFrom: o.validFrom ?? '2025-01-01T00:00:00.000Z',
    validUntil: o.validUntil ?? null,
    isActive: o.isActive ?? true,
    freeProductId: o.freeProductId ?? null,
  };
  const at = nowIso();
  await db
    .insertInto('coupons')
    .values({
      id: c.id,
      code: c.code,
      description: c.description,
      discount_type: c.discountType,
      discount_value: c.discountValue,
      min_order_cents: c.minOrderCents,
      max_uses: c.maxUses,
      current_uses: c.currentUses,
      valid_from: c.validFrom,
      valid_until: c.validUntil,
      is_active: c.isActive ? 1 : 0,
      free_product_id: c.freeProductId,
      stripe_coupon_id: null,
      owner_user_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return c;
}

export async function createFaq(db: Kysely<Database>, o: Partial<SeedFaq> = {}): Promise<SeedFaq> {
  const f: SeedFaq = {
    id: o.id ?? `faq-${unique()}`,
    question: o.question ?? 'A test question?',
    answer: o.answer ?? 'A test answer.',
    category: o.category === undefined ? 'General' : o.category,
    sortOrder: o.sortOrder ?? 100,
  };
  const at = nowIso();
  await db
    .insertInto('faqs')
    .values({
      id: f.id,
      question: f.question,
      answer: f.answer,
      category: f.category,
      sort_order: f.sortOrder,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return f;
}

type CreateUserInput = {
  id?: string;
  email?: string;
  fullName?: string;
  password?: string;
  role?: UsersTable['role'];
  loyaltyPoints?: number;
  totalPointsEarned?: number;
  emailVerified?: boolean;
  createdAt?: string;
};

export async function createUser(
  db: Kysely<Database>,
  o: CreateUserInput = {},
): Promise<{ id: string; email: string; password: string; role: UsersTable['role'] }> {
  const id = o.id ?? `user_${unique()}`;
  const email = (o.email ?? `user-${unique()}@example.com`).toLowerCase();
  const password = o.password ?? 'Test-Password-1';
  const role = o.role ?? 'client';
  const at = o.createdAt ?? nowIso();
  await db
    .insertInto('users')
    .values({
      id,
      email,
      full_name: o.fullName ?? 'Test User',
      phone: null,
      role,
      password_hash: await hashPassword(password),
      email_verified: o.emailVerified ? 1 : 0,
      loyalty_points: o.loyaltyPoints ?? 0,
      total_points_earned: o.totalPointsEarned ?? 0,
      shipping_address: null,
      billing_address: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { id, email, password, role };
}
