import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client.js';

export const OutboxEntry = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  templateId: z.string().nullable(),
  status: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

const OutboxPage = z.object({
  items: z.array(OutboxEntry),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type OutboxPage = z.infer<typeof OutboxPage>;

export const OUTBOX_PAGE_SIZE = 20;

function getEmailOutbox(page: number, signal?: AbortSignal): Promise<OutboxPage> {
  return apiRequest('/api/admin/email-outbox', () => OutboxPage, {
    query: { page, pageSize: OUTBOX_PAGE_SIZE },
    signal,
  });
}

function getEmailOutboxQueryOptions(page: number) {
  return queryOptions({
    queryKey: ['admin', 'email-outbox', { page, pageSize: OUTBOX_PAGE_SIZE }] as const,
    queryFn: ({ signal }) => getEmailOutbox(page, signal),
    // Queued e-mails change state as the delivery worker runs; show a fresh list each visit.
    staleTime: 0,
  });
}

export function useEmailOutbox(page: number) {
  return useQuery({ ...getEmailOutboxQueryOptions(page), placeholderData: keepPreviousData });
}
