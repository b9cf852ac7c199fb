import '../../../lib/zod-config.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  DeliveryOutcome,
  SubscriptionEventView,
  SubscriptionView,
  type AddExtraInput,
  type ReactivateSubscriptionInput,
  type SkipItemInput,
  type ChangeSubscriptionInput,
  type SubscriptionAddressInput,
} from '../../../../shared/subscriptions.js';
import { apiRequestWith, ApiError } from '../../../lib/api-client.js';
import { replaceSubscription } from '../subscription-texts.js';
import { subscriptionsQueryKey } from './get-subscriptions.js';
import { subscriptionLinkQueryKey } from './get-subscription-link.js';

/** Whose subscription a page acts on: the signed-in account's (by id) or an e-mail link's (by token). */
export type SubscriptionTarget = { accountId: string } | { token: string };

function basePath(target: SubscriptionTarget): string {
  return 'token' in target
    ? `/api/subscriptions/manage/${encodeURIComponent(target.token)}`
    : `/api/account/subscriptions/${encodeURIComponent(target.accountId)}`;
}

const Answer = z.object({ subscription: SubscriptionView });

/** Skips the delivery the page shows as next (POST …/skip): `renewalAt` is its date, so a stale page skips nothing more. */
export function skipNextDelivery(target: SubscriptionTarget, renewalAt: string): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/skip`, () => Promise.resolve(Answer), { method: 'POST', body: { renewalAt } }).then(
    (r) => r.subscription,
  );
}

/** Changes the interval and the quantities (PATCH): only what the customer changed is sent. */
export function changeSubscription(target: SubscriptionTarget, change: ChangeSubscriptionInput): Promise<SubscriptionView> {
  return apiRequestWith(basePath(target), () => Promise.resolve(Answer), { method: 'PATCH', body: change }).then((r) => r.subscription);
}

const Delivered = z.object({ subscription: SubscriptionView, delivery: DeliveryOutcome });

/** Orders the next delivery now (POST …/deliver-now): `renewalAt` is the next date the page showed. */
export function deliverNow(target: SubscriptionTarget, renewalAt: string): Promise<z.infer<typeof Delivered>> {
  return apiRequestWith(`${basePath(target)}/deliver-now`, () => Promise.resolve(Delivered), { method: 'POST', body: { renewalAt } });
}

/** A new address for this subscription, or every one of the customer's and their account (PUT …/address). */
export function changeSubscriptionAddress(target: SubscriptionTarget, body: SubscriptionAddressInput): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/address`, () => Promise.resolve(Answer), { method: 'PUT', body }).then((r) => r.subscription);
}

/** Pauses deliveries until a day (POST …/pause). */
export function pauseSubscription(target: SubscriptionTarget, until: string): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/pause`, () => Promise.resolve(Answer), { method: 'POST', body: { until } }).then(
    (r) => r.subscription,
  );
}

/** Resumes deliveries, the next on a day (POST …/resume). */
export function resumeSubscription(target: SubscriptionTarget, nextDeliveryOn: string): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/resume`, () => Promise.resolve(Answer), { method: 'POST', body: { nextDeliveryOn } }).then(
    (r) => r.subscription,
  );
}

/** Leaves one item out of the next delivery, or brings it back (POST …/items/skip). */
export function skipItem(target: SubscriptionTarget, body: SkipItemInput): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/items/skip`, () => Promise.resolve(Answer), { method: 'POST', body }).then(
    (r) => r.subscription,
  );
}

/** Adds a one-time item to the next delivery (POST …/extras). */
export function addExtra(target: SubscriptionTarget, body: AddExtraInput): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/extras`, () => Promise.resolve(Answer), { method: 'POST', body }).then((r) => r.subscription);
}

/** Takes a one-time item off the next delivery (DELETE …/extras/:variantId). */
export function removeExtra(target: SubscriptionTarget, variantId: string): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/extras/${encodeURIComponent(variantId)}`, () => Promise.resolve(Answer), {
    method: 'DELETE',
  }).then((r) => r.subscription);
}

/** Reactivates a cancelled subscription, the terms agreed again (POST …/reactivate). */
export function reactivateSubscription(target: SubscriptionTarget, body: ReactivateSubscriptionInput): Promise<SubscriptionView> {
  return apiRequestWith(`${basePath(target)}/reactivate`, () => Promise.resolve(Answer), { method: 'POST', body }).then(
    (r) => r.subscription,
  );
}

const Timeline = z.object({ events: z.array(SubscriptionEventView) });

/** A subscription's timeline as its customer sees it, read when they open it (and again after each change they make). */
export function useSubscriptionTimeline(target: SubscriptionTarget, enabled: boolean) {
  return useQuery({
    queryKey: ['subscription-timeline', basePath(target)],
    queryFn: () => apiRequestWith(`${basePath(target)}/timeline`, () => Promise.resolve(Timeline)).then((r) => r.events),
    enabled,
    staleTime: 0,
  });
}

/**
 * Skip, Change, Pause and Resume for one page (the dashboard's card or the link's page): the server's answer
 * replaces the page's copy at once; a refusal because something changed meanwhile (409, 404)
 * reads the page's data again, so the page shows what now holds beside the message.
 */
export function useSubscriptionActions(target: SubscriptionTarget) {
  const queryClient = useQueryClient();
  const put = (updated: SubscriptionView) => {
    void queryClient.invalidateQueries({ queryKey: ['subscription-timeline', basePath(target)] });
    if ('token' in target) {
      queryClient.setQueryData(subscriptionLinkQueryKey(target.token), updated);
      void queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    } else
      queryClient.setQueryData<SubscriptionView[]>(subscriptionsQueryKey, (list) => (list ? replaceSubscription(list, updated) : list));
  };
  const reread = (err: unknown) => {
    if (!(err instanceof ApiError) || (err.status !== 409 && err.status !== 404)) return;
    void queryClient.invalidateQueries({ queryKey: 'token' in target ? subscriptionLinkQueryKey(target.token) : subscriptionsQueryKey });
  };
  const skip = useMutation({
    mutationFn: ({ renewalAt }: { renewalAt: string }) => skipNextDelivery(target, renewalAt),
    onSuccess: put,
    onError: reread,
  });
  const change = useMutation({
    mutationFn: (input: ChangeSubscriptionInput) => changeSubscription(target, input),
    onSuccess: put,
    onError: reread,
  });
  const pause = useMutation({
    mutationFn: ({ until }: { until: string }) => pauseSubscription(target, until),
    onSuccess: put,
    onError: reread,
  });
  const resume = useMutation({
    mutationFn: ({ day }: { day: string }) => resumeSubscription(target, day),
    onSuccess: put,
    onError: reread,
  });
  const deliver = useMutation({
    mutationFn: ({ renewalAt }: { renewalAt: string }) => deliverNow(target, renewalAt),
    onSuccess: (r) => {
      put(r.subscription);
      // A new order: the dashboard's orders, figures and points read it.
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: ['account', 'summary'] });
    },
    onError: reread,
  });
  const address = useMutation({
    mutationFn: (body: SubscriptionAddressInput) => changeSubscriptionAddress(target, body),
    onSuccess: (updated, body) => {
      put(updated);
      // Everywhere: the other subscriptions and the account's saved address changed too.
      if (body.everywhere) {
        void queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
        void queryClient.invalidateQueries({ queryKey: ['session'] });
      }
    },
    onError: reread,
  });
  const itemSkip = useMutation({ mutationFn: (body: SkipItemInput) => skipItem(target, body), onSuccess: put, onError: reread });
  const extraAdd = useMutation({ mutationFn: (body: AddExtraInput) => addExtra(target, body), onSuccess: put, onError: reread });
  const extraRemove = useMutation({ mutationFn: (variantId: string) => removeExtra(target, variantId), onSuccess: put, onError: reread });
  const reactivate = useMutation({
    mutationFn: (body: ReactivateSubscriptionInput) => reactivateSubscription(target, body),
    onSuccess: put,
    onError: reread,
  });
  return { skip, change, pause, resume, deliver, address, itemSkip, extraAdd, extraRemove, reactivate };
}
