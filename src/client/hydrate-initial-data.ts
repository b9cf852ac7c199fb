import type { QueryClient } from '@tanstack/react-query';
import type { ZodType } from 'zod';
import { INITIAL_DATA_ELEMENT_ID } from '../shared/query-keys.js';
import { loadResponseSchemas, type ResponseSchemas } from './lib/load-response-schemas.js';
import { serverDataUpdatedAt } from './lib/query-client.js';

type Entry = { key: unknown[]; data: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The cache holds each endpoint's JSON body (`{ items }`, `{ product }`, `{ settings }`, the
 * ProductPage). The server is expected to embed exactly those bodies; a bare list/object is
 * wrapped, so a small difference in the server's choice does not cost the first paint.
 */
function toResponseShape([root, kind]: unknown[], data: unknown): unknown {
  const listKey = root === 'categories' || root === 'faqs' || (root === 'products' && kind === 'featured');
  if (listKey && Array.isArray(data)) return { items: data };
  if (root === 'settings' && isObject(data) && !isObject(data.settings)) return { settings: data };
  if (root === 'products' && kind === 'detail' && isObject(data) && !isObject(data.product)) return { product: data };
  return data;
}

function schemaFor([root, kind]: unknown[], s: ResponseSchemas): ZodType | undefined {
  if (root === 'settings') return s.SettingsResponse;
  if (root === 'categories') return s.CategoriesResponse;
  if (root === 'faqs') return s.FaqsResponse;
  if (root === 'products' && kind === 'featured') return s.FeaturedProductsResponse;
  if (root === 'products' && kind === 'detail') return s.ProductResponse;
  if (root === 'products' && kind === 'list') return s.ProductPage;
  return undefined;
}

function readEntries(): Entry[] {
  const el = document.getElementById(INITIAL_DATA_ELEMENT_ID);
  if (!el?.textContent) return [];
  try {
    const parsed: unknown = JSON.parse(el.textContent);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((e): e is Entry => isObject(e) && Array.isArray(e.key) && 'data' in e);
  } catch (err) {
    console.error('Could not read the initial data', err);
    return [];
  }
}

/**
 * Seeds the query cache with the data the server embedded in the HTML, so the first paint needs
 * no API call. The data is then checked with the same zod schemas as API responses once they have
 * loaded (off the critical path); an entry that fails is dropped and fetched again from the API.
 */
export function hydrateInitialData(queryClient: QueryClient): void {
  const entries = readEntries().map((e) => ({ key: e.key, data: toResponseShape(e.key, e.data) }));
  if (entries.length === 0) return;
  for (const { key, data } of entries) {
    queryClient.setQueryData(key, data, { updatedAt: serverDataUpdatedAt });
  }
  void loadResponseSchemas().then(
    (schemas) => {
      for (const { key, data } of entries) {
        const schema = schemaFor(key, schemas);
        if (!schema) continue;
        if (schema.safeParse(data).success) continue;
        console.error('Initial data does not match its schema; fetching it again', key);
        // Only drop it if nothing newer has replaced the server's copy meanwhile.
        if (queryClient.getQueryState(key)?.dataUpdatedAt === serverDataUpdatedAt) {
          void queryClient.resetQueries({ queryKey: key, exact: true });
        }
      }
    },
    (err: unknown) => console.error('Could not load response schemas', err),
  );
}
