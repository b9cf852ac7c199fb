import { useState } from 'react';
import { HOLDS_MESSAGES, type HoldView } from '../../../shared/schemas/holds.js';
import { formatDateTime } from '../../lib/format.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { useEndHold, useHolds } from '../api/holds.js';
import { ConfirmDialog, DataTable, ListState, PageNav, Panel, type Column } from '../components/admin-ui.js';

const PAGE_SIZE = 20;

/** Until when a hold keeps its units from other shoppers, or that others may already buy them. */
function firmText(hold: HoldView, now: number): string {
  return Date.parse(hold.firmUntil) > now ? `${HOLDS_MESSAGES.keeping} until ${formatDateTime(hold.firmUntil)}` : HOLDS_MESSAGES.soft;
}

/**
 * The units unpaid checkouts hold now, by product and variant (decision 0042): each checkout's
 * hold with its units, since when, until when it keeps others out, when it ends, its order and the
 * shopper's e-mail; "End hold" ends that checkout after a confirmation.
 */
export function HoldsPanel() {
  const [page, setPage] = useState(1);
  const { data, isPending, error, refetch, isFetching, dataUpdatedAt } = useHolds(page, PAGE_SIZE);
  const end = useEndHold();
  const [toEnd, setToEnd] = useState<{ orderId: string; orderNumber: string; units: number } | null>(null);
  // Whether a hold still keeps others out, as of when the list was read.
  const now = dataUpdatedAt;

  const columns: Column<HoldView>[] = [
    { header: 'Product', primary: true, cell: (h) => <span className="font-medium text-stone-900">{h.title}</span> },
    { header: 'Units', numeric: true, cell: (h) => h.units },
    {
      header: 'Checkout',
      cell: (h) => (
        <span className="flex flex-col max-md:items-end">
          <span className="font-mono text-sm">#{h.orderNumber}</span>
          <span className="text-sm text-stone-700 max-md:break-all md:whitespace-nowrap">{h.email ?? HOLDS_MESSAGES.guest}</span>
        </span>
      ),
    },
    { header: 'Since', cell: (h) => formatDateTime(h.since) },
    { header: 'Status', cell: (h) => firmText(h, now) },
    { header: 'Ends', cell: (h) => formatDateTime(h.expiresAt) },
  ];

  // A checkout may hold several variants: "End hold" ends all of it, so it names all its units.
  const unitsOf = (orderId: string) => (data?.items ?? []).filter((h) => h.orderId === orderId).reduce((n, h) => n + h.units, 0);

  return (
    <Panel title={HOLDS_MESSAGES.title}>
      <p className="mb-4 text-sm text-stone-700">{HOLDS_MESSAGES.intro}</p>
      <ListState
        isPending={isPending}
        error={error}
        onRetry={() => void refetch()}
        isEmpty={data?.items.length === 0}
        empty={<p className="text-stone-700">{HOLDS_MESSAGES.empty}</p>}
        loadingLabel="Loading holds"
      >
        {data && (
          <>
            <DataTable
              caption={HOLDS_MESSAGES.title}
              rows={data.items}
              rowKey={(h) => `${h.orderId}|${h.variantId}`}
              columns={columns}
              busy={isFetching}
              dense
              actions={(h) => (
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-red-800 hover:bg-red-50 max-md:w-full"
                  aria-label={`${HOLDS_MESSAGES.endButton} of checkout #${h.orderNumber}`}
                  onClick={() => setToEnd({ orderId: h.orderId, orderNumber: h.orderNumber, units: unitsOf(h.orderId) })}
                >
                  {HOLDS_MESSAGES.endButton}
                </Button>
              )}
            />
            <PageNav page={page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
      <ConfirmDialog
        open={toEnd !== null}
        title={HOLDS_MESSAGES.endButton}
        message={toEnd ? HOLDS_MESSAGES.confirm(toEnd.orderNumber, toEnd.units) : ''}
        confirmLabel={HOLDS_MESSAGES.endButton}
        busyLabel="Ending…"
        busy={end.isPending}
        onClose={() => setToEnd(null)}
        onConfirm={() => {
          if (!toEnd) return;
          end.mutate(toEnd.orderId, {
            onSuccess: (r) => toast({ title: HOLDS_MESSAGES.ended(r.orderNumber) }),
            onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
            onSettled: () => setToEnd(null),
          });
        }}
      />
    </Panel>
  );
}
