import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdminSubscriptionPlans } from '../../../shared/schemas/admin/subscription-plans.js';
import { adminGet } from './admin-api.js';

/** Under the Products tab's key: whatever refreshes the product list (a variant switched off, a save) refreshes the plans too. */
export const subscriptionPlansKey = (productId: string) => ['admin', 'products', 'subscription-plans', productId] as const;

function getSubscriptionPlans(productId: string, signal?: AbortSignal): Promise<AdminSubscriptionPlans> {
  return adminGet(`/api/admin/products/${encodeURIComponent(productId)}/subscription-plans`, AdminSubscriptionPlans, undefined, signal);
}

export function getSubscriptionPlansQueryOptions(productId: string) {
  return queryOptions({
    queryKey: subscriptionPlansKey(productId),
    queryFn: ({ signal }) => getSubscriptionPlans(productId, signal),
    staleTime: 0,
  });
}

/** A product's Subscribe and save plan, each variant's own plan, and the variants (switched-off ones too). */
export function useSubscriptionPlans(productId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getSubscriptionPlansQueryOptions(productId), enabled });
}
