import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireUser } from '../http/auth.js';
import { ACCOUNT_MESSAGES, AddressInput, ContactInfoInput } from '../../shared/schemas/account.js';
import { accountSummary, saveAddress, updateContactInfo } from './profile.js';
import { assertCanImpersonate, endImpersonation, startImpersonation } from './impersonation.js';
import { access } from '../http/access.js';
import { resendVerificationEmail } from './email-verification.js';
import { VERIFY_MESSAGES } from '../../shared/schemas/email-verification.js';

const AddressKind = z.object({ kind: z.enum(['shipping', 'billing'], { message: "Address kind must be 'shipping' or 'billing'" }) });
const ImpersonateInput = z.object({ userId: z.string().min(1, 'userId is required').max(100) }).strict();

export async function registerAccountDataRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  app.get('/api/account/summary', access.signedIn, async (req, reply) => {
    const user = requireUser(req);
    reply.header('Cache-Control', 'no-store');
    return accountSummary(db, user.id);
  });

  // "Resend" on the account page: a new verification link to the account's address (rate-limited).
  app.post('/api/account/verify-email/resend', access.signedIn, async (req) => {
    const user = requireUser(req);
    const { email } = await resendVerificationEmail(db, user.id, deps.config.publicUrl);
    return { ok: true, message: VERIFY_MESSAGES.sent(email) };
  });

  app.put('/api/account/contact', access.signedIn, async (req) => {
    const user = requireUser(req);
    const input = parseInput(ContactInfoInput, req.body);
    const changed = await updateContactInfo(
      db,
      { user, impersonator: req.session?.impersonator ?? null },
      { fullName: input.fullName, email: input.email, phone: input.phone ?? null, currentPassword: input.currentPassword },
      { publicUrl: deps.config.publicUrl },
    );
    return { user: changed };
  });

  app.put('/api/account/addresses/:kind', access.signedIn, async (req) => {
    const user = requireUser(req);
    const { kind } = parseInput(AddressKind, req.params);
    const address = parseInput(AddressInput, req.body);
    return { user: await saveAddress(db, { user, impersonator: req.session?.impersonator ?? null }, kind, address) };
  });

  app.post(
    '/api/impersonation',
    { config: { ...access.admin.config, deniedMessage: ACCOUNT_MESSAGES.impersonationAdminsOnly } },
    async (req) => {
      assertCanImpersonate(req.session);
      const { userId } = parseInput(ImpersonateInput, req.body);
      await startImpersonation(db, req.session, userId);
      return { ok: true };
    },
  );

  app.delete('/api/impersonation', access.signedIn, async (req) => {
    await endImpersonation(db, req.session);
    return { ok: true };
  });
}
