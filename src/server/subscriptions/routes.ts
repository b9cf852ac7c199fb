import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, notFound, parseInput } from '../http/errors.js';
import { access, type Access } from '../http/access.js';
import { requireUser } from '../http/auth.js';
import {
  CancelSubscriptionInput,
  ChangeSubscriptionInput,
  DeliverNowInput,
  PauseSubscriptionInput,
  AddExtraInput,
  ReactivateSubscriptionInput,
  SkipItemInput,
  ResumeSubscriptionInput,
  SkipDeliveryInput,
  SubscriptionAddressInput,
  SUBSCRIPTION_MESSAGES,
  type SubscriptionView,
} from '../../shared/subscriptions.js';
import { cancelSubscription } from './cancel.js';
import { changeAddress, changeSubscription, deliverNow, pauseSubscription, resumeSubscription, skipNextDelivery } from './changes.js';
import type { RenewalDeps } from './renewals.js';
import type { PaymentOutcomes } from '../payments/provider.js';
import { isSubscriptionOf, subscriptionViews } from './customer-subscriptions.js';
import { subscriptionOfLink } from './manage-links.js';
import { customerTimeline, LINK_ACTOR } from './events.js';
import { addExtra, removeExtra, skipItemNextDelivery } from './next-delivery.js';
import { reactivateSubscription } from './reactivate.js';
import { sessionActor, type OrderEventActor } from '../lib/actors.js';
import { confirmCardUpdate, startCardUpdate } from './card-updates.js';
import { ConfirmCardUpdateInput } from '../../shared/subscription-card.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';

const CARD_UPDATE_WINDOW_MS = 60 * 60_000;
const CARD_UPDATES_PER_HOUR = 10;

const IdParam = z.object({ id: z.string().min(1, 'id is required').max(100, 'id cannot exceed 100 characters') });
const VariantParam = z.object({
  id: z.string().optional(),
  token: z.string().optional(),
  variantId: z.string().min(1, SUBSCRIPTION_MESSAGES.extraNotFound).max(100, SUBSCRIPTION_MESSAGES.extraNotFound),
});
const TokenParam = z.object({ token: z.string().max(100, 'The link is not valid') });

/** The app's dependencies, with the fulfilment of a payment (app.ts passes checkout's) for Deliver now. */
type RouteDeps = AppDeps & { outcomes: PaymentOutcomes };

/** Which subscription a request acts on: the signed-in account's own, or the one an e-mail's link names. */
type Resolve = (req: FastifyRequest) => Promise<string>;

/** Who acts, for the subscription's timeline: the signed-in person (an admin acting as the customer named so), or the link's holder. */
type ActorOf = (req: FastifyRequest) => OrderEventActor;

/**
 * The customer's actions on one subscription, the same from the account and from an e-mail's link
 * (issue [4/8]: the reminder links to skip, change or cancel; [5/8]: pause and resume): each answers the subscription as it
 * now stands, or 409 with what now holds (already cancelled, a stale page).
 */
function registerActions(
  app: FastifyInstance,
  base: string,
  policy: { config: { access: Access } },
  resolve: Resolve,
  actorOf: ActorOf,
  { db, dialect, config, payments, outcomes }: RouteDeps,
): void {
  const answer = async (reply: FastifyReply, id: string): Promise<{ subscription: SubscriptionView | undefined }> => {
    reply.header('Cache-Control', 'no-store');
    const [after] = await subscriptionViews(db, { id });
    return { subscription: after };
  };
  const ctx = (req: FastifyRequest) => ({ now: new Date(), publicUrl: config.publicUrl, actor: actorOf(req) });
  // "Deliver now" renews through the schedule's own path, with the app's providers and fulfilment.
  const renewalDeps: RenewalDeps = {
    db,
    dialect,
    payments,
    outcomes,
    publicUrl: config.publicUrl,
    log: app.log,
  };
  app.post(`${base}/cancel`, policy, async (req, reply) => {
    const id = await resolve(req);
    // As with the rest of the account: an admin acting as the customer may look and help, not end it.
    if (req.session?.impersonator) throw new HttpError(403, SUBSCRIPTION_MESSAGES.cancelWhileImpersonating);
    const { reason } = parseInput(CancelSubscriptionInput, req.body ?? {});
    await cancelSubscription(db, dialect, id, { reason: reason ?? null, now: new Date(), actor: actorOf(req) });
    return answer(reply, id);
  });
  app.post(`${base}/skip`, policy, async (req, reply) => {
    const id = await resolve(req);
    const { renewalAt } = parseInput(SkipDeliveryInput, req.body ?? {});
    await skipNextDelivery(db, dialect, id, renewalAt, ctx(req));
    return answer(reply, id);
  });
  app.post(`${base}/pause`, policy, async (req, reply) => {
    const id = await resolve(req);
    const { until } = parseInput(PauseSubscriptionInput, req.body ?? {});
    await pauseSubscription(db, dialect, id, until, ctx(req));
    return answer(reply, id);
  });
  app.post(`${base}/resume`, policy, async (req, reply) => {
    const id = await resolve(req);
    const { nextDeliveryOn } = parseInput(ResumeSubscriptionInput, req.body ?? {});
    await resumeSubscription(db, dialect, id, nextDeliveryOn, ctx(req));
    return answer(reply, id);
  });
  app.post(`${base}/deliver-now`, policy, async (req, reply) => {
    const id = await resolve(req);
    const { renewalAt } = parseInput(DeliverNowInput, req.body ?? {});
    const delivery = await deliverNow(renewalDeps, id, renewalAt, ctx(req));
    return { ...(await answer(reply, id)), delivery };
  });
  app.put(`${base}/address`, policy, async (req, reply) => {
    const id = await resolve(req);
    const { address, everywhere } = parseInput(SubscriptionAddressInput, req.body ?? {});
    await changeAddress(db, dialect, id, { address, everywhere }, ctx(req));
    return answer(reply, id);
  });
  app.post(`${base}/items/skip`, policy, async (req, reply) => {
    const id = await resolve(req);
    await skipItemNextDelivery(db, dialect, id, parseInput(SkipItemInput, req.body ?? {}), ctx(req));
    return answer(reply, id);
  });
  app.post(`${base}/extras`, policy, async (req, reply) => {
    const id = await resolve(req);
    await addExtra(db, dialect, id, parseInput(AddExtraInput, req.body ?? {}), ctx(req));
    return answer(reply, id);
  });
  app.delete(`${base}/extras/:variantId`, policy, async (req, reply) => {
    const id = await resolve(req);
    const { variantId } = parseInput(VariantParam, req.params);
    await removeExtra(db, dialect, id, variantId, ctx(req));
    return answer(reply, id);
  });
  app.post(`${base}/reactivate`, policy, async (req, reply) => {
    const id = await resolve(req);
    // The terms are the customer's to agree to: an admin acting as them may not.
    if (req.session?.impersonator) throw new HttpError(403, SUBSCRIPTION_MESSAGES.reactivateWhileImpersonating);
    await reactivateSubscription(db, dialect, id, parseInput(ReactivateSubscriptionInput, req.body ?? {}), ctx(req));
    return answer(reply, id);
  });
  // [5/8] Update card: the provider's page for a new card (nothing charged); back from it, what became of it.
  app.post(`${base}/card`, policy, async (req, reply) => {
    const id = await resolve(req);
    // The card is the customer's to enter: an admin acting as them may look, not change it (as with cancel).
    if (req.session?.impersonator) throw new HttpError(403, SUBSCRIPTION_MESSAGES.cardWhileImpersonating);
    parseInput(z.object({}).strict(), req.body ?? {});
    const { token } = parseInput(z.object({ token: z.string().max(100).optional() }), req.params);
    // Each page is a session at the provider: counted per subscription before one is made (10 an hour).
    const now = new Date();
    const { hits, windowStartedAt } = await hitRateLimitWindow(db, `card-update:${id}`, CARD_UPDATE_WINDOW_MS, now);
    if (hits > CARD_UPDATES_PER_HOUR)
      throw new HttpError(429, SUBSCRIPTION_MESSAGES.cardUpdatesTooMany, {
        'Retry-After': String(secondsUntilWindowEnds(windowStartedAt, CARD_UPDATE_WINDOW_MS, now)),
      });
    reply.header('Cache-Control', 'no-store');
    return startCardUpdate({ db, payments, publicUrl: config.publicUrl }, id, {
      now: new Date(),
      actor: actorOf(req),
      returnTo: token ? { kind: 'link', token } : { kind: 'account' },
    });
  });
  app.post(`${base}/card/confirm`, policy, async (req, reply) => {
    const id = await resolve(req);
    const { setupId } = parseInput(ConfirmCardUpdateInput, req.body ?? {});
    const outcome = await confirmCardUpdate({ db, dialect, payments, publicUrl: config.publicUrl }, id, setupId, new Date());
    return { ...outcome, ...(await answer(reply, id)) };
  });
  // Its timeline as the customer sees it (newest first): what they, the shop and the schedule did.
  app.get(`${base}/timeline`, policy, async (req, reply) => {
    const id = await resolve(req);
    reply.header('Cache-Control', 'no-store');
    return { events: await customerTimeline(db, id) };
  });
  app.patch(base, policy, async (req, reply) => {
    const id = await resolve(req);
    const change = parseInput(ChangeSubscriptionInput, req.body ?? {});
    await changeSubscription(db, dialect, id, change, ctx(req));
    return answer(reply, id);
  });
}

/** The signed-in customer's subscriptions, and cancelling, skipping or changing one of them (account surface). */
export async function registerAccountSubscriptionRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const { db } = deps;
  app.get('/api/account/subscriptions', access.signedIn, async (req, reply) => {
    const user = requireUser(req);
    reply.header('Cache-Control', 'no-store');
    return { subscriptions: await subscriptionViews(db, { userId: user.id }) };
  });
  registerActions(
    app,
    '/api/account/subscriptions/:id',
    access.signedIn,
    async (req) => {
      const user = requireUser(req);
      const { id } = parseInput(IdParam, req.params);
      // Another account's subscription is answered as unknown: ids are not confirmed to strangers.
      if (!(await isSubscriptionOf(db, id, user.id))) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
      return id;
    },
    (req) => sessionActor(req.session),
    deps,
  );
}

/** A subscription reached from an e-mail's link, without signing in: seen, cancelled, skipped or changed by the link's token (store surface). */
export async function registerSubscriptionLinkRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const { db } = deps;
  const ofLink = async (req: FastifyRequest): Promise<string> => {
    const { token } = parseInput(TokenParam, req.params);
    const id = await subscriptionOfLink(db, token);
    if (!id) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    return id;
  };
  app.get('/api/subscriptions/manage/:token', access.public, async (req, reply) => {
    const id = await ofLink(req);
    reply.header('Cache-Control', 'no-store');
    const [view] = await subscriptionViews(db, { id });
    if (!view) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    return { subscription: view };
  });
  registerActions(app, '/api/subscriptions/manage/:token', access.public, ofLink, () => LINK_ACTOR, deps);
}
