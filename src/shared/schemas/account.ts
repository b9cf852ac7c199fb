import { z } from 'zod';
import { US_STATE_CODES } from './checkout.js';
import { waitInWords } from '../retry-wait.js';

export const ACCOUNT_MESSAGES = {
  requiredFields: 'Please fill in all required fields',
  contactFailed: 'Failed to update contact information',
  shippingFailed: 'Failed to save shipping address',
  billingFailed: 'Failed to save billing address',
  contactSaved: 'Contact information updated successfully',
  shippingSaved: 'Shipping address saved successfully',
  billingSaved: 'Billing address saved successfully',
  emailTaken: 'User already exists with this email',
  impersonationAdminsOnly: 'Only administrators can impersonate users.',
  impersonationSelf: 'You are already signed in as this user.',
  /** An admin acting as another admin would act with that admin's rights, under their name. */
  impersonationOfAdmin: 'Administrators cannot be impersonated.',
  /** The sign-in e-mail is the customer's own: changed by an admin, a password reset would hand them the account. */
  emailChangeWhileImpersonating: 'Only the customer can change their email address, not an admin acting as them.',
  userNotFound: 'User not found',
  notImpersonating: 'No impersonation is active.',
  currentPasswordRequired: 'Please enter your current password to change your email',
  currentPasswordWrong: 'Current password is incorrect',
  /** Each change e-mails the previous address (profile.ts `EMAIL_CHANGE_LIMIT`); the wait is the answer's Retry-After. */
  tooManyEmailChanges: (retryAfterSeconds: number) =>
    `You have changed your email address several times already. Please wait ${waitInWords(retryAfterSeconds)} and try again.`,
} as const;

/**
 * US phone style as it is typed: digits only, at most 10, shown as (XXX) XXX-XXXX. A leading
 * country code 1 (`+1 415…`, `1-415…`) is dropped, not read as the area code's first digit: no
 * US area code starts with 1.
 */
export function formatPhone(input: string): string {
  const d = input.replace(/\D/g, '').replace(/^1/, '').slice(0, 10);
  if (d.length === 0) return '';
  if (d.length < 4) return `(${d}`;
  if (d.length < 7) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

const required = (max: number) =>
  z
    .string({ message: ACCOUNT_MESSAGES.requiredFields })
    .trim()
    .min(1, ACCOUNT_MESSAGES.requiredFields)
    .max(max, `Cannot exceed ${max} characters`);

export const ContactInfoInput = z
  .object({
    fullName: required(100),
    email: z
      .string({ message: ACCOUNT_MESSAGES.requiredFields })
      .trim()
      .toLowerCase()
      .min(1, ACCOUNT_MESSAGES.requiredFields)
      .max(254, 'Email cannot exceed 254 characters')
      .pipe(z.email({ message: 'Please enter a valid email address' })),
    phone: z
      .string()
      .max(20, 'Phone number cannot exceed 20 characters')
      .transform((v) => formatPhone(v))
      .refine((v) => v === '' || v.replace(/\D/g, '').length === 10, 'Phone number must have 10 digits')
      .nullish()
      .transform((v) => v || null),
    /** Needed only when the e-mail changes: whoever holds a session must not take over the account. */
    currentPassword: z.string().max(200, 'Password cannot exceed 200 characters').optional(),
  })
  .strict();
export type ContactInfoInput = z.input<typeof ContactInfoInput>;

/**
 * The contact dialog: the body, and the one rule the server applies after it (a changed e-mail
 * needs the current password), checked once the fields themselves are fine.
 */
export function contactInfoForm(savedEmail: string) {
  return ContactInfoInput.refine((v) => v.email === savedEmail || Boolean(v.currentPassword), {
    message: ACCOUNT_MESSAGES.currentPasswordRequired,
    path: ['currentPassword'],
    when: (payload) => payload.issues.length === 0,
  });
}

export const AddressInput = z
  .object({
    name: required(100),
    address: required(200),
    city: required(100),
    state: z.enum(US_STATE_CODES, { message: ACCOUNT_MESSAGES.requiredFields }),
    zip: z
      .string({ message: ACCOUNT_MESSAGES.requiredFields })
      .trim()
      .min(1, ACCOUNT_MESSAGES.requiredFields)
      .regex(/^\d{5}(-\d{4})?$/, 'ZIP code must be 5 digits (e.g., 12345 or 12345-6789)'),
    country: z.literal('US').default('US'),
  })
  .strict();
export type AddressInput = z.input<typeof AddressInput>;

export const AccountSummary = z.object({
  stats: z.object({
    totalOrders: z.number().int(),
    latestOrderAt: z.string().nullable(),
    pendingOrders: z.number().int(),
    deliveredOrders: z.number().int(),
    /** Every order in exactly one bucket, so they add up to totalOrders (the pile to ship is the owner's rule). */
    orderCounts: z.object({
      pending: z.number().int(),
      preparing: z.number().int(),
      shipped: z.number().int(),
      delivered: z.number().int(),
      cancelled: z.number().int(),
      other: z.number().int(),
    }),
    totalSpentCents: z.number().int(),
    averageOrderCents: z.number().int(),
    itemsPurchased: z.number().int(),
  }),
  loyalty: z.object({
    points: z.number().int(),
    totalEarned: z.number().int(),
    nextRewardAt: z.number().int(),
    progress: z.number(),
    rewards: z.array(z.object({ code: z.string(), discountPercent: z.number(), expiresAt: z.string().nullable(), used: z.boolean() })),
  }),
});
export type AccountSummary = z.infer<typeof AccountSummary>;
