import { z } from 'zod';
import { AUTH_MESSAGES, newPasswordProblem } from './auth.js';

/**
 * Texts of the dashboard's Password, Your Data and Delete Account sections. The specification has
 * no such screens; where it has a text for the same moment (the new-password rules, "Password
 * updated successfully") it is reused.
 */
export const SELF_SERVICE_MESSAGES = {
  currentPasswordMissing: 'Please enter your current password',
  currentPasswordWrong: 'Current password is incorrect',
  samePassword: 'New password must be different from your current password',
  passwordChanged: 'Password updated successfully',
  passwordChangedDetail: 'You were signed out everywhere else.',
  passwordChangeFailed: 'Failed to update password',
  deletePasswordMissing: 'Please enter your password to delete your account',
  deleteFailed: 'Failed to delete account',
  accountDeleted: 'Your account has been deleted',
  accountDeletedDetail: 'Your personal data was removed and you have been signed out.',
  lastAdmin: 'You are the only administrator. Make another user an administrator before deleting your account.',
  paymentInProgress: 'A payment of yours is still in progress. Finish or cancel it, then try again.',
  notWhileImpersonating: 'Not available while acting as another user. End the impersonation first.',
} as const;

export const ChangePasswordInput = z
  .object({
    currentPassword: z.string({ message: SELF_SERVICE_MESSAGES.currentPasswordMissing }).max(200, 'Password cannot exceed 200 characters'),
    newPassword: z.string({ message: AUTH_MESSAGES.fillAllFields }).max(200, 'Password cannot exceed 200 characters'),
    confirmPassword: z.string({ message: AUTH_MESSAGES.fillAllFields }).max(200, 'Password cannot exceed 200 characters'),
  })
  .strict()
  .superRefine((v, ctx) => {
    // The form's one message, first problem first: the current password, then the shop's rules
    // for a new one (specification section 5, the same as a reset).
    const problem = v.currentPassword ? newPasswordProblem(v.newPassword, v.confirmPassword) : SELF_SERVICE_MESSAGES.currentPasswordMissing;
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [] });
  });
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const DeleteAccountInput = z
  .object({
    password: z
      .string({ message: SELF_SERVICE_MESSAGES.deletePasswordMissing })
      .min(1, SELF_SERVICE_MESSAGES.deletePasswordMissing)
      .max(200, 'Password cannot exceed 200 characters'),
  })
  .strict();
export type DeleteAccountInput = z.infer<typeof DeleteAccountInput>;

/** A saved address as it was stored (name, address, city, state, zip, country). */
const ExportAddress = z.record(z.string(), z.unknown()).nullable();

/** GET /api/account/data: everything the shop holds about the signed-in person, as a JSON file. */
export const AccountDataExport = z.object({
  exportedAt: z.string(),
  profile: z.object({
    id: z.string(),
    email: z.string(),
    fullName: z.string(),
    phone: z.string().nullable(),
    role: z.enum(['client', 'admin']),
    emailVerified: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  addresses: z.object({ shipping: ExportAddress, billing: ExportAddress }),
  loyalty: z.object({
    points: z.number().int(),
    totalEarned: z.number().int(),
    nextRewardAt: z.number().int(),
    rewards: z.array(z.object({ code: z.string(), discountPercent: z.number(), expiresAt: z.string().nullable(), used: z.boolean() })),
  }),
  orders: z.array(
    z.object({
      id: z.string(),
      orderNumber: z.string(),
      createdAt: z.string(),
      paidAt: z.string().nullable(),
      status: z.string(),
      paymentStatus: z.string(),
      paymentProvider: z.string().nullable(),
      email: z.string().nullable(),
      shippingAddress: z.unknown(),
      billingAddress: z.unknown(),
      items: z.array(
        z.object({
          productId: z.string(),
          variantId: z.string().nullable().default(null),
          variantLabel: z.string().default(''),
          name: z.string(),
          sku: z.string().nullable(),
          size: z.string(),
          color: z.string(),
          quantity: z.number().int(),
          priceCents: z.number().int(),
          lineTotalCents: z.number().int(),
          isFreeGift: z.boolean(),
        }),
      ),
      subtotalCents: z.number().int(),
      discountCents: z.number().int(),
      shippingCents: z.number().int(),
      taxCents: z.number().int(),
      totalCents: z.number().int(),
      refundedCents: z.number().int(),
      couponCode: z.string().nullable(),
      carrier: z.string().nullable(),
      trackingNumber: z.string().nullable(),
      shippedAt: z.string().nullable(),
    }),
  ),
  /** What the address said to offers and reminders (issue [7/8]): when, where, and whether it still holds. */
  emailPreferences: z.object({
    marketing: z
      .object({
        status: z.enum(['granted', 'withdrawn']),
        source: z.string(),
        grantedAt: z.string(),
        withdrawnAt: z.string().nullable(),
        withdrawnVia: z.string().nullable(),
      })
      .nullable(),
    unsubscribed: z.boolean(),
    reviewRequests: z.boolean(),
    /** Checkouts left and the reminders about them (decision 0061). */
    checkoutReminders: z.array(
      z.object({
        orderNumber: z.string(),
        checkoutAt: z.string(),
        state: z.string(),
        emailsSent: z.number(),
        lastEmailAt: z.string().nullable(),
      }),
    ),
    /** Reorder reminders decided for what the person bought. */
    reorderReminders: z.array(z.object({ orderNumber: z.string(), product: z.string(), state: z.string(), decidedAt: z.string() })),
  }),
});
export type AccountDataExport = z.infer<typeof AccountDataExport>;
