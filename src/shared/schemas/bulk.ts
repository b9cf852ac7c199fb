import { z } from 'zod';
import { ORDER_STATUSES } from './orders.js';

/**
 * Work in bulk (issue 28): the order list's and the Products tab's selections, sent as id lists.
 * Each item is done on its own and reported on its own, so one refused order never hides what
 * happened to the others.
 */

/** The most ids one bulk request takes: a full page of the lists (100 at most) and no more. */
export const BULK_MAX = 100;

export const BULK_MESSAGES = {
  noOrders: 'Select at least one order',
  tooManyOrders: `Select at most ${BULK_MAX} orders at a time`,
  noProducts: 'Select at least one product',
  tooManyProducts: `Select at most ${BULK_MAX} products at a time`,
  badId: 'Each id must be 1 to 100 characters',
  status: 'Choose the status to set',
  notify: 'notify must be true or false',
  featured: 'featured must be true or false',
  category: 'Choose a category (or none)',
  action: 'action must be category, featured or delete',
  alreadyStatus: (status: string) => `Already ${status}`,
  orderNotFound: 'Order not found',
  productNotFound: 'Product not found',
  alreadyCategory: 'Already in this category',
  alreadyFeatured: (featured: boolean) => (featured ? 'Already featured' : 'Already not featured'),
  unexpected: 'Something went wrong with this one; try it again on its own.',
} as const;

/** Ids as the lists send them: each checked, repeated ones counted once (then the limit). */
const ids = (none: string, tooMany: string) =>
  z
    .array(z.string({ message: BULK_MESSAGES.badId }).min(1, BULK_MESSAGES.badId).max(100, BULK_MESSAGES.badId), {
      message: none,
    })
    .max(BULK_MAX * 10, tooMany)
    .transform((list) => [...new Set(list)])
    .pipe(z.array(z.string()).min(1, none).max(BULK_MAX, tooMany));

const OrderIds = ids(BULK_MESSAGES.noOrders, BULK_MESSAGES.tooManyOrders);
const ProductIds = ids(BULK_MESSAGES.noProducts, BULK_MESSAGES.tooManyProducts);

/** POST /api/admin/orders/bulk/status: each order's status through the one status change, e-mailing its customer or not. */
export const BulkOrderStatusInput = z
  .object({
    ids: OrderIds,
    status: z.enum(ORDER_STATUSES, { message: BULK_MESSAGES.status }),
    notify: z.boolean({ message: BULK_MESSAGES.notify }),
  })
  .strict();
export type BulkOrderStatusInput = z.input<typeof BulkOrderStatusInput>;

/** POST /api/admin/orders/bulk/labels: one label per order, bought as the single "Send to ShipStation" buys it. */
export const BulkOrderIdsInput = z.object({ ids: OrderIds }).strict();

/** POST /api/admin/products/bulk: one change for every selected product. */
export const BulkProductInput = z.discriminatedUnion(
  'action',
  [
    z
      .object({ action: z.literal('category'), ids: ProductIds, categoryId: z.string().max(50, BULK_MESSAGES.category).nullable() })
      .strict(),
    z.object({ action: z.literal('featured'), ids: ProductIds, featured: z.boolean({ message: BULK_MESSAGES.featured }) }).strict(),
    z.object({ action: z.literal('delete'), ids: ProductIds }).strict(),
  ],
  { message: BULK_MESSAGES.action },
);
export type BulkProductInput = z.input<typeof BulkProductInput>;

/** What happened to one item: changed, skipped (with the reason), or not found. */
export const BulkOutcome = z.object({
  id: z.string(),
  /** The order number or product name, when the item exists. */
  label: z.string().nullable(),
  result: z.enum(['changed', 'skipped', 'not_found']),
  message: z.string().nullable(),
});
export type BulkOutcome = z.infer<typeof BulkOutcome>;

export const BulkResponse = z.object({ results: z.array(BulkOutcome) });
export type BulkResponse = z.infer<typeof BulkResponse>;
