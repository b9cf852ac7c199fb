/**
 * Reorder reminders (issue [7/8] item 4): the owner sets a refill's typical use period; a one-time
 * buyer who said yes to offers and reminders gets one e-mail that many days after the order was
 * paid, to reorder in one click or subscribe and save, unless they ordered it again or subscribed
 * since. The limits, reasons and texts of both sides (no zod here: the schemas are in
 * schemas/reorder-reminders.ts).
 */
export const REORDER_LIMITS = {
  daysMin: 7,
  daysMax: 365,
  /** How far back past its due day a reminder still goes: a shop turning it on (or back from downtime) does not mail its history. */
  catchUpDays: 14,
  /** How long a reminder's reorder link works, and how long after it an order of the product counts as one that followed. */
  linkDays: 30,
  /** The owner's list: the last reminders sent or skipped. */
  lastRows: 20,
} as const;

export const REORDER_MESSAGES = {
  days: `Reminder to reorder is a whole number of days from ${REORDER_LIMITS.daysMin} to ${REORDER_LIMITS.daysMax}; leave it empty for no reminders`,
  hint: `For refills: one-time buyers who said yes to offers get a reminder this many days after their order was paid, to reorder in one click or subscribe and save (unless they ordered it again or subscribed). ${REORDER_LIMITS.daysMin}–${REORDER_LIMITS.daysMax} days; leave empty for none.`,
  linkUnknown: 'This link is not valid. Use the link in the e-mail as it is, or find the products in the shop.',
  linkExpired: `This link has expired: reorder links work for ${REORDER_LIMITS.linkDays} days. The products are still in the shop.`,
  nothingLeft: 'None of these products can be bought right now. We are sorry: have a look at what is in stock.',
} as const;

/** Why a reminder was not e-mailed (reorder_reminders.reason). */
export const REORDER_SKIP_REASONS = [
  'reordered',
  'subscribed',
  'no-consent',
  'opted-out',
  'no-postal-address',
  'product-unavailable',
  'sold-out',
  'order-cancelled',
  'order-refunded',
  'no-email',
] as const;
export type ReorderSkipReason = (typeof REORDER_SKIP_REASONS)[number];

export const REORDER_SKIP_WORDS: Record<ReorderSkipReason, string> = {
  reordered: 'Ordered it again already',
  subscribed: 'Subscribed to it',
  'no-consent': 'No consent to e-mail offers',
  'opted-out': 'Unsubscribed from offers',
  'no-postal-address': 'No postal address in Settings → General',
  'product-unavailable': 'Product no longer in the shop',
  'sold-out': 'Sold out when due',
  'order-cancelled': 'Order cancelled',
  'order-refunded': 'Order refunded',
  'no-email': 'Order has no e-mail address',
};
