import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { PaymentModeResponse } from '../../../shared/schemas/payments.js';
import { apiRequest } from '../../lib/api-client.js';

function getPaymentMode(signal?: AbortSignal): Promise<PaymentModeResponse> {
  return apiRequest('/api/admin/payment-mode', () => PaymentModeResponse, { signal });
}

function getPaymentModeQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'payment-mode'] as const,
    queryFn: ({ signal }) => getPaymentMode(signal),
    // The server's configuration: it changes only with a restart.
    staleTime: 5 * 60 * 1000,
  });
}

/** Whether the shop takes real money, as its server is configured. */
export function usePaymentMode() {
  return useQuery(getPaymentModeQueryOptions());
}
