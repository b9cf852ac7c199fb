import '../../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { SubscriptionView } from '../../../../shared/subscriptions.js';
import { apiRequestWith, ApiError } from '../../../lib/api-client.js';
import { cancelBody, replaceSubscription } from '../subscription-texts.js';
import { subscriptionsQueryKey } from './get-subscriptions.js';

const CancelResponse = z.object({ subscription: SubscriptionView });

/** Cancels one of the signed-in customer's subscriptions at once (POST /api/account/subscriptions/:id/cancel). */
export function cancelSubscription(id: string, reason: string | undefined): Promise<SubscriptionView> {
  return apiRequestWith(`/api/account/subscriptions/${encodeURIComponent(id)}/cancel`, () => Promise.resolve(CancelResponse), {
    method: 'POST',
    body: cancelBody(reason),
  }).then((r) => r.subscription);
}

/**
 * The card's cancel: the server's answer replaces the list's copy, so the card reads Cancelled at
 * once. A refusal because it was already cancelled (409, e.g. from an e-mail's link in another tab)
 * reads the list again, so the card shows the truth beside the message.
 */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason?: string | undefined }) => cancelSubscription(id, reason),
    onSuccess: (updated) => {
      queryClient.setQueryData<SubscriptionView[]>(subscriptionsQueryKey, (list) => (list ? replaceSubscription(list, updated) : list));
    },
    onError: (err) => {
      if (err instanceof ApiError && (err.status === 409 || err.status === 404))
        void queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey });
    },
  });
}
