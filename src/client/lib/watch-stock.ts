// Loaded only once a page that shows stock is live (use-stock-watch.ts): not in the first load.

type Answer = { changed: boolean; stamp: string };
const isAnswer = (v: unknown): v is Answer =>
  typeof v === 'object' && v !== null && typeof (v as Answer).changed === 'boolean' && typeof (v as Answer).stamp === 'string';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
 * The first answer also calls it, as the page's data may be older than the stamp it waits from; so
 * does coming back to a hidden tab (nothing is asked while it is hidden). Returns the stop.
 */
export function watchStock(productIds: readonly string[], onChange: () => void): () => void {
  let stopped = false;
  let asking: AbortController | null = null;
  const run = async () => {
    let seen: string | undefined;
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
