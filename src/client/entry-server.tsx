import { StrictMode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { StaticRouter } from 'react-router';
import { AppRoutes, preloadRoute } from './routes.js';
import { createQueryClient } from './lib/query-client.js';
import type { InitialQuery } from '../shared/query-keys.js';
import type * as StaticRendering from 'react-dom/static.browser';

/**
 * React's development renderer writes a zero-length chunk for every empty attribute value (alt=""
 * on a decorative picture, value="" on an empty field) and, before queueing one, checks that it is
 * not a view of a detached buffer (which would hide data that was never written). Node 20 lacks
 * `ArrayBuffer.prototype.detached`, so React could not check and printed "This could be a security
 * issue" on the first page served. This supplies the real answer (decision 0041): the check runs,
 * and a detached buffer still makes React throw. Node 22 and later have it built in.
 */
function supplyArrayBufferDetached(): void {
  if (Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')) return;
  Object.defineProperty(ArrayBuffer.prototype, 'detached', {
    configurable: true,
    get(this: ArrayBuffer): boolean {
      if (this.byteLength > 0) return false;
      // A detached buffer (byteLength 0) refuses every operation; an empty one can be sliced.
      try {
        this.slice(0, 0);
        return false;
      } catch {
        return true;
      }
    },
  });
}
supplyArrayBufferDetached();
// The web-streams build, not the Node one: React's Node build keeps each render in an
// AsyncLocalStorage, and on Node 20 the first use of one turns on promise hooks for the whole
// process for good: every promise any request made then paid for them (some 5% of a checkout's
// CPU on a sale). The web build needs none; the render is the same.
// Imported when the first page renders, after `ArrayBuffer.prototype.detached` is supplied above:
// React reads whether it exists once, as its module loads.
let renderer: Promise<typeof StaticRendering> | undefined;

/**
 * Renders a storefront page to HTML on the server with the same data the page embeds for the
 * browser, which then hydrates it. Waits for lazy routes, so the HTML is the finished page.
 */
export async function render(url: string, initialData: InitialQuery[]): Promise<string> {
  await preloadRoute(new URL(url, 'http://localhost').pathname);
  const errors: unknown[] = [];
  const queryClient = createQueryClient();
  // Nothing is fetched while rendering here, so no query should render as "fetching": the data
  // was read for this request, and the browser's first render (fresh server data) agrees.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, refetchOnMount: false } });
  for (const { key, data } of initialData) queryClient.setQueryData(key, data);
  renderer ??= import('react-dom/static.browser');
  const { prerender } = await renderer;
  const { prelude } = await prerender(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </QueryClientProvider>
    </StrictMode>,
    {
      // Keep every boundary inline: outlined ones would need React's inline reveal scripts.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error) {
        errors.push(error);
      },
    },
  );
  // A component that throws on the server would make React fall back to client rendering with
  // inline scripts; answer without server HTML instead, and say why.
  if (errors.length) throw errors[0];
  const html = await new Response(prelude).text();
  queryClient.clear();
  return html;
}
