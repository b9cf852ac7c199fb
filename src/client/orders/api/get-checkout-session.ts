import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CheckoutSessionView } from '../../../shared/schemas/checkout.js';
import { ApiError, apiRequest } from '../../lib/api-client.js';

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * The session as the shopper is back from the payment page: a POST, since the server may ask the
 * provider and complete a payment whose webhook has not come yet (a GET of the session only reads).
 */
function getCheckoutSession(id: string, signal?: AbortSignal): Promise<CheckoutSessionView> {
  return apiRequest(`/api/checkout-session/${encodeURIComponent(id)}/confirm`, () => CheckoutSessionView, {
    method: 'POST',
    body: {},
    signal,
  });
}

function getCheckoutSessionQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['checkout-session', id] as const,
    queryFn: ({ signal }) => getCheckoutSession(id, signal),
    // Payment state changes: ask the server each time the page opens.
    staleTime: 0,
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 2,
  });
}

export function useCheckoutSession(id: string | null) {
  return useQuery({ ...getCheckoutSessionQueryOptions(id ?? ''), enabled: Boolean(id) });
}
