import { useCallback, useEffect, useRef } from 'react';

/**
 * Milliseconds since the form appeared. A form remounts when its tab changes, which restarts the
 * timer (spec: changing tab resets the form timer).
 */
export function useFormTimer(): () => number {
  const shownAt = useRef<number | null>(null);
  useEffect(() => {
    shownAt.current = Date.now();
  }, []);
  return useCallback(() => (shownAt.current === null ? 0 : Date.now() - shownAt.current), []);
}
