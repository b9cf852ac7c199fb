import { useDeferredValue, useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False while the server renders and while the browser hydrates that HTML, true afterwards.
 * Pages whose content lives in the browser (the cart) render a same-sized placeholder until then,
 * so the server's HTML and the first client render agree and nothing jumps. The switch is
 * deferred: React renders the real content in slices between the browser's other work instead of
 * in one long task. A page opened later by a link is live from its first render.
 */
export function useHydrated(): boolean {
  const live = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  return useDeferredValue(live);
}
