// Loaded only once a page that shows stock is live (use-stock-watch.ts): not in the first load.
import { loadResponseSchemas } from './load-response-schemas.js';

type Answer = { changed: boolean; stamp: string };
const isAnswer = (v: unknown): v is Answer =>
  typeof v === 'object' && v !== null && typeof (v as Answer).changed === 'boolean' && typeof (v as Answer).stamp === 'string';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` when the browser has nothing else to do (within 2 s; Safari has no requestIdleCallback: after 1 s). */
function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 2000 });
  else setTimeout(fn, 1000);
}

/** Resolves when the tab is shown (at once when it is). */
function whenVisible(): Promise<void> {
  if (!document.hidden) return Promise.resolve();
  return new Promise((resolve) => {
    const shown = () => {
      if (document.hidden) return;
      document.removeEventListener('visibilitychange', shown);
      resolve();
    };
    document.addEventListener('visibilitychange', shown);
  });
}

/**
 * Waits on GET /api/stock/watch for the stock of these products and calls `onChange` when it moves
 * (a hold, a release, a sale, the owner's count): the server answers within a second of the change
 * and otherwise holds the request, so an open page asks about twice a minute while nothing happens.
 * It waits from `since`, the stamp the page's data came with: the first answer then calls it only
 * if the stock moved after that data was read. Without one, the first answer calls it, as the
 * page's data may be older than the stamp it waits from; so does coming back to a hidden tab
 * (nothing is asked while it is hidden). Returns the stop.
 */
export function watchStock(productIds: readonly string[], onChange: () => void, since?: string): () => void {
  let stopped = false;
  let asking: AbortController | null = null;
  // What a page does on a change reads the API, whose answers are read with zod (loaded on first
  // use). A page that started from its stamp has read nothing yet: its reader loads while the
  // browser is idle, so the first change shows as fast as the later ones.
  if (since !== undefined) whenIdle(() => void loadResponseSchemas().catch(() => undefined));
  const run = async () => {
    let seen = since;
    let failures = 0;
    while (!stopped) {
      if (document.hidden) {
        await whenVisible();
        seen = undefined;
        if (stopped) return;
      }
      asking = new AbortController();
      try {
        const query = new URLSearchParams({ products: productIds.join(',') });
        if (seen) query.set('seen', seen);
        const res = await fetch(`/api/stock/watch?${query.toString()}`, { signal: asking.signal, headers: { accept: 'application/json' } });
        // A product no longer sold: nothing more to watch.
        if (res.status === 404 || res.status === 400) return;
        if (!res.ok) throw new Error(`stock watch answered ${res.status}`);
        const answer: unknown = await res.json();
        if (!isAnswer(answer)) throw new Error('stock watch answered something else');
        if (stopped) return;
        if (seen === undefined || answer.changed) onChange();
        seen = answer.stamp;
        failures = 0;
      } catch {
        if (stopped) return;
        // Offline or the server restarting: ask again a little later each time, and read afresh.
        failures++;
        seen = undefined;
        await wait(Math.min(30_000, 500 * 2 ** failures));
      }
    }
  };
  void run();
  return () => {
    stopped = true;
    asking?.abort();
  };
}
