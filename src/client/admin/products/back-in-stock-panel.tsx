import { useState } from 'react';
import { BACK_IN_STOCK_ADMIN_TEXT, type BackInStockWaitingRow } from '../../../shared/schemas/inventory.js';
import { lineTitle } from '../../../shared/variants.js';
import { formatDate } from '../../lib/format.js';
import { useBackInStockWaiting } from '../api/get-back-in-stock.js';
import { DataTable, ListState, PageNav, Panel, type Column } from '../components/admin-ui.js';

const PAGE_SIZE = 20;

const columns: Column<BackInStockWaitingRow>[] = [
  {
    header: 'Product',
    primary: true,
    cell: (r) => <span className="font-medium text-stone-900">{lineTitle(r.productName, r.variantLabel ?? '')}</span>,
  },
  { header: 'Waiting', numeric: true, cell: (r) => r.waiting },
  { header: 'Oldest request', cell: (r) => <time dateTime={r.oldestRequestAt}>{formatDate(r.oldestRequestAt)}</time> },
  { header: 'In stock', numeric: true, cell: (r) => r.onHand },
];

/**
 * What shoppers wait for (decision 0041): how many asked to be told when each product or variant
 * is back, since when, and its stock now; most awaited first, by pages. No addresses: the owner
 * needs to know what to restock.
 */
export function BackInStockPanel() {
  const [page, setPage] = useState(1);
  const { data, isPending, error, refetch, isFetching } = useBackInStockWaiting(page, PAGE_SIZE);
  return (
    <Panel title={BACK_IN_STOCK_ADMIN_TEXT.title}>
      <p className="mb-4 text-sm text-stone-700">{BACK_IN_STOCK_ADMIN_TEXT.intro}</p>
      <ListState
        isPending={isPending}
        error={error}
        onRetry={() => void refetch()}
        isEmpty={data?.items.length === 0}
        empty={<p className="text-stone-700">{BACK_IN_STOCK_ADMIN_TEXT.empty}</p>}
        loadingLabel="Loading requests"
      >
        {data && (
          <>
            <p className="mb-3 text-sm font-medium text-stone-800">{BACK_IN_STOCK_ADMIN_TEXT.summary(data.totalWaiting, data.total)}</p>
            <DataTable
              caption={BACK_IN_STOCK_ADMIN_TEXT.title}
              rows={data.items}
              rowKey={(r) => r.variantId}
              columns={columns}
              busy={isFetching}
            />
            <PageNav page={page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
    </Panel>
  );
}
