import '../../lib/zod-config.js';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { AdminSubscriptionPlans } from '../../../shared/schemas/admin/subscription-plans.js';
import type { SubscriptionPlanInput } from '../../../shared/subscriptions.js';
import { queryKeys } from '../../../shared/query-keys.js';
import { adminSend, logUnexpected } from './admin-api.js';
import { subscriptionPlansKey } from './get-subscription-plans.js';

type PlanBody = z.output<typeof SubscriptionPlanInput>;

/** Which plan a save writes: the product's own, or one variant's own. */
export type PlanTarget = { variantId: string | null };

const path = (productId: string, { variantId }: PlanTarget) =>
  variantId === null
    ? `/api/admin/products/${encodeURIComponent(productId)}/subscription-plan`
    : `/api/admin/products/${encodeURIComponent(productId)}/variants/${encodeURIComponent(variantId)}/subscription-plan`;

function saveSubscriptionPlan(productId: string, target: PlanTarget, body: PlanBody): Promise<AdminSubscriptionPlans> {
  return adminSend('PUT', path(productId, target), AdminSubscriptionPlans, body);
}

/** The answer is the product's plans as saved; the shop's product pages are read again (their subscribe offer changed). */
function settled(qc: QueryClient, productId: string) {
  return {
    onSuccess: (plans: AdminSubscriptionPlans) => qc.setQueryData(subscriptionPlansKey(productId), plans),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.product(productId) }),
  };
}

/** Sets the product's plan, or a variant's own (`enabled: false` on a variant: not offered for it). */
export function useSaveSubscriptionPlan(productId: string) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: ({ target, body }: { target: PlanTarget; body: PlanBody }) => saveSubscriptionPlan(productId, target, body),
    ...settled(qc, productId),
  });
}

function removeVariantSubscriptionPlan(productId: string, variantId: string): Promise<AdminSubscriptionPlans> {
  return adminSend('DELETE', path(productId, { variantId }), AdminSubscriptionPlans);
}

/** Removes a variant's own plan: it follows its product's again. */
export function useRemoveVariantSubscriptionPlan(productId: string) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (variantId: string) => removeVariantSubscriptionPlan(productId, variantId),
    ...settled(qc, productId),
  });
}
