import { z } from 'zod';
import { checkPeriod, PeriodFields } from './reports.js';
import { LinkLine } from './link-line.js';
import { REORDER_LIMITS, REORDER_MESSAGES, REORDER_SKIP_REASONS } from '../reorder-reminders.js';

export * from '../reorder-reminders.js';

/**
 * Reorder reminders (issue [7/8] item 4): the product form's field, the reorder link's answer and
 * the owner's figures. Limits, reasons and texts are in ../reorder-reminders.ts.
 */

/** The product form's "Reminder to reorder after (days)": whole days, or null for none (omitted: unchanged). */
export const ReorderAfterDays = z
  .number({ message: REORDER_MESSAGES.days })
  .int(REORDER_MESSAGES.days)
  .min(REORDER_LIMITS.daysMin, REORDER_MESSAGES.days)
  .max(REORDER_LIMITS.daysMax, REORDER_MESSAGES.days)
  .nullish();

/** One line of a reorder link: the product as it was bought, priced now, and whether it can be bought now. */
export const ReorderLine = LinkLine.extend({
  /** The subscription plan's first-delivery discount when the product offers subscribe and save, else null. */
  subscribePercent: z.number().nullable(),
});
export type ReorderLine = z.infer<typeof ReorderLine>;

/** GET and POST /api/reorder/:token: what the link would put in the cart. Reading it changes nothing. */
export const ReorderPreview = z.object({ orderNumber: z.string(), lines: z.array(ReorderLine) });
export type ReorderPreview = z.infer<typeof ReorderPreview>;

/** GET /api/admin/reorder-reminders?from=&to= (the shop's days; both or neither: the last 30 days). */
export const AdminReorderRemindersQuery = z
  .object({ ...PeriodFields })
  .strict()
  .superRefine(checkPeriod);
export type AdminReorderRemindersQuery = z.infer<typeof AdminReorderRemindersQuery>;

export const AdminReorderReminderRow = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNumber: z.string(),
  productId: z.string(),
  productName: z.string(),
  email: z.string(),
  state: z.enum(['sent', 'skipped']),
  reason: z.enum(REORDER_SKIP_REASONS).nullable(),
  createdAt: z.string(),
  clickedAt: z.string().nullable(),
  followedOrderId: z.string().nullable(),
  followedOrderNumber: z.string().nullable(),
  followedCents: z.number().nullable(),
});
export type AdminReorderReminderRow = z.infer<typeof AdminReorderReminderRow>;

export const AdminReorderReminders = z.object({
  from: z.string(),
  to: z.string(),
  /** Reminders (order lines) e-mailed in the period, and the e-mails they went in. */
  sent: z.number(),
  emails: z.number(),
  /** Lines decided in the period and not e-mailed, by reason. */
  skipped: z.array(z.object({ reason: z.enum(REORDER_SKIP_REASONS), count: z.number() })),
  /** Reminder e-mails whose link was used. */
  clicked: z.number(),
  /** Paid orders of a reminded product by the same address within the follow-up days after a reminder sent in the period. */
  followedOrders: z.number(),
  /** Those orders' money received, net of refunds (each order once). */
  followedRevenueCents: z.number(),
  last: z.array(AdminReorderReminderRow),
});
export type AdminReorderReminders = z.infer<typeof AdminReorderReminders>;
