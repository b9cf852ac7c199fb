import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicSettingKey } from '../../shared/schemas/catalog.js';
import { queryKeys } from '../../shared/query-keys.js';
import { apiRequest } from './api-client.js';
import { freshUnlessFromServer } from './query-client.js';
import type { SettingsResponse } from './response-schemas.js';

export type SettingsMap = Record<string, string>;

function getSettings(signal?: AbortSignal): Promise<SettingsResponse> {
  return apiRequest('/api/settings', (s) => s.SettingsResponse, { signal });
}

function getSettingsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.settings(),
    queryFn: ({ signal }) => getSettings(signal),
    // Settings always refetch (spec), except right after the server embedded them in the page.
    staleTime: freshUnlessFromServer,
  });
}

export function useSettings() {
  return useQuery({ ...getSettingsQueryOptions(), select: (res) => res.settings });
}

/** A setting's text, or undefined when missing or blank. */
export function settingValue(settings: SettingsMap | undefined, key: PublicSettingKey): string | undefined {
  const v = settings?.[key]?.trim();
  return v ? v : undefined;
}
