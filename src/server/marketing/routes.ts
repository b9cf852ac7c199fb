import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { requireUser } from '../http/auth.js';
import { HttpError, parseInput } from '../http/errors.js';
import { EMAIL_PREFERENCES_MESSAGES, EmailPreferencesInput } from '../../shared/schemas/email-preferences.js';
import { readEmailPreferences, saveEmailPreferences } from './consent.js';

/** The account's e-mail preferences (account surface): read by an admin acting as the customer, changed only by the customer. */
export async function registerEmailPreferenceRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  app.get('/api/account/email-preferences', access.signedIn, async (req) => readEmailPreferences(db, requireUser(req)));
  app.put('/api/account/email-preferences', access.signedIn, async (req) => {
    const user = requireUser(req);
    const input = parseInput(EmailPreferencesInput, req.body);
    if (req.session?.impersonator) throw new HttpError(403, EMAIL_PREFERENCES_MESSAGES.notWhileImpersonating);
    return saveEmailPreferences(db, user, input, new Date());
  });
}
