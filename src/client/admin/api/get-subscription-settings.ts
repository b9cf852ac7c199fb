import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { SubscriptionSettings } from '../../../shared/schemas/admin/subscription-plans.js';
import { adminGet } from './admin-api.js';

export const subscriptionSettingsKey = ['admin', 'subscription-settings'] as const;

function getSubscriptionSettings(signal?: AbortSignal): Promise<SubscriptionSettings> {
  return adminGet('/api/admin/subscription-settings', SubscriptionSettings, undefined, signal);
}

export function getSubscriptionSettingsQueryOptions() {
  return queryOptions({ queryKey: subscriptionSettingsKey, queryFn: ({ signal }) => getSubscriptionSettings(signal), staleTime: 0 });
}

/** Whether renewals ship free, and how long one waits for stock before it is skipped. */
export function useSubscriptionSettings() {
  return useQuery(getSubscriptionSettingsQueryOptions());
}
