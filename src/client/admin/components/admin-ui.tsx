import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { Spinner } from '../../ui/spinner.js';
import { messageOf } from '../api/admin-api.js';

/** Outlines a field's input and points it at its error (the `${id}-error` line Field shows under it). */
export { fieldAria } from '../../ui/form-controls.js';

export const th = 'whitespace-nowrap px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-stone-700';
export const td = 'px-3 py-2 align-middle text-sm text-stone-800';
export const inputCls =
  'w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm text-stone-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-stone-100 read-only:bg-stone-50 aria-[invalid=true]:border-red-700';

/** A dollar amount with cents ("12.50"); the form's schema turns it into cents. */
export function DollarInput({ min = '0', ...input }: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input type="number" min={min} step="0.01" inputMode="decimal" className={inputCls} {...input} />;
}

/** A card with a heading and optional actions on the right. */
export function Panel({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-xl font-semibold text-stone-900">
          {title}
        </h2>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** Loading, error (with Retry) and empty states shared by every list. */
export function ListState({
  isPending,
  error,
  onRetry,
  isEmpty = false,
  empty = null,
  loadingLabel = 'Loading',
  children,
}: {
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
  /** A list's empty state; a single record's query leaves both out. */
  isEmpty?: boolean;
  empty?: ReactNode;
  loadingLabel?: string;
  children: ReactNode;
}) {
  if (isPending) return <Spinner label={loadingLabel} />;
  if (error) {
    return (
      <Alert
        variant="destructive"
        title={messageOf(error, 'Failed to load')}
        action={
          <Button variant="outline" onClick={onRetry}>
            Retry
          </Button>
        }
      />
    );
  }
  if (isEmpty) return <div className="py-10 text-center text-stone-700">{empty}</div>;
  return <>{children}</>;
}

/** Previous / Next for server-side pages. */
export function PageNav({
  page,
  totalPages,
  onPage,
  busy,
}: {
  page: number;
  totalPages: number;
  onPage: (p: number) => void;
  busy?: boolean;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-6 flex items-center justify-center gap-4">
      <Button variant="outline" disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <p className="text-sm text-stone-700" aria-live="polite">
        Page {page} of {totalPages}
      </p>
      <Button variant="outline" disabled={page >= totalPages || busy} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** A labelled form field; `required` adds the visible marker. */
export function Field({
  label,
  required,
  error,
  hint,
  children,
  htmlFor,
}: {
  label: string;
  required?: boolean;
  error?: string | undefined;
  hint?: string;
  htmlFor: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={htmlFor} className="text-sm font-medium text-stone-900">
        {label}
        {required && (
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        )}
      </label>
      {children}
      {hint && <p className="text-xs text-stone-600">{hint}</p>}
      {error && (
        <p id={`${htmlFor}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** An on/off switch (a real checkbox with role switch, so keyboard and screen readers work). */
export function Switch({
  checked,
  onChange,
  label,
  disabled,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <label className="relative inline-flex cursor-pointer items-center gap-2">
      <input
        type="checkbox"
        role="switch"
        className="peer sr-only"
        checked={checked}
        disabled={disabled}
        aria-label={label}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span
        aria-hidden="true"
        className="relative h-6 w-11 shrink-0 rounded-full bg-stone-300 transition-colors peer-checked:bg-brand-600 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600 peer-focus-visible:ring-offset-2 peer-disabled:opacity-60 after:absolute after:top-0.5 after:left-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:after:translate-x-5"
      />
    </label>
  );
}

/** "Are you sure…?" before anything destructive. */
export function ConfirmDialog({
  open,
  title = 'Please confirm',
  message,
  confirmLabel = 'Delete',
  busyLabel = 'Deleting…',
  busy,
  confirmVariant = 'destructive',
  onConfirm,
  onClose,
}: {
  open: boolean;
  title?: string;
  message: string;
  confirmLabel?: string;
  /** The confirm button's text while the action runs. */
  busyLabel?: string;
  /** Red for what cannot be undone (the default), the plain button for an ordinary change. */
  confirmVariant?: 'destructive' | 'primary';
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <p className="text-stone-800">{message}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

export function centsToText(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);
}

/**
 * The end of every back-office form: the required-fields key, Cancel, and Save with progress.
 * A dialog whose submit is one request the owner waits on (hide a review, reply) holds both
 * buttons while it runs (`holdWhileSaving`): it is not sent twice, nor closed half-way.
 */
export function FormFooter({
  onCancel,
  saving,
  saveLabel,
  savingLabel = 'Saving…',
  variant,
  holdWhileSaving = false,
  requiredKey = true,
}: {
  onCancel: () => void;
  saving: boolean;
  saveLabel: string;
  /** The submit button's text while saving. */
  savingLabel?: string;
  /** Red for what takes something away (hiding a review); the plain button otherwise. */
  variant?: 'primary' | 'destructive';
  holdWhileSaving?: boolean;
  /** The "* Required" key, for a form that marks its required fields. */
  requiredKey?: boolean;
}) {
  const held = holdWhileSaving ? saving : undefined;
  return (
    <>
      {requiredKey && (
        <p className="text-xs text-stone-600">
          <span className="text-red-700">*</span> Required
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2 border-t border-stone-200 pt-4">
        <Button variant="ghost" onClick={onCancel} disabled={held}>
          Cancel
        </Button>
        <Button type="submit" variant={variant} disabled={held}>
          {saving ? savingLabel : saveLabel}
        </Button>
      </div>
    </>
  );
}

/** One column of a {@link DataTable}. */
export type Column<T> = {
  /** The column heading; on a phone it labels the value inside the card. */
  header: string;
  cell: (row: T) => ReactNode;
  /** Extra classes for the cell (both layouts). */
  className?: string;
  /** Numbers: right-aligned in the table. */
  numeric?: boolean;
  /** The card's title on a phone: shown first, bold, without its label. */
  primary?: boolean;
  /** Drawn in the heading cell instead of `header` (a select-all box); `header` still labels it. */
  heading?: ReactNode;
};

const cardCell =
  'max-md:flex max-md:min-w-0 max-md:items-center max-md:justify-between max-md:gap-3 max-md:px-0 max-md:py-1 max-md:text-right max-md:before:shrink-0 max-md:before:text-left max-md:before:text-xs max-md:before:font-semibold max-md:before:uppercase max-md:before:tracking-wide max-md:before:text-stone-600 max-md:before:content-[attr(data-label)]';

/**
 * The back office's list table. From 768 px up it is a table that scrolls sideways inside its own
 * box, with the row actions pinned to the right edge so they never scroll out of sight; below
 * 768 px every row becomes a card (label and value per line, the actions at the bottom, full
 * width). One DOM for both, so a row has one set of controls. The ARIA roles are spelled out
 * because a table restyled as blocks can otherwise lose its table semantics.
 */
export function DataTable<T>({
  caption,
  rows,
  rowKey,
  columns,
  actions,
  actionsLabel = 'Actions',
  busy,
  dense = false,
  rowClassName,
}: {
  caption: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly Column<T>[];
  actions?: (row: T) => ReactNode;
  actionsLabel?: string;
  busy?: boolean;
  /** Narrower cell padding on a desktop, for a table with many columns (it keeps them all in view at 1280 px). */
  dense?: boolean;
  /** Extra classes for a row (a new order's highlight). */
  rowClassName?: (row: T) => string;
}) {
  const thCls = dense ? th.replace('px-3', 'px-2') : th;
  const tdCls = dense ? td.replace('px-3', 'px-2') : td;
  return (
    <div className="md:overflow-x-auto" aria-busy={busy}>
      {/* Below 768 px the table is laid out as cards (display: block/flex), which drops its table
          semantics in Chromium and Safari: the explicit roles keep it a table for screen readers. */}
      {/* eslint-disable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role */}
      <table role="table" className="w-full border-collapse max-md:block">
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className="bg-stone-50 max-md:sr-only">
          <tr role="row">
            {columns.map((c) => (
              <th key={c.header} role="columnheader" scope="col" className={`${thCls}${c.numeric ? ' text-right' : ''}`}>
                {c.heading ?? c.header}
              </th>
            ))}
            {actions && (
              <th role="columnheader" scope="col" className={`${thCls} sticky right-0 bg-stone-50`}>
                {actionsLabel}
              </th>
            )}
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-md:flex max-md:flex-col max-md:gap-3">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              role="row"
              className={`border-t border-stone-200 max-md:flex max-md:flex-col max-md:rounded-lg max-md:border max-md:border-stone-200 max-md:px-3 max-md:py-2 ${rowClassName?.(row) ?? ''}`}
            >
              {columns.map((c) =>
                c.primary ? (
                  <td
                    key={c.header}
                    role="cell"
                    className={`${tdCls} ${c.className ?? ''} max-md:order-first max-md:px-0 max-md:py-1 max-md:text-base`}
                  >
                    {c.cell(row)}
                  </td>
                ) : (
                  <td
                    key={c.header}
                    role="cell"
                    data-label={c.header}
                    className={`${tdCls}${c.numeric ? ' text-right tabular-nums' : ''} ${c.className ?? ''} ${cardCell}`}
                  >
                    {c.cell(row)}
                  </td>
                ),
              )}
              {actions && (
                <td
                  role="cell"
                  className={`${tdCls} sticky right-0 bg-white max-md:static max-md:mt-1 max-md:empty:hidden max-md:border-t max-md:border-stone-100 max-md:px-0 max-md:pt-2`}
                >
                  {actions(row)}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {/* eslint-enable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role */}
    </div>
  );
}

/** Edit and Delete for one row; `name` completes the buttons' accessible names ("Edit {name}"). */
export function RowActions({
  name,
  onEdit,
  onDelete,
  editVariant = 'ghost',
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  editVariant?: 'ghost' | 'outline';
}) {
  return (
    <div className="flex flex-wrap gap-1">
      <Button size="sm" variant={editVariant} onClick={onEdit} aria-label={`Edit ${name}`}>
        Edit
      </Button>
      <Button size="sm" variant="ghost" className="text-red-800 hover:bg-red-50" onClick={onDelete} aria-label={`Delete ${name}`}>
        Delete
      </Button>
    </div>
  );
}
