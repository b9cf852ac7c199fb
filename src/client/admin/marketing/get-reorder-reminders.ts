import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AdminReorderReminders } from '../../../shared/schemas/reorder-reminders.js';
import { adminGet } from '../api/admin-api.js';

export type ReorderRemindersPeriod = { from: string; to: string };

/** GET /api/admin/reorder-reminders?from=&to=: reminders sent and skipped, the orders that followed, the last decisions. */
export function getReorderRemindersQueryOptions(p: ReorderRemindersPeriod) {
  return queryOptions({
    queryKey: ['admin', 'marketing', 'reorder-reminders', p] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/reorder-reminders', AdminReorderReminders, { from: p.from, to: p.to }, signal),
    staleTime: 0,
  });
}

export function useReorderReminders(p: ReorderRemindersPeriod) {
  return useQuery({ ...getReorderRemindersQueryOptions(p), placeholderData: keepPreviousData });
}
