import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.js';
import { AuditLogPage, type AuditLogFilters } from '../../../shared/schemas/audit.js';

export const AUDIT_PAGE_SIZE = 25;

/** GET /api/admin/audit-log: a page of the audit log, newest first; empty filters are left out of the query. */
function getAuditLog(filters: AuditLogFilters, page: number, signal?: AbortSignal): Promise<AuditLogPage> {
  return apiRequest('/api/admin/audit-log', () => AuditLogPage, {
    query: { ...filters, page, pageSize: AUDIT_PAGE_SIZE },
    signal,
  });
}

export function getAuditLogQueryOptions(filters: AuditLogFilters, page: number) {
  return queryOptions({
    queryKey: ['admin', 'audit-log', { ...filters, page }] as const,
    queryFn: ({ signal }) => getAuditLog(filters, page, signal),
    // Every back-office write can add a row: a fresh page each visit.
    staleTime: 0,
  });
}

export function useAuditLog(filters: AuditLogFilters, page: number) {
  return useQuery({ ...getAuditLogQueryOptions(filters, page), placeholderData: keepPreviousData });
}
