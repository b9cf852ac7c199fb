import { z } from 'zod';
import { checkPeriod, PeriodFields } from './reports.js';
import { pageNumber } from './paging.js';
import { LinkLine } from './link-line.js';
import { RECOVERY_LIMITS, RECOVERY_MESSAGES, RECOVERY_STATES, type RecoveryReason, type RecoveryState } from '../recovery.js';

export * from '../recovery.js';

/**
 * Checkout recovery (issue [7/8] item 3, decision 0061): a checkout left unpaid for an hour, by an
 * address that said yes to offers and reminders, gets up to two e-mails with a link that puts its
 * cart back. The schemas of the owner's settings and list, and of the restore link's answer; the
 * limits, states and texts are in ../recovery.ts (no zod: the cart page reads them).
 */
const wholeNumber = (message: string, min: number, max: number) =>
  z.coerce
    .number({ message })
    .int(message)
    .refine((n) => n === 0 || (n >= min && n <= max), message);

export const RecoverySettingsInput = z
  .object({
    enabled: z.boolean({ message: 'Choose whether recovery e-mails are on' }),
    firstAfterHours: z.coerce
      .number({ message: RECOVERY_MESSAGES.firstHours })
      .int(RECOVERY_MESSAGES.firstHours)
      .min(RECOVERY_LIMITS.firstHoursMin, RECOVERY_MESSAGES.firstHours)
      .max(RECOVERY_LIMITS.firstHoursMax, RECOVERY_MESSAGES.firstHours),
    secondAfterHours: wholeNumber(RECOVERY_MESSAGES.secondHours, RECOVERY_LIMITS.secondHoursMin, RECOVERY_LIMITS.secondHoursMax),
    couponPercent: wholeNumber(RECOVERY_MESSAGES.couponPercent, 1, RECOVERY_LIMITS.couponPercentMax),
    couponDays: z.coerce
      .number({ message: RECOVERY_MESSAGES.couponDays })
      .int(RECOVERY_MESSAGES.couponDays)
      .min(RECOVERY_LIMITS.couponDaysMin, RECOVERY_MESSAGES.couponDays)
      .max(RECOVERY_LIMITS.couponDaysMax, RECOVERY_MESSAGES.couponDays),
  })
  .strict()
  .refine((s) => s.secondAfterHours === 0 || s.secondAfterHours > s.firstAfterHours, {
    message: RECOVERY_MESSAGES.secondAfterFirst,
    path: ['secondAfterHours'],
  });
export type RecoverySettingsInput = z.input<typeof RecoverySettingsInput>;

/** Abandoned checkouts per page of the owner's list. */
export const RECOVERY_PAGE_SIZE = 25;

export const AdminRecoveryQuery = z
  .object({
    state: z.enum(RECOVERY_STATES, { message: `State must be one of: ${RECOVERY_STATES.join(', ')}` }).optional(),
    page: pageNumber,
    ...PeriodFields,
  })
  .strict()
  .superRefine(checkPeriod);
export type AdminRecoveryQuery = z.infer<typeof AdminRecoveryQuery>;

export type AdminRecoveryRow = {
  id: string;
  orderId: string;
  orderNumber: string;
  email: string;
  state: RecoveryState;
  reason: RecoveryReason | null;
  valueCents: number;
  itemCount: number;
  checkoutAt: string;
  emailsSent: number;
  lastEmailAt: string | null;
  couponCode: string | null;
  restoredAt: string | null;
  recoveredOrderId: string | null;
  recoveredOrderNumber: string | null;
  recoveredCents: number | null;
};

export type AdminRecoveryList = { rows: AdminRecoveryRow[]; page: number; pages: number; total: number; figures: AdminRecoveryFigures };

export type AdminRecoveryFigures = {
  from: string;
  to: string;
  abandoned: number;
  abandonedCents: number;
  emailed: number;
  recovered: number;
  /** Money received for recovered orders in the period, net of refunds, each amount on the day it moved (the one revenue rule). */
  recoveredRevenueCents: number;
  emailsSent: number;
};

/** The restore link's answer: what it would put in the cart, priced now. Reading it changes nothing. */
export const RestorePreview = z.object({
  lines: z.array(LinkLine.extend({ everyWeeks: z.number().nullable() })),
  couponCode: z.string().nullable(),
});
export type RestorePreview = z.infer<typeof RestorePreview>;
