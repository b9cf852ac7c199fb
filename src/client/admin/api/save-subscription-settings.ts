import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { SubscriptionSettings, type SubscriptionSettingsInput } from '../../../shared/schemas/admin/subscription-plans.js';
import { adminSend, logUnexpected } from './admin-api.js';
import { subscriptionSettingsKey } from './get-subscription-settings.js';

type Body = z.output<typeof SubscriptionSettingsInput>;

function saveSubscriptionSettings(body: Body): Promise<SubscriptionSettings> {
  return adminSend('PUT', '/api/admin/subscription-settings', SubscriptionSettings, body);
}

/** Saves the subscription settings; the answer (both, as stored) becomes the read's. */
export function useSaveSubscriptionSettings() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: saveSubscriptionSettings,
    onSuccess: (saved) => qc.setQueryData(subscriptionSettingsKey, saved),
  });
}
