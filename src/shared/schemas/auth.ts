import { z } from 'zod';
import { tooLong } from './limits.js';
import { BOT_GUARD_MS } from '../bot-guard.js';
import { waitInWords } from '../retry-wait.js';

/** Texts of spec section 8 (Auth) and 5, kept in one place for the UI, the server and the tests. */
export const AUTH_MESSAGES = {
  requiredFields: 'Please fill in all required fields',
  passwordMin: 'Password must be at least 8 characters long',
  passwordLower: 'Password must contain at least one lowercase letter',
  passwordUpper: 'Password must contain at least one uppercase letter',
  passwordNumber: 'Password must contain at least one number',
  fillAllFields: 'Please fill in all fields',
  passwordsMismatch: 'Passwords do not match',
  invalidCredentials: 'Invalid email or password',
  userExists: 'User already exists with this email',
  tryAgain: 'Please try again',
  invalidEmail: 'Please enter a valid email address',
  resetEmailRequiredAuth: 'Please enter your email address.',
  resetEmailRequiredPage: 'Please enter your email address',
  missingToken: 'Invalid or missing reset token',
  invalidTokenFormat: 'Invalid token format',
  tokenExpired: 'Token has expired',
  userNotFound: 'User not found',
  invalidOrExpiredToken: 'Invalid or expired reset token',
  authRequired: 'Authentication required',
  accessDenied: 'Access denied',
  /** The wait is the answer's own `Retry-After` (src/server/http/errors.ts `tooManyRequests`). */
  tooManyAttempts: (retryAfterSeconds: number) => `Too many attempts. Please wait ${waitInWords(retryAfterSeconds)} and try again.`,
} as const;

/**
 * The password rules as the forms show them under the field, before the first try: a new password
 * (Change Password, reset) and a sign-up's (the rules each one's schema applies).
 */
export const PASSWORD_RULES = {
  newPassword: 'At least 8 characters, with a lowercase letter, an uppercase letter and a number.',
  signUp: 'At least 8 characters.',
} as const;

/** The time a person needs at least, from the sign-in or sign-up form appearing to submitting it (src/shared/bot-guard.ts). */
export const FORM_MIN_FILL_MS = BOT_GUARD_MS.signIn;
export const PASSWORD_MIN_LENGTH = 8;
const EMAIL_TOO_LONG = 'Email cannot exceed 254 characters';

const email = z
  .string({ message: AUTH_MESSAGES.requiredFields })
  .trim()
  .toLowerCase()
  .min(1, AUTH_MESSAGES.requiredFields)
  .max(254, EMAIL_TOO_LONG)
  .pipe(z.email({ message: AUTH_MESSAGES.invalidEmail }));

/**
 * Bot guards sent by the forms: time since the form appeared, and a decoy field people never see.
 * The forms always send `elapsedMs`; the server treats a submit without it as too fast.
 */
const botGuard = {
  elapsedMs: z
    .number({ message: AUTH_MESSAGES.tryAgain })
    .int()
    .min(0, AUTH_MESSAGES.tryAgain)
    .max(86_400_000, AUTH_MESSAGES.tryAgain)
    .optional(),
  website: z.string().max(200, AUTH_MESSAGES.tryAgain).optional(),
};

export const SignUpInput = z
  .object({
    fullName: z
      .string({ message: AUTH_MESSAGES.requiredFields })
      .trim()
      .min(1, AUTH_MESSAGES.requiredFields)
      .max(100, 'Full name cannot exceed 100 characters'),
    email,
    password: z
      .string({ message: AUTH_MESSAGES.requiredFields })
      .min(1, AUTH_MESSAGES.requiredFields)
      .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordMin)
      .max(200, 'Password cannot exceed 200 characters'),
    /** The unticked "Send me offers and reminders" box, ticked (issue [7/8]). */
    marketing: z.boolean({ message: 'marketing must be true or false' }).optional(),
    ...botGuard,
  })
  .strict();
export type SignUpInput = z.infer<typeof SignUpInput>;

export const SignInInput = z
  .object({
    email,
    password: z
      .string({ message: AUTH_MESSAGES.requiredFields })
      .min(1, AUTH_MESSAGES.requiredFields)
      .max(200, 'Password cannot exceed 200 characters'),
    ...botGuard,
  })
  .strict();
export type SignInInput = z.infer<typeof SignInInput>;

export const PasswordResetRequestInput = z
  .object({
    email: z
      .string({ message: AUTH_MESSAGES.resetEmailRequiredPage })
      .trim()
      .toLowerCase()
      .min(1, AUTH_MESSAGES.resetEmailRequiredPage)
      .max(254, EMAIL_TOO_LONG)
      .pipe(z.email({ message: AUTH_MESSAGES.invalidEmail })),
    ...botGuard,
  })
  .strict();
export type PasswordResetRequestInput = z.infer<typeof PasswordResetRequestInput>;

/**
 * The reset tab of /auth: the body above, except that an empty e-mail gets that tab's own text
 * (spec section 8: 'Please enter your email address.'); everything else is the body's check.
 */
export const AuthTabResetRequestForm = PasswordResetRequestInput.extend({
  email: z.string().trim().min(1, AUTH_MESSAGES.resetEmailRequiredAuth),
}).pipe(PasswordResetRequestInput);

/** The rules of a new password (spec section 5), in the order their messages are shown. */
export function newPasswordProblem(password: string, confirm: string): string | null {
  if (!password || !confirm) return AUTH_MESSAGES.fillAllFields;
  if (password.length < PASSWORD_MIN_LENGTH) return AUTH_MESSAGES.passwordMin;
  if (!/[a-z]/.test(password)) return AUTH_MESSAGES.passwordLower;
  if (!/[A-Z]/.test(password)) return AUTH_MESSAGES.passwordUpper;
  if (!/[0-9]/.test(password)) return AUTH_MESSAGES.passwordNumber;
  if (password !== confirm) return AUTH_MESSAGES.passwordsMismatch;
  return null;
}

export const ResetTokenInput = z
  .object({
    token: z
      .string({ message: AUTH_MESSAGES.missingToken })
      .min(1, AUTH_MESSAGES.missingToken)
      .max(200, AUTH_MESSAGES.invalidOrExpiredToken),
  })
  .strict();

const PasswordResetConfirmFields = z
  .object({
    token: z
      .string({ message: AUTH_MESSAGES.missingToken })
      .min(1, AUTH_MESSAGES.missingToken)
      .max(200, AUTH_MESSAGES.invalidOrExpiredToken),
    password: z.string().max(200, 'Password cannot exceed 200 characters'),
    confirmPassword: z.string().max(200, 'Password cannot exceed 200 characters'),
  })
  .strict();

/** The field a new-password problem belongs to: the empty one, the confirmation when the two differ, else the password. */
function newPasswordProblemField(password: string, confirm: string, problem: string): 'password' | 'confirmPassword' {
  if (problem === AUTH_MESSAGES.passwordsMismatch) return 'confirmPassword';
  if (problem === AUTH_MESSAGES.fillAllFields) return password ? 'confirmPassword' : 'password';
  return 'password';
}

export const PasswordResetConfirmInput = PasswordResetConfirmFields.superRefine((v, ctx) => {
  const problem = newPasswordProblem(v.password, v.confirmPassword);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [] });
});
export type PasswordResetConfirmInput = z.infer<typeof PasswordResetConfirmInput>;

/**
 * The new-password form (/reset-password): the same body, its one problem shown at the field it
 * concerns rather than for the whole form.
 */
export const NewPasswordForm = PasswordResetConfirmFields.superRefine((v, ctx) => {
  const problem = newPasswordProblem(v.password, v.confirmPassword);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [newPasswordProblemField(v.password, v.confirmPassword, problem)] });
}).pipe(PasswordResetConfirmInput);
export type NewPasswordForm = z.input<typeof NewPasswordForm>;

export const Address = z.object({
  name: z.string().max(100, tooLong('Name', 100)),
  address: z.string().max(200, tooLong('Address', 200)),
  city: z.string().max(100, tooLong('City', 100)),
  state: z.string().max(50, tooLong('State', 50)),
  zip: z.string().max(20, tooLong('ZIP code', 20)),
  country: z.string().max(2, 'Country must be a two-letter code').default('US'),
});
export type Address = z.infer<typeof Address>;

export const SessionUser = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  role: z.enum(['client', 'admin']),
  emailVerified: z.boolean(),
  loyaltyPoints: z.number().int(),
  totalPointsEarned: z.number().int(),
  createdAt: z.string(),
  shippingAddress: Address.nullable(),
  billingAddress: Address.nullable(),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const SessionResponse = z.object({
  user: SessionUser.nullable(),
  /** Set while an admin acts as another user: the admin's own e-mail, for the banner. */
  impersonatorEmail: z.string().nullable(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

export const ResetTokenStatus = z.object({ valid: z.literal(true), email: z.string() });

/**
 * A browser that proves itself through the account's mailbox (decision 0040): while guesses from
 * elsewhere slow an account down, the owner on a new device asks for a link, opens it in that
 * browser, and the browser then signs in as one the account knows.
 */
export const SIGN_IN_LINK_MESSAGES = {
  offer: 'Is this your account? We can e-mail you a link that lets this browser sign in while other attempts are held back.',
  send: 'E-mail me a sign-in link',
  sent: (email: string) =>
    `If an account uses ${email}, a sign-in link is on its way. Open it in this browser within 30 minutes, then sign in with your password.`,
  checking: 'Checking your sign-in link…',
  confirmed: (email: string) => `This browser can now sign in to ${email}. Enter your password to sign in.`,
  invalid: 'This sign-in link is invalid, already used or expired. Ask for a new one from the sign-in form.',
  tooMany: (retryAfterSeconds: number) =>
    `You have asked for several sign-in links already. Please wait ${waitInWords(retryAfterSeconds)} and try again.`,
} as const;

/** Minutes a sign-in link works, once. */
export const SIGN_IN_LINK_TTL_MINUTES = 30;

export const SignInLinkRequestInput = z.object({ email }).strict();
export type SignInLinkRequestInput = z.infer<typeof SignInLinkRequestInput>;

export const SignInLinkConfirmInput = z
  .object({
    token: z
      .string({ message: SIGN_IN_LINK_MESSAGES.invalid })
      .min(1, SIGN_IN_LINK_MESSAGES.invalid)
      .max(400, SIGN_IN_LINK_MESSAGES.invalid),
  })
  .strict();
export type SignInLinkConfirmInput = z.infer<typeof SignInLinkConfirmInput>;

/** The confirmed browser's account address, to fill in the sign-in form. */
export const SignInLinkConfirmed = z.object({ ok: z.literal(true), email: z.string() });
export type SignInLinkConfirmed = z.infer<typeof SignInLinkConfirmed>;
