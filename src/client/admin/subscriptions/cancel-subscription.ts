import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminSend, logUnexpected } from '../api/admin-api.js';
import { AdminSubscriptionDetailResponse, type AdminCancelForm } from './subscription-schemas.js';
import { SUBSCRIPTIONS_KEY } from './get-subscriptions.js';

/** POST /api/admin/subscriptions/:id/cancel: the owner cancels for the customer; the list and the detail are read again. */
export function useCancelSubscription(id: string) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: async (input: AdminCancelForm) =>
      (await adminSend('POST', `/api/admin/subscriptions/${encodeURIComponent(id)}/cancel`, AdminSubscriptionDetailResponse, input))
        .subscription,
    onSettled: () => qc.invalidateQueries({ queryKey: SUBSCRIPTIONS_KEY }),
  });
}
