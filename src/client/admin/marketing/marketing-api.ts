import '../../lib/zod-config.js';
import { z } from 'zod';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RECOVERY_REASONS, RECOVERY_STATES, type RecoverySettingsInput, type RecoveryState } from '../../../shared/schemas/recovery.js';
import { adminGet, adminSend, logUnexpected } from '../api/admin-api.js';

const MARKETING_KEY = ['admin', 'marketing'] as const;

const RecoveryRow = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNumber: z.string(),
  email: z.string(),
  state: z.enum(RECOVERY_STATES),
  reason: z.enum(RECOVERY_REASONS).nullable(),
  valueCents: z.number(),
  itemCount: z.number(),
  checkoutAt: z.string(),
  emailsSent: z.number(),
  lastEmailAt: z.string().nullable(),
  couponCode: z.string().nullable(),
  restoredAt: z.string().nullable(),
  recoveredOrderId: z.string().nullable(),
  recoveredOrderNumber: z.string().nullable(),
  recoveredCents: z.number().nullable(),
});
export type RecoveryRow = z.infer<typeof RecoveryRow>;

const RecoveryList = z.object({
  rows: z.array(RecoveryRow),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
  figures: z.object({
    from: z.string(),
    to: z.string(),
    abandoned: z.number(),
    abandonedCents: z.number(),
    emailed: z.number(),
    recovered: z.number(),
    recoveredRevenueCents: z.number(),
    emailsSent: z.number(),
  }),
});
export type RecoveryList = z.infer<typeof RecoveryList>;

const RecoverySettings = z.object({
  enabled: z.boolean(),
  firstAfterHours: z.number(),
  secondAfterHours: z.number(),
  couponPercent: z.number(),
  couponDays: z.number(),
  postalAddress: z.string(),
});
export type RecoverySettingsView = z.infer<typeof RecoverySettings>;

export type RecoveryQuery = { from: string; to: string; state: RecoveryState | ''; page: number };

/** GET /api/admin/recovery: a page of the period's abandoned checkouts and the period's figures. */
export function useRecoveries(q: RecoveryQuery) {
  return useQuery(
    queryOptions({
      queryKey: [...MARKETING_KEY, 'recovery', q],
      queryFn: ({ signal }) =>
        adminGet(
          '/api/admin/recovery',
          RecoveryList,
          { from: q.from, to: q.to, page: String(q.page), ...(q.state ? { state: q.state } : {}) },
          signal,
        ),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  );
}

const settingsKey = [...MARKETING_KEY, 'recovery-settings'] as const;

export function useRecoverySettings() {
  return useQuery(
    queryOptions({
      queryKey: settingsKey,
      queryFn: ({ signal }) => adminGet('/api/admin/recovery/settings', RecoverySettings, undefined, signal),
      staleTime: 0,
    }),
  );
}

/** PUT /api/admin/recovery/settings; the answer (as stored) becomes the read's. */
export function useSaveRecoverySettings() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: RecoverySettingsInput) => adminSend('PUT', '/api/admin/recovery/settings', RecoverySettings, body),
    onSuccess: (saved) => qc.setQueryData(settingsKey, saved),
  });
}
