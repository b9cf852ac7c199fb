import { useEffect, useRef } from 'react';

/**
 * Calls `onChange` within a second of a change of these products' stock while the page is open
 * (lib/watch-stock.ts, loaded once the page is live). No ids: nothing is watched. `since`: the
 * stock stamp the page's data came with (GET /api/products/:id), read when the watch starts; with
 * it, an unchanged stock costs the page no second read of its data.
 */
export function useStockWatch(productIds: readonly string[], onChange: () => void, since?: string): void {
  const latest = useRef(onChange);
  const startFrom = useRef(since);
  useEffect(() => {
    latest.current = onChange;
    startFrom.current = since;
  });
  const key = [...new Set(productIds)].sort().join(',');
  useEffect(() => {
    if (!key) return;
    let stop: (() => void) | null = null;
    let gone = false;
    void import('./watch-stock.js').then(({ watchStock }) => {
      if (!gone) stop = watchStock(key.split(','), () => latest.current(), startFrom.current);
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [key]);
}
