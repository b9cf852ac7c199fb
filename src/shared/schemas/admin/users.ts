import { z } from 'zod';
import { tooLong } from '../limits.js';
import { page, pageSize, search } from './fields.js';

// The Users tab: the list, a user's role and points, and the owner's points adjustment.

export const AdminUserListQuery = z.object({ page, pageSize: pageSize(20), search }).strict();

const LOYALTY_POINTS_WHOLE = 'Loyalty points must be a whole number.';
/** A customer earns 10 points an order: a million is far past any real balance, and far from a typo's 1e21. */
export const LOYALTY_POINTS_MAX = 1_000_000;
export const LOYALTY_POINTS_TOO_MANY = `Loyalty points cannot exceed ${LOYALTY_POINTS_MAX.toLocaleString('en-US')}.`;

export const UserPatchInput = z
  .object({
    emailVerified: z.boolean().optional(),
    role: z.enum(['client', 'admin']).optional(),
    /** Never clamped (issue 40: "-50" once set 253 points to 0): a negative balance is refused. */
    loyaltyPoints: z
      .number({ message: LOYALTY_POINTS_WHOLE })
      // Too big is said before "not whole": 1e21 is past the safe integers, and the owner should hear the limit.
      .max(LOYALTY_POINTS_MAX, LOYALTY_POINTS_TOO_MANY)
      .int(LOYALTY_POINTS_WHOLE)
      .min(0, { error: () => LOYALTY_MESSAGES.negative })
      .optional(),
  })
  .strict();

/** The owner's points adjustment: its sentences, shared by the dialog and the server. */
export const LOYALTY_MESSAGES = {
  negative: 'Loyalty points cannot be negative. To take points away, use Adjust points with a reason.',
  pointsWhole: 'Enter the number of points as a whole number above 0.',
  reasonRequired: 'Please give a reason for the adjustment (at least 3 characters).',
  balanceMoved: (now: number) =>
    `The balance changed to ${now.toLocaleString('en-US')} points while you were confirming. Check the new balance and adjust again.`,
  tooManyRemoved: (points: number, balance: number) =>
    `Cannot remove ${points.toLocaleString('en-US')} points: the balance is only ${balance.toLocaleString('en-US')}. Remove at most ${balance.toLocaleString('en-US')}.`,
  tooManyAdded: `The balance cannot exceed ${LOYALTY_POINTS_MAX.toLocaleString('en-US')} points.`,
  saved: 'Loyalty Points Updated',
} as const;

/**
 * POST /api/admin/users/:id/loyalty-adjustments: add or remove N points with a reason. `fromBalance`
 * is the balance the owner saw when confirming; when it moved meanwhile, nothing is saved (409).
 */
export const LoyaltyAdjustmentInput = z
  .object({
    change: z.enum(['add', 'remove'], { message: 'change must be add or remove' }),
    points: z
      .number({ message: LOYALTY_MESSAGES.pointsWhole })
      .int(LOYALTY_MESSAGES.pointsWhole)
      .min(1, LOYALTY_MESSAGES.pointsWhole)
      .max(LOYALTY_POINTS_MAX, LOYALTY_POINTS_TOO_MANY),
    reason: z
      .string({ message: LOYALTY_MESSAGES.reasonRequired })
      .trim()
      .min(3, LOYALTY_MESSAGES.reasonRequired)
      .max(200, tooLong('Reason', 200)),
    fromBalance: z
      .number({ message: 'fromBalance must be a whole number of points' })
      .int('fromBalance must be a whole number of points')
      .min(0, 'fromBalance must be 0 or more')
      .optional(),
  })
  .strict();
export type LoyaltyAdjustmentInput = z.input<typeof LoyaltyAdjustmentInput>;

/** The balance an adjustment leaves, or why it cannot be made (never clamped). */
export function adjustedBalance(
  balance: number,
  { change, points }: { change: 'add' | 'remove'; points: number },
): { ok: true; balance: number } | { ok: false; message: string } {
  if (change === 'remove' && points > balance) return { ok: false, message: LOYALTY_MESSAGES.tooManyRemoved(points, balance) };
  const next = change === 'add' ? balance + points : balance - points;
  if (next > LOYALTY_POINTS_MAX) return { ok: false, message: LOYALTY_MESSAGES.tooManyAdded };
  return { ok: true, balance: next };
}

/**
 * Each body has a form-shaped twin beside it (…Form): what the back office's inputs hold (text,
 * dollars, local date-times) mapped onto the body, then parsed by the very schema the server uses.
 * A form adds no rule and no message of its own; a field's error comes from the body schema, at the
 * body key (each form names its fields after the body's keys so the errors land on the right input).
 */

/**
 * A customer's loyalty points as typed: digits only (an optional minus, which the server clamps to
 * 0). Number('1e3') is 1000, but "1e3" is not how anyone writes a count of points, so it reads as
 * not a whole number rather than being taken as something the owner did not type.
 */
export const LoyaltyPointsForm = z
  .object({ loyaltyPoints: z.string() })
  .transform((v): z.input<typeof UserPatchInput> => ({
    loyaltyPoints: /^\s*-?\d+\s*$/.test(v.loyaltyPoints) ? Number(v.loyaltyPoints) : NaN,
  }))
  .pipe(UserPatchInput);
export type LoyaltyPointsForm = z.input<typeof LoyaltyPointsForm>;

/** The owner's points adjustment as typed: add or remove a count of points (digits only), with a reason. */
export const LoyaltyAdjustmentForm = z
  .object({ change: z.enum(['add', 'remove']), points: z.string(), reason: z.string() })
  .transform((v): z.input<typeof LoyaltyAdjustmentInput> => ({
    change: v.change,
    points: /^\s*\d+\s*$/.test(v.points) ? Number(v.points) : NaN,
    reason: v.reason,
  }))
  .pipe(LoyaltyAdjustmentInput);
export type LoyaltyAdjustmentForm = z.input<typeof LoyaltyAdjustmentForm>;
