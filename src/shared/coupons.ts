import { formatCents } from './money.js';

/** Coupon rules and texts of spec sections 5 and 8, for the cart (browser) and the quote and checkout (server). */
export const COUPON_MESSAGES = {
  invalidInput: 'Please enter a valid coupon code',
  alreadyUsed: 'You have already used this coupon',
  invalid: 'Invalid coupon code',
  expired: 'This coupon has expired',
  usageLimit: 'This coupon has reached its usage limit',
  generic: 'An error occurred while applying the coupon',
  freeProductLimit: 'You can only have one free product per coupon.',
} as const;

/** The code as the shop compares it: trimmed and upper-cased. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The e-mail as one-per-customer coupons compare it: lower-case and trimmed, without a `+tag`
 * (delivered to the same mailbox by most providers), and for Gmail without dots and with
 * googlemail.com read as gmail.com (Gmail ignores both). "Pat.Buyer+x@GoogleMail.com" and
 * "patbuyer@gmail.com" are one customer.
 */
export function normalizeCouponEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replace(/\./g, '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** The specification's 'Minimum order amount of ${min} required', its amount with two decimals ("$100.00"). */
export function minimumOrderMessage(minCents: number): string {
  return `Minimum order amount of ${formatCents(minCents)} required`;
}

type CouponCheckInput = {
  isActive: boolean;
  validFrom: string;
  validUntil: string | null;
  minOrderCents: number | null;
  maxUses: number | null;
  /** Uses counted so far plus uses held by open payment sessions. */
  usesTaken: number;
  /** Personal (loyalty) coupons belong to one account. */
  ownerUserId: string | null;
};

/**
 * Why a coupon cannot be applied, in the order of the specification's checks, or null when it
 * can. `usedBefore` is true when this account (or, for guests, this device), or at checkout the
 * same normalized e-mail, has used it or holds it in another open checkout.
 */
export function couponProblem(
  coupon: CouponCheckInput | null,
  ctx: { subtotalCents: number; now: Date; userId: string | null; usedBefore: boolean },
): string | null {
  if (!coupon || !coupon.isActive) return COUPON_MESSAGES.invalid;
  if (coupon.ownerUserId && coupon.ownerUserId !== ctx.userId) return COUPON_MESSAGES.invalid;
  if (Date.parse(coupon.validFrom) > ctx.now.getTime()) return COUPON_MESSAGES.invalid;
  if (coupon.validUntil && Date.parse(coupon.validUntil) < ctx.now.getTime()) return COUPON_MESSAGES.expired;
  if (coupon.minOrderCents != null && ctx.subtotalCents < coupon.minOrderCents) return minimumOrderMessage(coupon.minOrderCents);
  if (coupon.maxUses != null && coupon.usesTaken >= coupon.maxUses) return COUPON_MESSAGES.usageLimit;
  if (ctx.usedBefore) return COUPON_MESSAGES.alreadyUsed;
  return null;
}
