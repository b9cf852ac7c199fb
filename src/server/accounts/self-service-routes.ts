import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { clearSessionCookie, requireUser } from '../http/auth.js';
import { access } from '../http/access.js';
import { SIGN_IN_DEVICE_COOKIE, setSignInDeviceCookie } from '../http/sign-in-device-cookie.js';
import { ChangePasswordInput, DeleteAccountInput } from '../../shared/schemas/account-self-service.js';
import { CART_COOKIE } from '../../shared/cart-cookie.js';
import { changePassword, deleteAccount, exportAccountData } from './self-service.js';
import { issueDeviceToken } from './sign-in-devices.js';
import { toSessionUser } from './users.js';

/**
 * The dashboard's self-service: change password, delete my account, download my data. Registered in
 * the account surface, so every route needs a session and its writes are refused from other sites.
 */
export async function registerSelfServiceRoutes(app: FastifyInstance, { db, config }: AppDeps): Promise<void> {
  app.put('/api/account/password', access.signedIn, async (req, reply) => {
    const input = parseInput(ChangePasswordInput, req.body);
    const user = await changePassword(db, req.session, input, { publicUrl: config.publicUrl });
    // The device cookie is bound to the password: this browser gets a fresh one, the others' stop counting.
    setSignInDeviceCookie(reply, config, await issueDeviceToken(db, user));
    return { ok: true, user: toSessionUser(user) };
  });

  app.post('/api/account/delete', access.signedIn, async (req, reply) => {
    const { password } = parseInput(DeleteAccountInput, req.body);
    await deleteAccount(db, req.session, password);
    // Nothing of the person stays in this browser: the session, the cart's mirror, the device cookie.
    clearSessionCookie(reply, config);
    reply.clearCookie(CART_COOKIE, { path: '/', sameSite: 'lax' });
    reply.clearCookie(SIGN_IN_DEVICE_COOKIE, {
      path: '/',
      sameSite: 'lax',
      httpOnly: true,
      secure: config.publicUrl.startsWith('https://'),
    });
    return { ok: true };
  });

  app.get('/api/account/data', access.signedIn, async (req, reply) => {
    const user = requireUser(req);
    const now = new Date();
    const data = await exportAccountData(db, user.id, now);
    reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="ecoclean-my-data-${now.toISOString().slice(0, 10)}.json"`);
    return `${JSON.stringify(data, null, 2)}\n`;
  });
}
