import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { notFound, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { requireUser } from '../http/auth.js';
import { CancelSubscriptionInput, SUBSCRIPTION_MESSAGES } from '../../shared/subscriptions.js';
import { cancelSubscription } from './cancel.js';
import { isSubscriptionOf, subscriptionViews } from './customer-subscriptions.js';
import { subscriptionOfLink } from './manage-links.js';

const IdParam = z.object({ id: z.string().min(1, 'id is required').max(100, 'id cannot exceed 100 characters') });
const TokenParam = z.object({ token: z.string().max(100, 'The link is not valid') });

/** The signed-in customer's subscriptions, and cancelling one of them (account surface). */
export async function registerAccountSubscriptionRoutes(app: FastifyInstance, { db, dialect }: AppDeps): Promise<void> {
  app.get('/api/account/subscriptions', access.signedIn, async (req, reply) => {
    const user = requireUser(req);
    reply.header('Cache-Control', 'no-store');
    return { subscriptions: await subscriptionViews(db, { userId: user.id }) };
  });
  app.post('/api/account/subscriptions/:id/cancel', access.signedIn, async (req) => {
    const user = requireUser(req);
    const { id } = parseInput(IdParam, req.params);
    const { reason } = parseInput(CancelSubscriptionInput, req.body ?? {});
    // Another account's subscription is answered as unknown: ids are not confirmed to strangers.
    if (!(await isSubscriptionOf(db, id, user.id))) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    await cancelSubscription(db, dialect, id, { reason: reason ?? null, now: new Date() });
    const [after] = await subscriptionViews(db, { id });
    return { subscription: after };
  });
}

/** A subscription reached from an e-mail's link, without signing in: seen and cancelled by the link's token (store surface). */
export async function registerSubscriptionLinkRoutes(app: FastifyInstance, { db, dialect }: AppDeps): Promise<void> {
  app.get('/api/subscriptions/manage/:token', access.public, async (req, reply) => {
    const { token } = parseInput(TokenParam, req.params);
    reply.header('Cache-Control', 'no-store');
    const id = await subscriptionOfLink(db, token);
    const [view] = id ? await subscriptionViews(db, { id }) : [];
    if (!view) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    return { subscription: view };
  });
  app.post('/api/subscriptions/manage/:token/cancel', access.public, async (req, reply) => {
    const { token } = parseInput(TokenParam, req.params);
    const { reason } = parseInput(CancelSubscriptionInput, req.body ?? {});
    reply.header('Cache-Control', 'no-store');
    const id = await subscriptionOfLink(db, token);
    if (!id) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    await cancelSubscription(db, dialect, id, { reason: reason ?? null, now: new Date() });
    const [after] = await subscriptionViews(db, { id });
    return { subscription: after };
  });
}
