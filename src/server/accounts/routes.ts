import { recordMarketingConsent } from '../marketing/consent.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  PasswordResetConfirmInput,
  PasswordResetRequestInput,
  ResetTokenInput,
  SignInInput,
  SignUpInput,
  type SessionResponse,
} from '../../shared/schemas/auth.js';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { clearSessionCookie, setSessionCookie } from '../http/auth.js';
import { deleteSession } from './sessions.js';
import { endImpersonation } from './impersonation.js';
import { toSessionResponse, toSessionUser } from './users.js';
import { checkResetToken, confirmPasswordReset, requestPasswordReset, signIn, signUp } from './service.js';
import { looksAutomated } from '../../shared/bot-guard.js';
import { readSignInDeviceCookie, setSignInDeviceCookie } from '../http/sign-in-device-cookie.js';
import { access } from '../http/access.js';
import { CART_COOKIE } from '../../shared/cart-cookie.js';
import { VerifyEmailInput } from '../../shared/schemas/email-verification.js';
import { verifyEmail } from './email-verification.js';

function sessionResponse(req: FastifyRequest): SessionResponse {
  return toSessionResponse(req.session);
}

/** Path and SameSite as the browser wrote it (client/cart/cart-store.ts). */
function clearCartCookie(reply: FastifyReply): void {
  reply.clearCookie(CART_COOKIE, { path: '/', sameSite: 'lax' });
}

export async function registerAccountRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;

  app.get('/api/session', access.public, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return sessionResponse(req);
  });

  app.post('/api/auth/sign-up', access.public, async (req, reply) => {
    const input = parseInput(SignUpInput, req.body);
    const grant = await signUp(db, input, { ip: req.ip, publicUrl: config.publicUrl, limitPerIp: config.signUpLimitPerIp });
    if (input.marketing)
      await recordMarketingConsent(db, { email: grant.user.email, userId: grant.user.id, source: 'sign-up', now: new Date() });
    setSessionCookie(reply, config, grant.token);
    setSignInDeviceCookie(reply, config, grant.deviceToken);
    reply.code(201).header('Cache-Control', 'no-store');
    return { user: toSessionUser(grant.user), impersonatorEmail: null } satisfies SessionResponse;
  });

  app.post('/api/auth/sign-in', access.public, async (req, reply) => {
    const input = parseInput(SignInInput, req.body);
    // A new sign-in replaces whatever session this browser had.
    if (req.session) await deleteSession(db, req.session.tokenHash);
    const grant = await signIn(db, input, { ip: req.ip, deviceToken: readSignInDeviceCookie(req) });
    setSessionCookie(reply, config, grant.token);
    setSignInDeviceCookie(reply, config, grant.deviceToken);
    reply.header('Cache-Control', 'no-store');
    return { user: toSessionUser(grant.user), impersonatorEmail: null } satisfies SessionResponse;
  });

  app.post('/api/auth/sign-out', access.public, async (req, reply) => {
    // Signing out leaves nothing of the shopper on a shared computer: the cart's cookie goes too
    // (the browser empties the cart it mirrors). The same when an impersonation ends: that cart
    // was filled as the customer.
    clearCartCookie(reply);
    // While impersonating, signing out ends the impersonation; the admin stays signed in.
    if (req.session?.impersonator) {
      await endImpersonation(db, req.session);
      return { ok: true, impersonationEnded: true };
    }
    if (req.session) await deleteSession(db, req.session.tokenHash);
    clearSessionCookie(reply, config);
    return { ok: true };
  });

  app.post('/api/auth/password-reset', access.public, async (req) => {
    const input = parseInput(PasswordResetRequestInput, req.body);
    // A bot (decoy filled) gets the same answer; nothing is sent. No timer here: the specification
    // puts the one-second guard on sign-in and sign-up only (src/shared/bot-guard.ts).
    if (!looksAutomated(null, input)) {
      await requestPasswordReset(db, input.email, { ip: req.ip, publicUrl: config.publicUrl });
    }
    return { ok: true };
  });

  app.post('/api/auth/password-reset/validate', access.public, async (req) => {
    const { token } = parseInput(ResetTokenInput, req.body);
    const { email } = await checkResetToken(db, token);
    return { valid: true, email };
  });

  // The link from the verification e-mail (the /verify-email page sends its token here).
  app.post('/api/auth/verify-email', access.public, async (req, reply) => {
    const { token } = parseInput(VerifyEmailInput, req.body);
    reply.header('Cache-Control', 'no-store');
    return verifyEmail(db, token);
  });

  app.post('/api/auth/password-reset/confirm', access.public, async (req, reply) => {
    const input = parseInput(PasswordResetConfirmInput, req.body);
    await confirmPasswordReset(db, input, { publicUrl: config.publicUrl });
    clearSessionCookie(reply, config);
    return { ok: true };
  });
}
