import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import type { Database } from '../db/schema.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { auditByOf, recordAudit } from '../audit/audit.js';
import { accountActor } from '../lib/actors.js';
import type { PaymentOutcomes } from '../payments/provider.js';
import {
  AddExtraInput,
  ChangeSubscriptionInput,
  DeliverNowInput,
  PauseSubscriptionInput,
  ResumeSubscriptionInput,
  SkipDeliveryInput,
  SkipItemInput,
  SubscriptionAddressInput,
} from '../../shared/subscriptions.js';
import { adminSubscriptionDetail } from './admin-list.js';
import {
  changeAddress,
  changeSubscription,
  deliverNow,
  pauseSubscription,
  resumeSubscription,
  skipNextDelivery,
  type Ctx,
} from './changes.js';
import { addExtra, removeExtra, skipItemNextDelivery } from './next-delivery.js';
import type { RenewalDeps } from './renewals.js';

const Params = z.object({ id: z.string().min(1).max(100) }).strict();
const ExtraParams = z.object({ id: z.string().min(1).max(100), variantId: z.string().min(1).max(100) }).strict();
/** Whether the customer is e-mailed about the owner's change (as they would be for their own): yes unless the owner says not. */
const Notify = z.object({ notifyCustomer: z.boolean({ message: 'notifyCustomer must be true or false' }).default(true) });

const NotifyQuery = z.object({ notifyCustomer: z.enum(['true', 'false'], { message: 'notifyCustomer must be true or false' }).optional() });

/** The body without `notifyCustomer`, for the customer's own schema (strict: it knows nothing else). */
function split(body: unknown): { notify: boolean; rest: Record<string, unknown> } {
  const { notifyCustomer, ...rest } = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return { notify: parseInput(Notify, { notifyCustomer }).notifyCustomer, rest };
}

/**
 * The owner's desk (issue [5/8]): the customer's own actions on a subscription, from the back
 * office, by the same functions (the same locks, rules and answers), each written on the
 * subscription's timeline under the admin's name, audited in the action's own transaction, and
 * e-mailed to the customer unless the owner unticks it. Reactivating is the customer's alone (it
 * needs their consent to the terms again), so it is not here. Registered inside the admin surface.
 */
export async function registerAdminSubscriptionActionRoutes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'db' | 'dialect' | 'config' | 'payments'> & { outcomes: PaymentOutcomes },
): Promise<void> {
  const { db, dialect, config } = deps;
  const renewalDeps: RenewalDeps = {
    db,
    dialect,
    payments: deps.payments,
    outcomes: deps.outcomes,
    publicUrl: config.publicUrl,
    log: app.log,
  };

  /** The context of one admin action: the admin as actor, the e-mail choice, and the audit row. */
  const ctxOf = (req: FastifyRequest, id: string, action: string, notify: boolean, details: Record<string, unknown> = {}): Ctx => {
    const admin = requireAdmin(req);
    const by = auditByOf({ user: admin, impersonator: req.session?.impersonator ?? null });
    return {
      now: new Date(),
      publicUrl: config.publicUrl,
      actor: accountActor(admin),
      notify,
      during: (trx: Kysely<Database>, sub) =>
        recordAudit(trx, {
          by,
          action: 'subscription.changed',
          targetUserId: sub.user_id,
          details: { subscriptionId: id, action, notified: notify, ...details },
        }),
    };
  };
  const answer = async (id: string) => ({ subscription: await adminSubscriptionDetail(db, id) });
  const base = '/api/admin/subscriptions/:id';

  app.post(`${base}/skip`, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const { renewalAt } = parseInput(SkipDeliveryInput, rest);
    await skipNextDelivery(db, dialect, id, renewalAt, ctxOf(req, id, 'skip', notify, { delivery: renewalAt }));
    return answer(id);
  });
  app.post(`${base}/pause`, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const { until } = parseInput(PauseSubscriptionInput, rest);
    await pauseSubscription(db, dialect, id, until, ctxOf(req, id, 'pause', notify, { until }));
    return answer(id);
  });
  app.post(`${base}/resume`, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const { nextDeliveryOn } = parseInput(ResumeSubscriptionInput, rest);
    await resumeSubscription(db, dialect, id, nextDeliveryOn, ctxOf(req, id, 'resume', notify, { nextDeliveryOn }));
    return answer(id);
  });
  app.post(`${base}/deliver-now`, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const { renewalAt } = parseInput(DeliverNowInput, rest);
    const delivery = await deliverNow(renewalDeps, id, renewalAt, ctxOf(req, id, 'deliver-now', notify));
    return { ...(await answer(id)), delivery };
  });
  app.put(`${base}/address`, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const { address, everywhere } = parseInput(SubscriptionAddressInput, rest);
    await changeAddress(db, dialect, id, { address, everywhere }, ctxOf(req, id, 'address', notify, { everywhere }));
    return answer(id);
  });
  app.patch(base, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const change = parseInput(ChangeSubscriptionInput, rest);
    await changeSubscription(db, dialect, id, change, ctxOf(req, id, 'change', notify));
    return answer(id);
  });
  app.post(`${base}/items/skip`, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const input = parseInput(SkipItemInput, rest);
    await skipItemNextDelivery(
      db,
      dialect,
      id,
      input,
      ctxOf(req, id, input.skip ? 'skip-item' : 'unskip-item', notify, { variantId: input.variantId }),
    );
    return answer(id);
  });
  app.post(`${base}/extras`, access.admin, async (req) => {
    const { id } = parseInput(Params, req.params);
    const { notify, rest } = split(req.body);
    const input = parseInput(AddExtraInput, rest);
    await addExtra(db, dialect, id, input, ctxOf(req, id, 'add-extra', notify, { variantId: input.variantId, quantity: input.quantity }));
    return answer(id);
  });
  app.delete(`${base}/extras/:variantId`, access.admin, async (req) => {
    const { id, variantId } = parseInput(ExtraParams, req.params);
    const { notifyCustomer } = parseInput(NotifyQuery, req.query ?? {});
    await removeExtra(db, dialect, id, variantId, ctxOf(req, id, 'remove-extra', notifyCustomer !== 'false', { variantId }));
    return answer(id);
  });
}
