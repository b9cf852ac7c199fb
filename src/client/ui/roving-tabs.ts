/**
 * Arrow keys, Home and End across a tablist (WAI-ARIA tabs pattern): the tab to move to, or
 * undefined for any other key.
 */
export function tabForKey<T extends { id: string }>(key: string, tabs: readonly T[], currentId: string): T | undefined {
  const i = tabs.findIndex((t) => t.id === currentId);
  const n = tabs.length;
  const next = key === 'ArrowRight' ? (i + 1) % n : key === 'ArrowLeft' ? (i - 1 + n) % n : key === 'Home' ? 0 : key === 'End' ? n - 1 : -1;
  return next < 0 ? undefined : tabs[next];
}
