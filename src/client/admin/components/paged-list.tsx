import type { ReactNode } from 'react';
import { Skeleton } from '../../ui/skeleton.js';
import { ListState, PageNav } from './admin-ui.js';

/*
 * The pieces of a back-office list filtered in the address (search-params.ts) and paged by the
 * server (Reviews, Subscriptions): the status chips, the grey rows while the first page loads, and
 * the list's states around its rows.
 */

export type StatusChip<S extends string> = {
  id: S;
  label: string;
  /** How many the chip holds; `undefined` while loading. */ n: number | undefined;
};

/** A list's status filter: one pressed chip at a time, each with its count. */
export function StatusChips<S extends string>({
  chips,
  selected,
  onSelect,
}: {
  chips: StatusChip<S>[];
  selected: S;
  onSelect: (status: S) => void;
}) {
  return (
    <div role="group" aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2">
      {chips.map((c) => {
        const on = selected === c.id;
        return (
          <button
            key={c.id}
            type="button"
            aria-pressed={on}
            onClick={() => onSelect(c.id)}
            className={`inline-flex h-9 items-center gap-2 whitespace-nowrap rounded-full border px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
              on
                ? 'border-brand-600 bg-brand-600 text-white'
                : 'border-stone-300 bg-white text-stone-800 hover:border-stone-400 hover:bg-stone-50'
            }`}
          >
            {c.label}
            <span
              className={`min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums ${on ? 'bg-white/20 text-white' : 'bg-stone-100 text-stone-700'}`}
            >
              {c.n ?? '…'}
            </span>
          </button>
        );
      })}
    </div>
  );
}

/**
 * What a list looks like while its first page loads: `rows` cards of grey bars (`bars`, their
 * classes), not a jump from a spinner to a table. `inline` lays a card's bars in a row from md up,
 * as the table's cells will be; otherwise they stack, as a review's lines do.
 */
export function RowsSkeleton({ label, rows, bars, inline = false }: { label: string; rows: number; bars: string[]; inline?: boolean }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-3">
      {Array.from({ length: rows }, (_, i) => (
        <div
          key={i}
          className={`flex flex-col gap-2 rounded-lg border border-stone-200 p-3${inline ? ' md:flex-row md:items-center md:gap-6' : ''}`}
        >
          {bars.map((bar, j) => (
            <Skeleton key={j} className={bar} />
          ))}
        </div>
      ))}
    </div>
  );
}

/**
 * A server-paged list's states: `skeleton` until the first page comes, then ListState's error
 * (only when nothing is on screen: a failed refetch keeps the page shown) or `empty`, else the
 * count (read out when it changes), the rows, and Previous / Next.
 */
export function PagedList<D extends { page: number }>({
  query: { data, error, isPending, isFetching, refetch },
  skeleton,
  isEmpty,
  empty,
  count,
  totalPages,
  onPage,
  children,
}: {
  query: { data: D | undefined; error: unknown; isPending: boolean; isFetching: boolean; refetch: () => unknown };
  skeleton: ReactNode;
  isEmpty: (data: D) => boolean;
  empty: ReactNode;
  /** "3 reviews": the whole list's size, above the rows. */
  count: (data: D) => string;
  totalPages: (data: D) => number;
  onPage: (page: number) => void;
  children: (data: D) => ReactNode;
}) {
  if (isPending) return <>{skeleton}</>;
  return (
    <ListState
      isPending={false}
      error={error && !data ? error : null}
      onRetry={() => void refetch()}
      isEmpty={data !== undefined && isEmpty(data)}
      empty={empty}
    >
      {data && (
        <>
          <p className="mb-2 text-sm text-stone-700" aria-live="polite">
            {count(data)}
          </p>
          {children(data)}
          <PageNav page={data.page} totalPages={totalPages(data)} onPage={onPage} busy={isFetching} />
        </>
      )}
    </ListState>
  );
}
