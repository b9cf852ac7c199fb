import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { labelPrintPath, ORDER_STATUSES } from '../../../shared/schemas/orders.js';
import { BULK_MAX, BulkResponse, type BulkOutcome } from '../../../shared/schemas/bulk.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { adminSend, logUnexpected, messageOf } from '../api/admin-api.js';
import { BulkBar, BulkResultsDialog, type Selection } from '../components/bulk.js';
import { ConfirmDialog } from '../components/admin-ui.js';
import type { Status } from './order-api.js';
import { ApiError } from '../../lib/api-client.js';
import { ShipStationNotSetUp } from '../components/shipstation-not-set-up.js';

/** Every order query (list, details, overview) and the stock the orders moved are read again after a bulk action. */
function useRefetchAfter() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['admin', 'orders'] }),
      qc.invalidateQueries({ queryKey: ['admin', 'products'] }),
      qc.invalidateQueries({ queryKey: ['products'] }),
    ]);
}

function useBulkOrderStatus() {
  const refetch = useRefetchAfter();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: { ids: string[]; status: Status; notify: boolean }) =>
      adminSend('POST', '/api/admin/orders/bulk/status', BulkResponse, body),
    onSettled: refetch,
  });
}

function useBulkLabels() {
  const refetch = useRefetchAfter();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (ids: string[]) => adminSend('POST', '/api/admin/orders/bulk/labels', BulkResponse, { ids }),
    onSettled: refetch,
  });
}

type Asked = { kind: 'status'; status: Status; notify: boolean } | { kind: 'labels' };

/**
 * The order list's bulk bar: change the status (each order through the one status change, its
 * customer e-mailed only with "Notify the customers"), print every packing slip in one print
 * job, buy a label for each. Each action asks first, then shows what happened to every order.
 */
export function OrderBulkBar({ selection, onPrintSlips }: { selection: Selection; onPrintSlips: (ids: string[]) => void }) {
  const id = useId();
  const [status, setStatus] = useState<Status | ''>('');
  const [notify, setNotify] = useState(true);
  const [asked, setAsked] = useState<Asked | null>(null);
  const [results, setResults] = useState<{ title: string; items: BulkOutcome[] } | null>(null);
  // The orders whose labels the last "Buy labels" bought: each to print from the shop.
  const [toPrint, setToPrint] = useState<BulkOutcome[]>([]);
  // "Buy labels" before ShipStation is set up (503): the sentence and a link to its settings.
  const [notSetUp, setNotSetUp] = useState<string | null>(null);
  const setStatuses = useBulkOrderStatus();
  const buyLabels = useBulkLabels();
  const ids = selection.ids;
  const n = ids.length;
  const orders = `${n} order${n === 1 ? '' : 's'}`;
  const over = n > BULK_MAX;
  const busy = setStatuses.isPending || buyLabels.isPending;

  const done = (title: string) => (r: { results: BulkOutcome[] }) => {
    setAsked(null);
    setResults({ title, items: r.results });
    // Those that went through leave the selection; the ones skipped stay, to try again.
    selection.setMany(
      r.results.filter((x) => x.result !== 'skipped').map((x) => x.id),
      false,
    );
  };
  const failed = (title: string) => (err: unknown) => {
    setAsked(null);
    toast({ title, description: messageOf(err), variant: 'destructive' });
  };
  const confirm = () => {
    if (!asked) return;
    if (asked.kind === 'status')
      setStatuses.mutate(
        { ids, status: asked.status, notify: asked.notify },
        { onSuccess: done('Status change'), onError: failed('Error updating orders') },
      );
    else
      buyLabels.mutate(ids, {
        onSuccess: (r) => {
          done('Shipping labels')(r);
          setToPrint(r.results.filter((x) => x.result === 'changed'));
        },
        onError: (err) => {
          if (!(err instanceof ApiError && err.status === 503)) return failed('Error buying labels')(err);
          setAsked(null);
          setNotSetUp(err.message);
        },
      });
  };

  return (
    <>
      <BulkBar count={n} noun={['order', 'orders']} onClear={selection.clear}>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={`${id}-status`} className="text-sm font-medium text-stone-900">
            Set status
          </label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => setStatus(ORDER_STATUSES.find((s) => s === e.target.value) ?? '')}
            className="rounded-md border border-stone-300 bg-white px-2 py-1.5 text-sm capitalize"
          >
            <option value="">Choose…</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <label className="flex items-center gap-2 text-sm text-stone-900">
            <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={notify} onChange={(e) => setNotify(e.target.checked)} />
            Notify the customers
          </label>
          <Button size="sm" disabled={!status || over || busy} onClick={() => status && setAsked({ kind: 'status', status, notify })}>
            Apply
          </Button>
        </div>
        <Button size="sm" variant="outline" disabled={over} onClick={() => onPrintSlips(ids)}>
          Print packing slips
        </Button>
        <Button size="sm" variant="outline" disabled={over || busy} onClick={() => setAsked({ kind: 'labels' })}>
          Buy labels
        </Button>
      </BulkBar>
      <ConfirmDialog
        open={asked !== null}
        title={asked?.kind === 'labels' ? 'Buy shipping labels?' : 'Change the status of the selected orders?'}
        message={
          asked?.kind === 'labels'
            ? `A ShipStation label will be bought for each of the ${orders} that is paid and has none yet; each labelled order is marked shipped and its customer e-mailed the tracking number.`
            : asked
              ? `${orders} will be marked ${asked.status}. ${
                  asked.notify
                    ? 'Each customer with an e-mail address will be e-mailed about it.'
                    : 'No customer will be e-mailed (the change is kept on each order’s timeline).'
                }`
              : ''
        }
        confirmLabel={asked?.kind === 'labels' ? 'Buy labels' : asked?.notify ? 'Change and e-mail' : 'Change status'}
        busyLabel={asked?.kind === 'labels' ? 'Buying…' : 'Changing…'}
        confirmVariant="primary"
        busy={busy}
        onConfirm={confirm}
        onClose={() => setAsked(null)}
      />
      {notSetUp && <ShipStationNotSetUp message={notSetUp} onDismiss={() => setNotSetUp(null)} />}
      <BulkResultsDialog title={results?.title ?? ''} results={results?.items ?? null} onClose={() => setResults(null)} />
      <LabelsToPrint labels={toPrint} onDismiss={() => setToPrint([])} />
    </>
  );
}

/**
 * After "Buy labels": the labels just bought, each printed from the shop (an admin-only address
 * that serves the PDF ShipStation gave, or sends to its download), one PDF per label in a new tab.
 */
function LabelsToPrint({ labels, onDismiss }: { labels: readonly BulkOutcome[]; onDismiss: () => void }) {
  const headingId = useId();
  if (labels.length === 0) return null;
  const n = labels.length;
  return (
    <section aria-labelledby={headingId} className="mb-4 flex flex-col gap-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-stone-900">
          Print labels
        </h3>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Done printing
        </Button>
      </div>
      <p className="text-sm text-stone-800">
        {n} label{n === 1 ? ' was' : 's were'} bought. Open each to print it (a PDF, in a new tab):
      </p>
      <ul className="flex flex-wrap gap-2" aria-label="Labels to print">
        {labels.map((l) => (
          <li key={l.id}>
            <a href={labelPrintPath(l.id)} target="_blank" rel="noopener noreferrer" className={buttonClasses('outline', 'sm')}>
              Print label {l.label ?? l.id}
              <span className="sr-only"> (opens the label PDF in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
