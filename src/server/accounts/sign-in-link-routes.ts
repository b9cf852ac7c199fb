import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { setSignInDeviceCookie } from '../http/sign-in-device-cookie.js';
import {
  SIGN_IN_LINK_MESSAGES,
  SignInLinkConfirmInput,
  SignInLinkRequestInput,
  type SignInLinkConfirmed,
} from '../../shared/schemas/auth.js';
import { issueDeviceToken, redeemSignInLink, requestSignInLink } from './sign-in-devices.js';

/**
 * Sign-in links (decision 0040): a browser the account does not know proves itself through the
 * account's mailbox and gets its device cookie, so guesses from elsewhere cannot keep it out.
 */
export async function registerSignInLinkRoutes(app: FastifyInstance, { db, config }: AppDeps): Promise<void> {
  app.post('/api/auth/sign-in-link', access.public, async (req, reply) => {
    const { email } = parseInput(SignInLinkRequestInput, req.body);
    await requestSignInLink(db, email, { ip: req.ip, publicUrl: config.publicUrl });
    reply.header('Cache-Control', 'no-store');
    return { ok: true };
  });

  app.post('/api/auth/sign-in-link/confirm', access.public, async (req, reply) => {
    const { token } = parseInput(SignInLinkConfirmInput, req.body);
    const user = await redeemSignInLink(db, token);
    if (!user) throw new HttpError(400, SIGN_IN_LINK_MESSAGES.invalid);
    setSignInDeviceCookie(reply, config, await issueDeviceToken(db, user));
    reply.header('Cache-Control', 'no-store');
    return { ok: true, email: user.email } satisfies SignInLinkConfirmed;
  });
}
