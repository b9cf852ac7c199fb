import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { notifyManager, useQueryClient, type QueryState } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { siteDescription, type PageDeclaration } from '../../shared/page-declaration.js';
import { queryKeys } from '../../shared/query-keys.js';
import { useSession } from '../lib/get-session.js';
import { applyDocumentMeta } from './document-meta.js';

type SettingsBody = { settings: Record<string, string> } | undefined;
type CachedState = QueryState | undefined;

/** The cache's state of these queries, watched without observing (or ever fetching) them. */
function useCachedStates(keys: readonly (readonly unknown[])[]): readonly CachedState[] {
  const client = useQueryClient();
  const last = useRef<readonly CachedState[]>([]);
  // Batched like TanStack's own observers: the cache changes while other components render (a
  // query is created by its first useQuery), and React must hear of it after that render.
  const subscribe = useCallback((onChange: () => void) => client.getQueryCache().subscribe(notifyManager.batchCalls(onChange)), [client]);
  const read = () => {
    const states = keys.map((key) => client.getQueryState(key));
    const prev = last.current;
    if (prev.length === states.length && prev.every((s, i) => s === states[i])) return prev;
    last.current = states;
    return states;
  };
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * Writes the page's head on client-side navigation: the same head function of the page table
 * (src/shared/pages.ts) the server used for the HTML, fed from the query cache with the page's
 * declared data (the page's components load it). While the page's main data is loading the head
 * stays as it was; when it fails, the head is the page's "not found" head.
 */
export function PageHead({ page }: { page: PageDeclaration }) {
  const params = useParams();
  const [query] = useSearchParams();
  const { user } = useSession();
  const refs = page.data?.({ params, query }) ?? {};
  const names = Object.keys(refs);
  const [settings, ...states] = useCachedStates([queryKeys.settings(), ...names.map((n) => refs[n]!.key)]);

  const data: Record<string, unknown> = {};
  let waiting = false;
  names.forEach((name, i) => {
    const state = states[i];
    if (state?.data !== undefined) data[name] = state.data;
    else if (name === page.main && state?.status !== 'error') waiting = true;
  });
  const settingsMap = (settings?.data as SettingsBody)?.settings ?? {};
  const head = waiting
    ? null
    : page.head({
        params,
        query,
        data: data as Parameters<PageDeclaration['head']>[0]['data'],
        settings: settingsMap,
        // Only JSON-LD uses it, and the browser leaves the server's JSON-LD as it is.
        publicUrl: '',
        viewerRole: user?.role,
      });

  const title = head?.title;
  // As the server's page-meta.ts: the site description, with the free-shipping sentence the settings carry.
  const description = head ? (head.description ?? siteDescription(settingsMap)) : undefined;
  const canonicalPath = head?.canonicalPath;
  const noindex = head?.noindex;
  useEffect(() => {
    if (title !== undefined) applyDocumentMeta({ title, description, canonicalPath, noindex });
  }, [title, description, canonicalPath, noindex]);
  return null;
}
