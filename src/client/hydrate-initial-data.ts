import type { QueryClient } from '@tanstack/react-query';
import { INITIAL_DATA_ELEMENT_ID, VIEWER_SESSION_ELEMENT_ID } from '../shared/query-keys.js';
import { adoptPageCart } from './cart/cart-store.js';
import { isObject, toResponseShape } from './lib/initial-data.js';
import { serverDataUpdatedAt } from './lib/query-client.js';

type Entry = { key: unknown[]; data: unknown };

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
 * no API call. The server builds it with the same code as the API's answers, and the HTTP suite
 * checks every server-rendered page's data against the response schemas (seo.http.test.ts), so
 * the browser does not load zod just to check it again: on a phone that was the longest task of
 * a page's start-up. Answers fetched later are still parsed (api-client.ts).
 */
export function hydrateInitialData(queryClient: QueryClient): void {
  for (const { key, data } of readEntries()) {
    queryClient.setQueryData(key, toResponseShape(key, data), { updatedAt: serverDataUpdatedAt });
  }
  // The cart and checkout pages: the cart store takes the cart the page was drawn with, derived
  // from the cart's contents and the embedded quote, when it holds the same lines and coupon.
  adoptPageCart(queryClient);
}

/**
 * A signed-in visitor gets the page drawn for every visitor plus their session beside it. The page
 * is hydrated as it was drawn (signed out), then this puts the session in, and the header follows.
 */
export function viewerSessionApplier(queryClient: QueryClient): () => void {
  const el = document.getElementById(VIEWER_SESSION_ELEMENT_ID);
  if (!el?.textContent) return () => undefined;
  let session: unknown;
  try {
    session = JSON.parse(el.textContent);
  } catch (err) {
    console.error('Could not read the session', err);
    return () => undefined;
  }
  return () => queryClient.setQueryData(['session'], toResponseShape(['session'], session), { updatedAt: serverDataUpdatedAt });
}
