import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { BulkOutcome } from '../../../shared/schemas/bulk.js';
import { BULK_MAX } from '../../../shared/schemas/bulk.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import type { Column } from './admin-ui.js';

/**
 * Selecting rows of a back-office list for a bulk action. The selection is a set of ids kept
 * apart from the list's data, so a refetch (the order list refreshes every 30 s) or another page
 * keeps it; rows that leave the list stay selected until the owner clears them or acts.
 */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  return {
    selected,
    ids: [...selected],
    has: (id: string) => selected.has(id),
    toggle: (id: string, on: boolean) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    setMany: (ids: readonly string[], on: boolean) =>
      setSelected((prev) => {
        const next = new Set(prev);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    clear: () => setSelected(new Set()),
  };
}
export type Selection = ReturnType<typeof useSelection>;

const boxCls = 'h-5 w-5 cursor-pointer rounded border-stone-400 accent-brand-600';

/**
 * "Select all on this page": checked when every row is, mixed when some are. Disabled while the
 * list still shows the previous result (a new search, sort or page on its way): "this page" is
 * about to change, and selecting it then would pick the rows the owner is leaving.
 */
function SelectAllBox({
  selection,
  ids,
  label,
  id,
  className = boxCls,
  busy = false,
}: {
  selection: Selection;
  ids: readonly string[];
  label?: string;
  id?: string;
  className?: string;
  busy?: boolean;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const count = ids.filter((id) => selection.has(id)).length;
  const all = ids.length > 0 && count === ids.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <input
      ref={ref}
      id={id}
      type="checkbox"
      className={className}
      aria-label={label}
      checked={all}
      disabled={ids.length === 0 || busy}
      onChange={(e) => selection.setMany(ids, e.target.checked)}
    />
  );
}

/**
 * The list's first column: a box per row, and in the heading one for the whole page (disabled while
 * `busy`, the list showing the previous result).
 */
export function selectColumn<T>(
  selection: Selection,
  rows: readonly T[],
  rowKey: (row: T) => string,
  names: { all: string; row: (row: T) => string },
  busy = false,
): Column<T> {
  return {
    header: 'Select',
    // On a phone the heading row is visually hidden (rows are cards): SelectPageBox stands in for this box there.
    heading: (
      <SelectAllBox selection={selection} ids={rows.map(rowKey)} label={names.all} className={`${boxCls} max-md:hidden`} busy={busy} />
    ),
    className: 'w-8 max-md:w-auto',
    cell: (row) => (
      <input
        type="checkbox"
        className={boxCls}
        aria-label={names.row(row)}
        checked={selection.has(rowKey(row))}
        onChange={(e) => selection.toggle(rowKey(row), e.target.checked)}
      />
    ),
  };
}

/** On a phone the table's heading is hidden (each row is a card): "select all" stands above the cards. */
export function SelectPageBox({ selection, ids, busy = false }: { selection: Selection; ids: readonly string[]; busy?: boolean }) {
  const id = useId();
  return (
    <div className="mb-3 flex items-center gap-2 md:hidden">
      <SelectAllBox selection={selection} ids={ids} id={id} busy={busy} />
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        Select all on this page
      </label>
    </div>
  );
}

/** The bar over a list while rows are selected: how many, the actions, and Clear. */
export function BulkBar({
  count,
  noun,
  onClear,
  children,
}: {
  count: number;
  noun: [string, string];
  onClear: () => void;
  children: ReactNode;
}) {
  if (count === 0) return null;
  const over = count > BULK_MAX;
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="mb-4 flex flex-col gap-3 rounded-lg border border-brand-200 bg-brand-50 p-3 lg:flex-row lg:flex-wrap lg:items-center"
    >
      <p className="text-sm font-semibold text-stone-900" aria-live="polite">
        {count} {count === 1 ? noun[0] : noun[1]} selected
        {over && <span className="block font-normal text-red-800">At most {BULK_MAX} at a time: clear some first.</span>}
      </p>
      <div className="flex flex-wrap items-center gap-2">{children}</div>
      <Button variant="ghost" size="sm" onClick={onClear} className="lg:ml-auto">
        Clear selection
      </Button>
    </div>
  );
}

const RESULT_TEXT: Record<BulkOutcome['result'], string> = { changed: 'Done', skipped: 'Skipped', not_found: 'Not found' };
const RESULT_CLS: Record<BulkOutcome['result'], string> = {
  changed: 'bg-green-100 text-green-900',
  skipped: 'bg-amber-100 text-amber-900',
  not_found: 'bg-red-100 text-red-900',
};

/** What a bulk action did, item by item: done, or skipped / not found with the reason. */
export function BulkResultsDialog({
  title,
  results,
  onClose,
}: {
  title: string;
  results: readonly BulkOutcome[] | null;
  onClose: () => void;
}) {
  const list = results ?? [];
  const done = list.filter((r) => r.result === 'changed').length;
  return (
    <Dialog
      open={results !== null}
      onClose={onClose}
      title={title}
      footer={
        <div className="flex justify-end">
          <Button onClick={onClose}>Close</Button>
        </div>
      }
    >
      <p className="mb-3 text-stone-800">
        {done} of {list.length} done{done < list.length ? `, ${list.length - done} not` : ''}.
      </p>
      <ul className="flex flex-col divide-y divide-stone-200" aria-label="Results">
        {list.map((r) => (
          <li key={r.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2 text-sm">
            <span className={`rounded px-2 py-0.5 text-xs font-semibold ${RESULT_CLS[r.result]}`}>{RESULT_TEXT[r.result]}</span>
            <span className="font-medium text-stone-900">{r.label ?? r.id}</span>
            {r.message && <span className="basis-full text-stone-700 sm:basis-auto">{r.message}</span>}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
