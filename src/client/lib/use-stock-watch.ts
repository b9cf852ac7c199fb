import { useEffect, useRef } from 'react';

/**
 * Calls `onChange` within a second of a change of these products' stock while the page is open
 * (lib/watch-stock.ts, loaded once the page is live). No ids: nothing is watched.
 */
export function useStockWatch(productIds: readonly string[], onChange: () => void): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  const key = [...new Set(productIds)].sort().join(',');
  useEffect(() => {
    if (!key) return;
    let stop: (() => void) | null = null;
    let gone = false;
    void import('./watch-stock.js').then(({ watchStock }) => {
      if (!gone) stop = watchStock(key.split(','), () => latest.current());
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [key]);
}
