import type { NotificationSettingsInput } from '../../../shared/schemas/shop-notifications.js';
import '../../lib/zod-config.js';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { Faq } from '../../../shared/schemas/catalog.js';
import type {
  AboutContentInput,
  FaqInput,
  GeneralSettingsInput,
  HomepageContentInput,
  IntegrationSettingsInput,
  SocialSettingsInput,
} from '../../../shared/schemas/content.js';
import { queryKeys } from '../../../shared/query-keys.js';
import { adminGet, adminSend, logUnexpected } from './admin-api.js';

/** Every setting as the back office sees it; the server sends secrets masked (e.g. "••••1234"). */
const AdminSettingsResponse = z.object({ settings: z.record(z.string(), z.string()) });
export type AdminSettings = Record<string, string>;
const FaqListResponse = z.object({ items: z.array(Faq) });
const FaqResponse = z.object({ faq: Faq });
const FaqDeletedResponse = z.object({ ok: z.literal(true) });

const ADMIN_SETTINGS_KEY = ['admin', 'settings'] as const;
const ADMIN_FAQS_KEY = ['admin', 'faqs'] as const;

function getAdminSettingsQueryOptions() {
  return queryOptions({
    queryKey: ADMIN_SETTINGS_KEY,
    queryFn: ({ signal }) => adminGet('/api/admin/settings', AdminSettingsResponse, undefined, signal),
    staleTime: 0,
  });
}

export function useAdminSettings() {
  return useQuery({ ...getAdminSettingsQueryOptions(), select: (res) => res.settings });
}

/**
 * The storefront reads settings and FAQs through its own queries; after a save they are marked
 * stale (and refetched where shown), so the shop shows the change at once.
 */
function refreshStorefront(qc: QueryClient, what: 'settings' | 'faqs'): Promise<void> {
  return qc.invalidateQueries({ queryKey: what === 'settings' ? queryKeys.settings() : queryKeys.faqs() });
}

type SaveBodies = {
  general: GeneralSettingsInput;
  social: SocialSettingsInput;
  integrations: IntegrationSettingsInput;
  notifications: NotificationSettingsInput;
  homepage: HomepageContentInput;
  about: AboutContentInput;
};
export type SettingsSection = keyof SaveBodies;
/** What a section's save sends: the body its route parses. */
export type SettingsBody<S extends SettingsSection> = SaveBodies[S];

const SAVE_PATHS: Record<SettingsSection, string> = {
  general: '/api/admin/settings/general',
  social: '/api/admin/settings/social',
  integrations: '/api/admin/settings/integrations',
  notifications: '/api/admin/settings/notifications',
  homepage: '/api/admin/content/homepage',
  about: '/api/admin/content/about',
};

/** Saves one group of settings; the answer (all settings, secrets masked) replaces the cached view. */
export function useSaveSettings<S extends SettingsSection>(section: S) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: SaveBodies[S]) => adminSend('PUT', SAVE_PATHS[section], AdminSettingsResponse, body),
    onSuccess: async (res) => {
      qc.setQueryData(ADMIN_SETTINGS_KEY, res);
      await refreshStorefront(qc, 'settings');
    },
  });
}

/** The FAQ list (the public list holds every FAQ), fresh on each visit. */
export function useAdminFaqs() {
  return useQuery({
    queryKey: ADMIN_FAQS_KEY,
    queryFn: ({ signal }) => adminGet('/api/admin/faqs', FaqListResponse, undefined, signal),
    staleTime: 0,
    select: (res) => res.items,
  });
}

function useFaqMutation<V>(mutationFn: (vars: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn,
    // Also on failure: a "FAQ not found" means the list we show is out of date.
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: ADMIN_FAQS_KEY }), refreshStorefront(qc, 'faqs')]),
  });
}

export function useSaveFaq() {
  return useFaqMutation(({ id, body }: { id: string | null; body: FaqInput }) =>
    id
      ? adminSend('PUT', `/api/admin/faqs/${encodeURIComponent(id)}`, FaqResponse, body)
      : adminSend('POST', '/api/admin/faqs', FaqResponse, body),
  );
}

export function useDeleteFaq() {
  return useFaqMutation((id: string) => adminSend('DELETE', `/api/admin/faqs/${encodeURIComponent(id)}`, FaqDeletedResponse));
}
