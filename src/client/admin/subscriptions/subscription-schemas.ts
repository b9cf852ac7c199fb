import '../../lib/zod-config.js';
import { z } from 'zod';
import { CancelSubscriptionInput, DeliveryOutcome, SubscriptionEventView } from '../../../shared/subscriptions.js';

/**
 * The answers of the owner's subscription routes (src/server/subscriptions/admin-list.ts), parsed
 * by the tab and by the server's HTTP test, so the two cannot drift apart.
 */

export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'payment_failing', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const AdminSubscriptionItem = z.object({
  productId: z.string(),
  variantId: z.string(),
  /** "Laundry Powder — 2 lb", as every list names a line. */
  name: z.string(),
  quantity: z.number().int(),
  sku: z.string().nullable(),
});

export const AdminSubscriptionRow = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  email: z.string(),
  userId: z.string(),
  everyWeeks: z.number().int(),
  discountPercent: z.number().int(),
  terms: z.string(),
  items: z.array(AdminSubscriptionItem),
  nextRenewalAt: z.string().nullable(),
  deliveries: z.number().int(),
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
});
export type AdminSubscriptionRow = z.infer<typeof AdminSubscriptionRow>;

export const AdminSubscriptionCounts = z.object({
  active: z.number().int(),
  paused: z.number().int(),
  payment_failing: z.number().int(),
  cancelled: z.number().int(),
});
export type AdminSubscriptionCounts = z.infer<typeof AdminSubscriptionCounts>;

export const AdminSubscriptionPage = z.object({
  subscriptions: z.array(AdminSubscriptionRow),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
  counts: AdminSubscriptionCounts,
});
export type AdminSubscriptionPage = z.infer<typeof AdminSubscriptionPage>;

export const AdminSubscriptionCycle = z.object({
  cycle: z.number().int(),
  dueAt: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  message: z.string().nullable(),
  orderId: z.string().nullable(),
  orderNumber: z.string().nullable(),
  amountCents: z.number().int().nullable(),
});
export type AdminSubscriptionCycle = z.infer<typeof AdminSubscriptionCycle>;

export const AdminSubscriptionDetail = AdminSubscriptionRow.extend({
  cycles: z.array(AdminSubscriptionCycle),
  /** Its timeline, newest first: who did what (the sentence is the client's: subscription-event-text.ts). */
  events: z.array(SubscriptionEventView),
  /** One-time items riding with the next delivery only. */
  extras: z.array(
    z.object({ variantId: z.string(), name: z.string(), quantity: z.number().int(), unitPriceCents: z.number().int().nullable() }),
  ),
  /** Where it ships (the address form starts from it); null when the checkout kept none. */
  address: z
    .object({ name: z.string(), address: z.string(), city: z.string(), state: z.string(), zip: z.string(), country: z.string() })
    .nullable(),
  /** The variants of its items left out of the next delivery only. */
  skippedNext: z.array(z.string()),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  consentText: z.string(),
  consentAt: z.string(),
  firstOrder: z.object({ id: z.string(), orderNumber: z.string().nullable() }),
});
export type AdminSubscriptionDetail = z.infer<typeof AdminSubscriptionDetail>;
export type AdminSubscriptionEvent = AdminSubscriptionDetail['events'][number];

export const AdminSubscriptionDetailResponse = z.object({ subscription: AdminSubscriptionDetail });

/** POST /api/admin/subscriptions/:id/deliver-now: the detail, and what became of the delivery. */
export const AdminDeliverNowResponse = AdminSubscriptionDetailResponse.extend({ delivery: DeliveryOutcome });
export type AdminDeliverNowResponse = z.infer<typeof AdminDeliverNowResponse>;

/** The owner's "Cancel subscription" form: the customer's reason (as the account's cancel takes it) and whether to e-mail them. */
export const AdminCancelForm = CancelSubscriptionInput.extend({ notifyCustomer: z.boolean() }).strict();
export type AdminCancelForm = z.infer<typeof AdminCancelForm>;

export const SUBSCRIPTION_LIST_MESSAGES = {
  emptyFiltered: 'No subscriptions match these filters.',
  empty: 'No subscriptions yet.',
} as const;

/** One variant's line of "Upcoming" (src/server/subscriptions/admin-upcoming.ts): units due per window against stock. */
export const AdminUpcomingRow = z.object({
  variantId: z.string(),
  productId: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  units7: z.number().int(),
  units30: z.number().int(),
  units90: z.number().int(),
  available: z.number().int(),
  shortfall7: z.number().int(),
  shortfall30: z.number().int(),
  shortfall90: z.number().int(),
});
export type AdminUpcomingRow = z.infer<typeof AdminUpcomingRow>;

/** GET /api/admin/subscriptions/upcoming. */
export const AdminUpcomingResponse = z.object({
  rows: z.array(AdminUpcomingRow),
  generatedAt: z.string(),
  windows: z.tuple([z.literal(7), z.literal(30), z.literal(90)]),
});
export type AdminUpcomingResponse = z.infer<typeof AdminUpcomingResponse>;

export const UPCOMING_MESSAGES = {
  empty: 'No deliveries due in the next 90 days.',
  enough: 'Enough stock for the next 90 days',
} as const;
