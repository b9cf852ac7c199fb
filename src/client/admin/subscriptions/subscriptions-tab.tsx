import '../../lib/zod-config.js';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { renewalDateText } from '../../../shared/subscriptions.js';
import { Button } from '../../ui/button.js';
import { DataTable, inputCls, Panel, type Column } from '../components/admin-ui.js';
import { PagedList, RowsSkeleton, StatusChips, type StatusChip } from '../components/paged-list.js';
import { withParams } from '../components/search-params.js';
import { useSubscriptions, type SubscriptionFilters } from './get-subscriptions.js';
import {
  SUBSCRIPTION_LIST_MESSAGES,
  SUBSCRIPTION_STATUSES,
  type AdminSubscriptionCounts,
  type AdminSubscriptionRow,
  type SubscriptionStatus,
} from './subscription-schemas.js';
import { SubscriptionStatusBadge } from './subscription-status.js';
import { SubscriptionDetail } from './subscription-detail.js';
import { UpcomingPanel } from './upcoming-panel.js';
import { FiguresPanel } from './figures-panel.js';
import { SUBSCRIPTION_STATUS_TEXT } from '../../../shared/subscriptions.js';

/** The tab's state lives in the address (`?tab=subscriptions&subStatus=paused&subQ=…&subPage=2&subscription=ID`): reload and Back work. */
const PARAM = { status: 'subStatus', q: 'subQ', page: 'subPage', open: 'subscription' } as const;

function filtersFrom(params: URLSearchParams): SubscriptionFilters {
  const status = params.get(PARAM.status) ?? '';
  const page = Number(params.get(PARAM.page));
  return {
    status: (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) ? (status as SubscriptionStatus) : '',
    q: (params.get(PARAM.q) ?? '').slice(0, 100),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The status chips: All and each status, with how many match the search. */
function statusChips(counts: AdminSubscriptionCounts | undefined): StatusChip<SubscriptionStatus | ''>[] {
  const all = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  return [
    { id: '', label: 'All', n: all },
    ...SUBSCRIPTION_STATUSES.map((s) => ({ id: s, label: SUBSCRIPTION_STATUS_TEXT[s], n: counts?.[s] })),
  ];
}

/**
 * The owner's Subscriptions tab (issue [5/8]): every subscription, newest first, by status (the
 * chips count each within the search) and searched by e-mail, id, product or SKU; a row opens its
 * detail, with its renewals and a cancellation for the customer.
 */
export default function SubscriptionsTab() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const openId = params.get(PARAM.open);
  const [searchText, setSearchText] = useState(filters.q);
  const list = useSubscriptions(filters);
  const set = (changes: Partial<Record<keyof typeof PARAM, string | number | null>>) => setParams(withParams(params, PARAM, changes));

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    set({ q: searchText.trim(), page: 1 });
  };
  const open = (s: AdminSubscriptionRow) => set({ open: s.id });

  const columns: Column<AdminSubscriptionRow>[] = [
    {
      header: 'Customer',
      primary: true,
      className: 'md:min-w-52',
      cell: (s) => (
        <button
          type="button"
          onClick={() => open(s)}
          className="break-all text-left font-medium text-brand-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {s.email}
        </button>
      ),
    },
    {
      header: 'Items',
      className: 'md:min-w-48',
      cell: (s) => (
        <ul className="flex flex-col max-md:items-end">
          {s.items.map((i) => (
            <li key={i.variantId}>
              {i.name} <span className="whitespace-nowrap">× {i.quantity}</span>
            </li>
          ))}
        </ul>
      ),
    },
    { header: 'Terms', className: 'md:whitespace-nowrap', cell: (s) => s.terms },
    { header: 'Status', cell: (s) => <SubscriptionStatusBadge status={s.status} /> },
    {
      header: 'Next delivery',
      className: 'md:whitespace-nowrap',
      cell: (s) => (s.nextRenewalAt ? renewalDateText(s.nextRenewalAt) : <span className="text-stone-600">—</span>),
    },
    { header: 'Deliveries', numeric: true, cell: (s) => s.deliveries },
  ];

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <UpcomingPanel />
      <FiguresPanel />
      <Panel title="Subscriptions">
        <form role="search" onSubmit={onSearch} className="mb-4 flex gap-2">
          <label htmlFor="subscription-search" className="sr-only">
            Search subscriptions
          </label>
          <input
            id="subscription-search"
            type="search"
            maxLength={100}
            className={inputCls}
            placeholder="E-mail, subscription ID, product or SKU"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
          />
          <Button type="submit" variant="outline">
            Search
          </Button>
        </form>
        <StatusChips chips={statusChips(list.data?.counts)} selected={filters.status} onSelect={(status) => set({ status, page: 1 })} />
        <PagedList
          query={list}
          skeleton={
            <RowsSkeleton
              label="Loading subscriptions"
              rows={5}
              inline
              bars={['h-4 w-48 max-w-full', 'h-4 w-40 max-w-full', 'h-4 w-28', 'h-5 w-16 rounded-full', 'h-4 w-24']}
            />
          }
          isEmpty={(d) => d.subscriptions.length === 0}
          empty={
            <div className="flex flex-col items-center gap-3">
              <p>{filters.status || filters.q ? SUBSCRIPTION_LIST_MESSAGES.emptyFiltered : SUBSCRIPTION_LIST_MESSAGES.empty}</p>
              {(filters.status || filters.q) && (
                <Button
                  variant="outline"
                  onClick={() => {
                    setSearchText('');
                    set({ status: '', q: '', page: 1 });
                  }}
                >
                  Clear filters
                </Button>
              )}
            </div>
          }
          count={(d) => (d.total === 1 ? '1 subscription' : `${d.total} subscriptions`)}
          totalPages={(d) => d.totalPages}
          onPage={(page) => set({ page })}
        >
          {(d) => (
            <DataTable
              caption="Subscriptions"
              rows={d.subscriptions}
              rowKey={(s) => s.id}
              columns={columns}
              busy={list.isPlaceholderData}
              actions={(s) => (
                <Button size="sm" variant="ghost" onClick={() => open(s)} aria-label={`View subscription of ${s.email}`}>
                  View
                </Button>
              )}
            />
          )}
        </PagedList>
        <SubscriptionDetail id={openId} onClose={() => set({ open: null })} />
      </Panel>
    </div>
  );
}
