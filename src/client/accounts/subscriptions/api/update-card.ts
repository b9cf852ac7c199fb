import '../../../lib/zod-config.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { z } from 'zod';
import { SubscriptionView } from '../../../../shared/subscriptions.js';
import { CardUpdateOutcome, CardUpdateStart } from '../../../../shared/subscription-card.js';
import { apiRequestWith } from '../../../lib/api-client.js';
import { replaceSubscription } from '../subscription-texts.js';
import { subscriptionsQueryKey } from './get-subscriptions.js';
import { subscriptionLinkQueryKey } from './get-subscription-link.js';

/** Whose subscription a page acts on: the signed-in account's (by id) or an e-mail link's (by token). */
export type CardTarget = { accountId: string } | { token: string };

function basePath(target: CardTarget): string {
  return 'token' in target
    ? `/api/subscriptions/manage/${encodeURIComponent(target.token)}`
    : `/api/account/subscriptions/${encodeURIComponent(target.accountId)}`;
}

/** "Update card" (POST …/card): the address of the page where the customer enters a new card (nothing charged). */
export function startCardUpdate(target: CardTarget): Promise<CardUpdateStart> {
  return apiRequestWith(`${basePath(target)}/card`, () => Promise.resolve(CardUpdateStart), { method: 'POST', body: {} });
}

const Confirmed = CardUpdateOutcome.extend({ subscription: SubscriptionView.optional() });
type Confirmed = z.infer<typeof Confirmed>;

/** Back from the card page (POST …/card/confirm): what became of that update, with the subscription as it now stands. */
export function confirmCardUpdate(target: CardTarget, setupId: string): Promise<Confirmed> {
  return apiRequestWith(`${basePath(target)}/card/confirm`, () => Promise.resolve(Confirmed), { method: 'POST', body: { setupId } });
}

/** The button's request: on success the browser goes to the card page (the provider's, or the test page in setup mode). */
export function useStartCardUpdate(target: CardTarget) {
  return useMutation({
    mutationFn: () => startCardUpdate(target),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** How often, and how many times, the page asks again while the provider's word has not reached the shop. */
const WAIT_MS = 2000;
const WAIT_TRIES = 15;

/**
 * Back from the card page with an update's id: asks what became of it, again every two seconds
 * while the provider's word is on its way (Stripe's webhook), up to half a minute; the subscription
 * it answers replaces the page's copy, so the card shown is the one saved.
 */
export function useCardUpdateOutcome(target: CardTarget, setupId: string | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['subscription-card-update', setupId],
    queryFn: () => confirmCardUpdate(target, setupId!),
    enabled: setupId !== null,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (q) => (q.state.data?.outcome === 'waiting' && q.state.dataUpdateCount < WAIT_TRIES ? WAIT_MS : false),
  });
  const updated = query.data?.subscription;
  // The page's copy replaced once per answer (the target is compared by its token, not its object: a new one each render).
  const token = 'token' in target ? target.token : null;
  useEffect(() => {
    if (!updated) return;
    if (token !== null) queryClient.setQueryData(subscriptionLinkQueryKey(token), updated);
    else queryClient.setQueryData<SubscriptionView[]>(subscriptionsQueryKey, (list) => (list ? replaceSubscription(list, updated) : list));
  }, [updated, token, queryClient]);
  const answers = queryClient.getQueryState(['subscription-card-update', setupId])?.dataUpdateCount ?? 0;
  const gaveUp = query.data?.outcome === 'waiting' && answers >= WAIT_TRIES;
  return { data: query.data, isError: query.isError, gaveUp };
}
