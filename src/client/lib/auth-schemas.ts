/**
 * The account feature's zod schemas and texts. zod stays out of the first-load bundle: pages that
 * use this module are lazy chunks, and the header's API calls load it with loadAuthSchemas().
 * zod-config must run before any schema is created, hence the first import.
 */
import './zod-config.js';
import { z } from 'zod';

export {
  AUTH_MESSAGES,
  AuthTabResetRequestForm,
  FORM_MIN_FILL_MS,
  NewPasswordForm,
  PASSWORD_RULES,
  PasswordResetRequestInput,
  ResetTokenStatus,
  SessionResponse,
  SIGN_IN_LINK_MESSAGES,
  SignInInput,
  SignInLinkConfirmed,
  SignUpInput,
} from '../../shared/schemas/auth.js';

export const VerifyEmailResponse = z.object({
  status: z.enum(['verified', 'already-verified']),
  message: z.string(),
  linkedOrders: z.number().int(),
});
export const ResendVerificationResponse = z.object({ ok: z.literal(true), message: z.string() });

export const OkResponse = z.object({ ok: z.literal(true) });

/** Signing out while impersonating ends the impersonation instead; the admin stays signed in. */
export const SignOutResponse = z.object({ ok: z.literal(true), impersonationEnded: z.boolean().optional() });
