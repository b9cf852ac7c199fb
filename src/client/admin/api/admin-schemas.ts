import '../../lib/zod-config.js';
import { z } from 'zod';
import { Category, Product } from '../../../shared/schemas/catalog.js';
import { OrderStatus, OrderView, OverviewMoneyView, ProductSalesView } from '../../../shared/schemas/orders.js';
import { AdminLowVariant } from '../../../shared/schemas/admin/variants.js';
import { CouponStripeSync } from '../../../shared/schemas/admin/coupons.js';
import { SessionUser } from '../../../shared/schemas/auth.js';

/** Response schemas of the admin API; only the back office (a lazy chunk) loads them. */
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });

export const AdminOrderRow = z.object({
  id: z.string(),
  orderNumber: z.string(),
  createdAt: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  customerName: z.string().nullable(),
  status: OrderStatus,
  paymentStatus: z.string(),
  itemCount: z.number().int(),
  totalCents: z.number().int(),
  stockShortfall: z.string().nullable().optional(),
  /** Entered by the shop (no payment provider). */
  ownerEntered: z.boolean().optional(),
  /** Its units left stock (the server's rule): cancelling it asks which go back. */
  tookStock: z.boolean().optional(),
  refundedCents: z.number().int().optional(),
  /** An open unpaid checkout: when its stock hold ends. */
  holdEndsAt: z.string().nullable().optional(),
  /** The statuses the server allows the order to move to (its own included). */
  allowedStatuses: z.array(OrderStatus).optional(),
});
export type AdminOrderRow = z.infer<typeof AdminOrderRow>;
export const AdminOrderPage = pageOf(AdminOrderRow).extend({ timeZone: z.string() });
export type AdminOrderPage = z.infer<typeof AdminOrderPage>;
export const OrderResponse = z.object({ order: OrderView });
export const OrderSaveResponse = z.union([z.object({ order: OrderView }), z.object({ ignored: z.literal(true) })]);
export const ShipStationResponse = z.object({ order: OrderView, trackingNumber: z.string().nullable() });
/** GET /api/admin/orders/overview: per UTC day (oldest first, today last), by status, totals. */
export const OrdersOverview = z.object({
  /** The period, as days of the shop's calendar in its time zone. */
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  days: z.array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), orders: z.number().int(), revenueCents: z.number().int() })),
  byStatus: z.array(z.object({ status: OrderStatus, count: z.number().int() })),
  totals: z.object({ orders: z.number().int(), revenueCents: z.number().int() }),
  /** Payments taken and refunds made in the period, each on its own day (decision 0046). */
  money: OverviewMoneyView,
  products: z.array(ProductSalesView),
});
export type OrdersOverview = z.infer<typeof OrdersOverview>;
export const TrackingResponse = z.object({ trackingNumber: z.string().nullable(), tracking: z.unknown() });

/**
 * A product as the Products tab lists it: `inventory` is the level on hand over all its variants,
 * `lowStockThreshold` its lowest variant's, `alertState` the worst of its variants' and
 * `lowVariants` those at or below their thresholds (decision 0036).
 */
export const AdminProduct = Product.extend({
  /** Draft: the owner's alone, not in the shop (migration 0037). */
  status: z.enum(['draft', 'active']).default('active'),
  /** Days after a one-time purchase its buyer is reminded to reorder; null: none (issue [7/8] item 4). */
  reorderAfterDays: z.number().int().nullable().default(null),
  lowStockThreshold: z.number().int(),
  variantCount: z.number().int().default(1),
  alertState: z.enum(['ok', 'low', 'out']).default('ok'),
  lowVariants: z.array(AdminLowVariant).default([]),
});
export type AdminProduct = z.infer<typeof AdminProduct>;
export const AdminProductPage = pageOf(AdminProduct);
export type AdminProductPage = z.infer<typeof AdminProductPage>;
export const ProductResponse = z.object({ product: Product });
export const CategoriesResponse = z.object({ items: z.array(Category) });
/** GET /api/admin/categories: every category, the empty ones too, with its products counted (shoppers see only those with an active one). */
export const AdminCategory = Category.extend({ activeProducts: z.number(), draftProducts: z.number(), shownToShoppers: z.boolean() });
export type AdminCategory = z.infer<typeof AdminCategory>;
export const AdminCategoriesResponse = z.object({ items: z.array(AdminCategory) });
export const CategoryResponse = z.object({ category: Category });
export const UploadResponse = z.object({ url: z.string() });
export const OkResponse = z.object({ ok: z.literal(true) });

export const AdminCoupon = z.object({
  id: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  discountType: z.enum(['percentage', 'fixed']),
  discountValue: z.number(),
  minOrderCents: z.number().int().nullable(),
  maxUses: z.number().int().nullable(),
  currentUses: z.number().int(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  isActive: z.boolean(),
  freeProductId: z.string().nullable(),
  /** Which of the free product's variants is given (null: its first switched-on one with a unit to give). */
  freeVariantId: z.string().nullable().default(null),
  ownerUserId: z.string().nullable(),
  /** Set when the coupon also exists in Stripe. */
  stripeCouponId: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminCoupon = z.infer<typeof AdminCoupon>;
export const AdminCouponPage = pageOf(AdminCoupon);
/** Create and delete also say what became of the Stripe copy, when Stripe was involved. */
export const CouponResponse = z.object({ coupon: AdminCoupon, stripe: CouponStripeSync.optional() });
export const CouponDeleteResponse = z.object({ ok: z.literal(true), stripe: CouponStripeSync.optional() });

export const AdminShippingOption = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priceCents: z.number().int(),
  estimatedDays: z.string(),
  enabled: z.boolean(),
  minimumOrderCents: z.number().int().nullable(),
});
export type AdminShippingOption = z.infer<typeof AdminShippingOption>;
export const ShippingOptionsResponse = z.object({ items: z.array(AdminShippingOption) });
export const ShippingOptionResponse = z.object({ option: AdminShippingOption });

/** A customer or admin as the users tab lists them: the session's person without addresses (a name may be missing). */
export const AdminUser = SessionUser.omit({ shippingAddress: true, billingAddress: true }).extend({ fullName: z.string().nullable() });
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUserPage = pageOf(AdminUser);
export const UserResponse = z.object({ user: AdminUser });
