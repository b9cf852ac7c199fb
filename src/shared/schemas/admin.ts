import { z } from 'zod';
import { OrderStatus } from './orders.js';
import { MAX_ORDER_TOTAL_CENTS } from '../money.js';

/** The most any price or amount may be: the order ceiling, $999,999.99 (shared/money.ts). */
const tooLarge = (label: string) => `${label} cannot exceed $999,999.99`;

/** Admin texts of spec section 8, shared by the back office and the server. */
export const ADMIN_MESSAGES = {
  orderNotFound: 'Order not found',
  couponNotFound: 'Coupon not found',
  productNotFound: 'Product not found',
  categoryNotFound: 'Category not found',
  shippingNotFound: 'Shipping option not found',
  userNotFound: 'User not found',
  categoryInUse: (n: number) =>
    `This category still holds ${n} product${n === 1 ? '' : 's'}. Move or delete them before deleting the category.`,
  categoryExists: 'A category with this ID already exists',
  couponCodeExists: 'A coupon with this code already exists',
  /** Toast title and text when a coupon action asks for Stripe but no Stripe key is configured. */
  stripeFeatureDisabled: 'Feature Disabled',
  stripeCouponsDisabled: 'Stripe integration disabled in local mode',
  imageType: 'Images must be PNG, JPEG or WebP',
  imageSize: 'Images must be 5 MB or smaller',
  requiredFields: 'Please fill in all required fields',
  ownRole: 'You cannot remove your own admin role',
  lastAdmin: 'The last admin cannot be demoted',
} as const;

const page = z.coerce.number({ message: 'page must be a number' }).int().min(1, 'page must be at least 1').max(100000).default(1);
const pageSize = (d: number) =>
  z.coerce.number({ message: 'pageSize must be a number' }).int().min(1, 'pageSize must be at least 1').max(100, 'pageSize cannot exceed 100').default(d);
const search = z
  .string()
  .trim()
  .max(100, 'Search text cannot exceed 100 characters')
  .optional()
  .transform((v) => v || undefined);

export const AdminOrderListQuery = z
  .object({ page, pageSize: pageSize(20), search, status: OrderStatus.optional() })
  .strict();

export const OrderStatusInput = z.object({ status: OrderStatus }).strict();

/** The orders overview: how many days back, today included (7–90, 30 by default). */
export const OVERVIEW_DAY_RANGE = { min: 7, max: 90, default: 30 } as const;
export const AdminOrdersOverviewQuery = z
  .object({
    days: z.coerce
      .number({ message: 'days must be a number' })
      .int('days must be a whole number')
      .min(OVERVIEW_DAY_RANGE.min, `days must be at least ${OVERVIEW_DAY_RANGE.min}`)
      .max(OVERVIEW_DAY_RANGE.max, `days cannot exceed ${OVERVIEW_DAY_RANGE.max}`)
      .default(OVERVIEW_DAY_RANGE.default),
  })
  .strict();

/** The admin order form: user_id, shipping_address and total_amount (≥ 0, cents precision) required. */
export const AdminOrderInput = z
  .object({
    user_id: z.string({ message: 'User ID is required' }).trim().min(1, 'User ID is required').max(100),
    shipping_address: z.string({ message: 'Shipping address is required' }).trim().min(1, 'Shipping address is required').max(500),
    total_amount: z
      .number({ message: 'Total amount must be a number' })
      .min(0, 'Total amount cannot be negative')
      .max(MAX_ORDER_TOTAL_CENTS / 100, tooLarge('Total amount'))
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Total amount can have at most 2 decimals'),
    status: OrderStatus.default('pending'),
    email: z.email({ message: 'Please enter a valid email address' }).optional().or(z.literal('').transform(() => undefined)),
    elapsedMs: z.number().int().min(0).optional(),
    website: z.string().max(200).optional(),
  })
  .strict();
export type AdminOrderInput = z.input<typeof AdminOrderInput>;

/** Admin-created orders carry only a total: split 85% subtotal, 8% tax, 7% shipping. */
export function splitAdminTotal(totalCents: number): { subtotalCents: number; taxCents: number; shippingCents: number } {
  const subtotalCents = Math.round(totalCents * 0.85);
  const taxCents = Math.round(totalCents * 0.08);
  return { subtotalCents, taxCents, shippingCents: totalCents - subtotalCents - taxCents };
}

const money = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be in whole cents`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_ORDER_TOTAL_CENTS, tooLarge(label));

export const ProductInput = z
  .object({
    name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(200),
    description: z.string({ message: 'Description is required' }).trim().min(1, 'Description is required').max(5000),
    priceCents: money('Price'),
    inventory: z.number({ message: 'Inventory must be a number' }).int('Inventory must be a whole number').min(0, 'Inventory cannot be negative').max(1_000_000),
    category: z.string().max(50).nullish(),
    featured: z.boolean().default(false),
    sku: z.string().trim().max(100).nullish().transform((v) => v || null),
    brand: z.string().trim().max(100).nullish().transform((v) => v || null),
    stripePriceId: z.string().trim().max(100).nullish().transform((v) => v || null),
    weightLbs: z.number().min(0).max(100_000).nullish(),
    dimensions: z
      .object({ length: z.number().positive().nullish(), width: z.number().positive().nullish(), height: z.number().positive().nullish() })
      .nullish(),
    images: z.array(z.string().max(500)).max(10).optional(),
  })
  .strict();
export type ProductInput = z.input<typeof ProductInput>;

export const CATEGORY_MESSAGES = {
  idMin: 'ID must be at least 3 characters',
  idMax: 'ID cannot exceed 50 characters',
  idPattern: 'ID can only contain lowercase letters, numbers, and hyphens',
  nameMin: 'Name must be at least 2 characters',
  nameMax: 'Name cannot exceed 50 characters',
} as const;

export const CategoryInput = z
  .object({
    id: z.string().trim().min(3, CATEGORY_MESSAGES.idMin).max(50, CATEGORY_MESSAGES.idMax).regex(/^[a-z0-9-]+$/, CATEGORY_MESSAGES.idPattern),
    name: z.string().trim().min(2, CATEGORY_MESSAGES.nameMin).max(50, CATEGORY_MESSAGES.nameMax),
    description: z.string().trim().max(500).nullish().transform((v) => v || null),
    imageUrl: z.string().trim().max(500).nullish().transform((v) => v || null),
  })
  .strict();

export const CouponInput = z
  .object({
    code: z.string({ message: 'Code is required' }).trim().min(1, 'Code is required').max(50).transform((v) => v.toUpperCase()),
    description: z.string().trim().max(500).nullish().transform((v) => v || null),
    discountType: z.enum(['percentage', 'fixed']).default('percentage'),
    /** Percent for percentage coupons (0–100), cents for fixed ones. */
    discountValue: z
      .number({ message: 'Discount value is required' })
      .int()
      .min(0, 'Discount value cannot be negative')
      .max(MAX_ORDER_TOTAL_CENTS, tooLarge('Discount value')),
    minOrderCents: z.number().int().min(0, 'Minimum order cannot be negative').max(MAX_ORDER_TOTAL_CENTS, tooLarge('Minimum order')).nullish().transform((v) => v ?? null),
    maxUses: z.number().int().min(0, 'Max uses cannot be negative').nullish().transform((v) => v ?? null),
    validFrom: z.iso.datetime({ message: 'Valid from must be a date and time' }).optional(),
    validUntil: z.iso.datetime({ message: 'Valid until must be a date and time' }).nullish().transform((v) => v ?? null),
    isActive: z.boolean().default(true),
    freeProductId: z.string().max(100).nullish().transform((v) => (v && v !== 'none' ? v : null)),
    /** On create: also create the coupon in Stripe (the local coupon is saved either way). Ignored on update. */
    syncStripe: z.boolean({ message: 'syncStripe must be true or false' }).optional(),
  })
  .strict()
  .refine((c) => c.discountType !== 'percentage' || c.discountValue <= 100, { message: 'A percentage cannot exceed 100', path: ['discountValue'] });

/** DELETE /api/admin/coupons/:id?syncStripe=true asks for the Stripe copy to go too, even when none is recorded. */
export const CouponDeleteQuery = z.object({ syncStripe: z.enum(['true', 'false'], { message: 'syncStripe must be true or false' }).optional() }).strict();

/**
 * What happened to a coupon's Stripe copy: synced, disabled (no Stripe key, message
 * ADMIN_MESSAGES.stripeCouponsDisabled) or failed (Stripe's message). Absent when Stripe was not asked.
 */
export const CouponStripeSync = z.object({ status: z.enum(['synced', 'disabled', 'failed']), message: z.string().optional() });
export type CouponStripeSync = z.infer<typeof CouponStripeSync>;

export const ShippingOptionInput = z
  .object({
    name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(100),
    description: z.string().trim().max(500).nullish().transform((v) => v || null),
    priceCents: money('Price'),
    estimatedDays: z.string().trim().max(50).optional().transform((v) => v || '5-7'),
    enabled: z.boolean().default(true),
    minimumOrderCents: z.number().int().min(0, 'Minimum order cannot be negative').max(MAX_ORDER_TOTAL_CENTS, tooLarge('Minimum order')).nullish().transform((v) => v ?? null),
  })
  .strict();

export const ShippingEnabledInput = z.object({ enabled: z.boolean({ message: 'enabled must be true or false' }) }).strict();

export const AdminUserListQuery = z.object({ page, pageSize: pageSize(20), search }).strict();

export const UserPatchInput = z
  .object({
    emailVerified: z.boolean().optional(),
    role: z.enum(['client', 'admin']).optional(),
    /** Clamped to a minimum of 0. */
    loyaltyPoints: z.number().int().max(10_000_000).transform((v) => Math.max(0, v)).optional(),
  })
  .strict();
