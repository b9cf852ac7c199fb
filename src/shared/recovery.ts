/**
 * Checkout recovery (issue [7/8] item 3, decision 0061): a checkout left unpaid for an hour, by an
 * address that said yes to offers and reminders, gets up to two e-mails with a link that puts its
 * cart back. The owner's settings, the states the owner sees, and the texts of both (no zod here:
 * the cart page reads the texts; the schemas are in schemas/recovery.ts).
 */
export const RECOVERY_LIMITS = {
  firstHoursMin: 1,
  firstHoursMax: 48,
  secondHoursMin: 2,
  secondHoursMax: 168,
  couponPercentMax: 50,
  couponDaysMin: 1,
  couponDaysMax: 30,
  /** How long a restore link works, and how long after its last e-mail an order still counts as recovered. */
  linkDays: 7,
  /** A recovery coupon goes to one address at most once in this many days. */
  couponEveryDays: 30,
} as const;

export type RecoverySettings = {
  enabled: boolean;
  /** Hours after the checkout the first e-mail goes. */
  firstAfterHours: number;
  /** Hours after the checkout the second goes; 0: no second e-mail. */
  secondAfterHours: number;
  /** Percent off in the second e-mail's single-use coupon; 0: no coupon. */
  couponPercent: number;
  /** Days the coupon can be used. */
  couponDays: number;
};

export const DEFAULT_RECOVERY_SETTINGS: RecoverySettings = {
  enabled: false,
  firstAfterHours: 1,
  secondAfterHours: 24,
  couponPercent: 0,
  couponDays: 7,
};

export const RECOVERY_MESSAGES = {
  firstHours: `The first e-mail goes between ${RECOVERY_LIMITS.firstHoursMin} and ${RECOVERY_LIMITS.firstHoursMax} hours after the checkout: enter a whole number of hours`,
  secondHours: `The second e-mail goes between ${RECOVERY_LIMITS.secondHoursMin} and ${RECOVERY_LIMITS.secondHoursMax} hours after the checkout, or 0 for none: enter a whole number of hours`,
  secondAfterFirst: 'The second e-mail must go later than the first: choose more hours for it, or 0 for no second e-mail',
  couponPercent: `The coupon's discount is a whole percent from 0 (no coupon) to ${RECOVERY_LIMITS.couponPercentMax}`,
  couponDays: `The coupon can be used for ${RECOVERY_LIMITS.couponDaysMin} to ${RECOVERY_LIMITS.couponDaysMax} days: enter a whole number of days`,
  noPostalAddress:
    'Offers and reminders must show where the shop can be reached by post. Enter a postal address in Settings → General first, then turn recovery e-mails on.',
  saved: 'Checkout recovery settings saved.',
  linkUnknown: 'This link is not valid. Use the link in the e-mail as it is, or fill your cart again from the shop.',
  linkExpired: `This link has expired: cart links work for ${RECOVERY_LIMITS.linkDays} days. Your cart can be filled again from the shop.`,
  linkUsed: 'This cart was put back already, on the device where the link was first opened. Open the cart there, or fill it again here.',
  restored: 'Your cart is back. Check it over and go to checkout when you are ready.',
  nothingLeft: 'Everything in this cart has sold out since. We are sorry: have a look at what is in stock.',
  emptied: 'Your cart is empty, so no reminders about it will be sent.',
} as const;

/** A recovery's state as the owner's list shows it. */
export const RECOVERY_STATES = ['abandoned', 'emailed', 'recovered', 'opted-out', 'expired', 'closed'] as const;
export type RecoveryState = (typeof RECOVERY_STATES)[number];

export const RECOVERY_STATE_LABELS: Record<RecoveryState, string> = {
  abandoned: 'Abandoned',
  emailed: 'E-mailed',
  recovered: 'Recovered',
  'opted-out': 'Opted out',
  expired: 'Expired',
  closed: 'Closed',
};

/** Why a recovery was closed or is not e-mailed (checkout_recoveries.reason). */
export const RECOVERY_REASONS = ['no-consent', 'off', 'no-postal-address', 'ordered', 'newer-checkout', 'emptied', 'sold-out'] as const;
export type RecoveryReason = (typeof RECOVERY_REASONS)[number];

export const RECOVERY_REASON_WORDS: Record<RecoveryReason, string> = {
  'no-consent': 'No consent to e-mail offers',
  off: 'Recovery e-mails were off',
  'no-postal-address': 'No postal address in Settings → General',
  ordered: 'Ordered before any e-mail',
  'newer-checkout': 'Started a newer checkout',
  emptied: 'Emptied the cart',
  'sold-out': 'Everything sold out',
};
