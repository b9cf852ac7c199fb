import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False while the server renders and while the browser hydrates that HTML, true afterwards.
 * Pages whose content lives in the browser (the cart) render a same-sized placeholder until then,
 * so the server's HTML and the first client render agree and nothing jumps.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
