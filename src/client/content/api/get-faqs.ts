import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../shared/query-keys.js';
import { apiRequest } from '../../lib/api-client.js';
import { freshUnlessFromServer } from '../../lib/query-client.js';
import type { FaqsResponse } from '../../lib/response-schemas.js';

function getFaqs(signal?: AbortSignal): Promise<FaqsResponse> {
  return apiRequest('/api/faqs', (s) => s.FaqsResponse, { signal });
}

function getFaqsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.faqs(),
    queryFn: ({ signal }) => getFaqs(signal),
    staleTime: freshUnlessFromServer,
  });
}

export function useFaqs() {
  return useQuery({ ...getFaqsQueryOptions(), select: (res) => res.items });
}
