import '../../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { SubscriptionView } from '../../../../shared/subscriptions.js';
import { apiRequestWith, ApiError } from '../../../lib/api-client.js';
import { cancelBody } from '../subscription-texts.js';
import { subscriptionsQueryKey } from './get-subscriptions.js';
import { subscriptionLinkQueryKey } from './get-subscription-link.js';

const CancelResponse = z.object({ subscription: SubscriptionView });

/** Cancels the subscription an e-mail's manage link names, without signing in (POST /api/subscriptions/manage/:token/cancel). */
export function cancelSubscriptionLink(token: string, reason: string | undefined): Promise<SubscriptionView> {
  return apiRequestWith(`/api/subscriptions/manage/${encodeURIComponent(token)}/cancel`, () => Promise.resolve(CancelResponse), {
    method: 'POST',
    body: cancelBody(reason),
  }).then((r) => r.subscription);
}

/** The link page's cancel: the answer is the page's data at once; an account's list (if this browser has one) is read again. */
export function useCancelSubscriptionLink(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reason }: { reason?: string | undefined }) => cancelSubscriptionLink(token, reason),
    onSuccess: (updated) => {
      queryClient.setQueryData(subscriptionLinkQueryKey(token), updated);
      void queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) void queryClient.invalidateQueries({ queryKey: subscriptionLinkQueryKey(token) });
    },
  });
}
