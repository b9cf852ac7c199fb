import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/button.js';

/**
 * New orders arriving in the open list (it refreshes every 30 s, as the specification's order
 * list does). The first answer for a filter is what the owner has seen; a later answer's orders
 * that are newer than anything seen (by placing time, so orders pushed over from the page before
 * do not count) are the arrivals: counted in a notice and highlighted until the owner says so.
 * Arrivals also refetch the overview above the list, so its figures never lag the notice.
 */
export function useNewOrders(rows: readonly { id: string; createdAt: string }[] | undefined, filterKey: string) {
  const qc = useQueryClient();
  const seen = useRef<{ key: string; ids: Set<string>; newest: string } | null>(null);
  const [arrived, setArrived] = useState<ReadonlySet<string>>(() => new Set());

  useEffect(() => {
    if (!rows) return;
    const s = seen.current;
    if (!s || s.key !== filterKey) {
      seen.current = { key: filterKey, ids: new Set(rows.map((r) => r.id)), newest: newestOf(rows, '') };
      setArrived((prev) => (prev.size ? new Set() : prev));
      return;
    }
    const fresh = rows.filter((r) => !s.ids.has(r.id) && r.createdAt > s.newest);
    if (!fresh.length) return;
    for (const r of fresh) s.ids.add(r.id);
    s.newest = newestOf(fresh, s.newest);
    setArrived((prev) => new Set([...prev, ...fresh.map((r) => r.id)]));
    void qc.invalidateQueries({ queryKey: OVERVIEW_KEY });
  }, [rows, filterKey, qc]);
  return { arrived, dismiss: () => setArrived(new Set()) };
}

/** The overview's queries, every period (order-api.ts's useOrdersOverview). */
const OVERVIEW_KEY = ['admin', 'orders', 'overview'] as const;

function newestOf(rows: readonly { createdAt: string }[], from: string): string {
  return rows.reduce((max, r) => (r.createdAt > max ? r.createdAt : max), from);
}

/** "2 new orders": read out when it appears; the rows stay highlighted until dismissed. */
export function NewOrdersNotice({ count, onDismiss }: { count: number; onDismiss: () => void }) {
  return (
    <div aria-live="polite" className="empty:hidden">
      {count > 0 && (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-950">
          <p>
            <strong>
              {count} new order{count === 1 ? '' : 's'}
            </strong>{' '}
            arrived: highlighted below.
          </p>
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            Got it
          </Button>
        </div>
      )}
    </div>
  );
}

/** A row that just arrived. */
export const NEW_ROW_CLS = 'bg-sky-50 [&>td]:bg-sky-50 max-md:border-sky-300';
