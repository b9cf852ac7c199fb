import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeSubscriptionInput, SubscriptionAddressInput } from '../../../shared/subscriptions.js';
import { adminSend, logUnexpected } from '../api/admin-api.js';
import { SUBSCRIPTIONS_KEY } from './get-subscriptions.js';
import { getSubscriptionQueryOptions } from './get-subscription.js';
import { AdminDeliverNowResponse, AdminSubscriptionDetailResponse, type AdminSubscriptionDetail } from './subscription-schemas.js';
import type { DeliveryOutcome } from '../../../shared/subscriptions.js';

/**
 * The owner's actions on one subscription (src/server/subscriptions/admin-action-routes.ts), the
 * customer's own from the back office: each answers the subscription as it now stands, which
 * replaces the detail's copy; the list (and Upcoming) are read again.
 */
export type SubscriptionAction =
  | { kind: 'skip'; renewalAt: string }
  | { kind: 'deliver-now'; renewalAt: string }
  | { kind: 'pause'; until: string }
  | { kind: 'resume'; nextDeliveryOn: string }
  | { kind: 'change'; change: ChangeSubscriptionInput }
  | { kind: 'address'; address: SubscriptionAddressInput['address']; everywhere: boolean }
  | { kind: 'skip-item'; variantId: string; skip: boolean }
  | { kind: 'add-extra'; variantId: string; quantity: number }
  | { kind: 'remove-extra'; variantId: string };

type Request = { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; body?: Record<string, unknown> };

/** The request of an action: its route, and the body with whether to e-mail the customer. */
export function actionRequest(id: string, action: SubscriptionAction, notifyCustomer: boolean): Request {
  const base = `/api/admin/subscriptions/${encodeURIComponent(id)}`;
  switch (action.kind) {
    case 'skip':
      return { method: 'POST', path: `${base}/skip`, body: { renewalAt: action.renewalAt, notifyCustomer } };
    case 'deliver-now':
      return { method: 'POST', path: `${base}/deliver-now`, body: { renewalAt: action.renewalAt, notifyCustomer } };
    case 'pause':
      return { method: 'POST', path: `${base}/pause`, body: { until: action.until, notifyCustomer } };
    case 'resume':
      return { method: 'POST', path: `${base}/resume`, body: { nextDeliveryOn: action.nextDeliveryOn, notifyCustomer } };
    case 'change':
      return { method: 'PATCH', path: base, body: { ...action.change, notifyCustomer } };
    case 'address':
      return { method: 'PUT', path: `${base}/address`, body: { address: action.address, everywhere: action.everywhere, notifyCustomer } };
    case 'skip-item':
      return { method: 'POST', path: `${base}/items/skip`, body: { variantId: action.variantId, skip: action.skip, notifyCustomer } };
    case 'add-extra':
      return { method: 'POST', path: `${base}/extras`, body: { variantId: action.variantId, quantity: action.quantity, notifyCustomer } };
    case 'remove-extra':
      return { method: 'DELETE', path: `${base}/extras/${encodeURIComponent(action.variantId)}?notifyCustomer=${String(notifyCustomer)}` };
  }
}

export type ActionAnswer = { subscription: AdminSubscriptionDetail; delivery?: DeliveryOutcome };

/** One action on subscription `id`; a refusal (4xx) arrives as an ApiError with the server's sentence. */
export function useSubscriptionAction(id: string) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: async ({ action, notifyCustomer }: { action: SubscriptionAction; notifyCustomer: boolean }): Promise<ActionAnswer> => {
      const r = actionRequest(id, action, notifyCustomer);
      if (action.kind === 'deliver-now') return adminSend(r.method, r.path, AdminDeliverNowResponse, r.body);
      return adminSend(r.method, r.path, AdminSubscriptionDetailResponse, r.body);
    },
    onSuccess: (answer) => qc.setQueryData(getSubscriptionQueryOptions(id).queryKey, answer.subscription),
    // A refusal often means the subscription moved on (another tab, the schedule): everything is read again.
    onSettled: () => qc.invalidateQueries({ queryKey: SUBSCRIPTIONS_KEY }),
  });
}
