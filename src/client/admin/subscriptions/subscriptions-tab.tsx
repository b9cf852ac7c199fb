import '../../lib/zod-config.js';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { renewalDateText } from '../../../shared/subscriptions.js';
import { Button } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { DataTable, inputCls, ListState, PageNav, Panel, type Column } from '../components/admin-ui.js';
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

function withParams(params: URLSearchParams, changes: Partial<Record<keyof typeof PARAM, string | number | null>>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    const name = PARAM[key as keyof typeof PARAM];
    if (value === null || value === '' || (key === 'page' && value === 1)) next.delete(name);
    else next.set(name, String(value));
  }
  return next;
}

/** The status chips: All and each status, with how many match the search. */
function StatusChips({
  counts,
  selected,
  onSelect,
}: {
  counts: AdminSubscriptionCounts | undefined;
  selected: SubscriptionStatus | '';
  onSelect: (status: SubscriptionStatus | '') => void;
}) {
  const all = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const chips: { id: SubscriptionStatus | ''; label: string; n: number | undefined }[] = [
    { id: '', label: 'All', n: all },
    ...SUBSCRIPTION_STATUSES.map((s) => ({ id: s, label: SUBSCRIPTION_STATUS_TEXT[s], n: counts?.[s] })),
  ];
  return (
    <div role="group" aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2">
      {chips.map((c) => {
        const on = selected === c.id;
        return (
          <button
            key={c.id || 'all'}
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

/** What the list looks like while its first page loads: rows of grey bars, not a jump from a spinner to a table. */
function ListSkeleton() {
  return (
    <div role="status" aria-label="Loading subscriptions" className="flex flex-col gap-3">
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3 md:flex-row md:items-center md:gap-6">
          <Skeleton className="h-4 w-48 max-w-full" />
          <Skeleton className="h-4 w-40 max-w-full" />
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-5 w-16 rounded-full" />
          <Skeleton className="h-4 w-24" />
        </div>
      ))}
    </div>
  );
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
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useSubscriptions(filters);
  const set = (changes: Parameters<typeof withParams>[1]) => setParams(withParams(params, changes));

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
        <StatusChips counts={data?.counts} selected={filters.status} onSelect={(status) => set({ status, page: 1 })} />
        {isPending ? (
          <ListSkeleton />
        ) : (
          <ListState
            isPending={false}
            error={error && !data ? error : null}
            onRetry={() => void refetch()}
            isEmpty={data?.subscriptions.length === 0}
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
          >
            {data && (
              <>
                <p className="mb-2 text-sm text-stone-700" aria-live="polite">
                  {data.total === 1 ? '1 subscription' : `${data.total} subscriptions`}
                </p>
                <DataTable
                  caption="Subscriptions"
                  rows={data.subscriptions}
                  rowKey={(s) => s.id}
                  columns={columns}
                  busy={isPlaceholderData}
                  actions={(s) => (
                    <Button size="sm" variant="ghost" onClick={() => open(s)} aria-label={`View subscription of ${s.email}`}>
                      View
                    </Button>
                  )}
                />
                <PageNav page={data.page} totalPages={data.totalPages} onPage={(page) => set({ page })} busy={isFetching} />
              </>
            )}
          </ListState>
        )}
        <SubscriptionDetail id={openId} onClose={() => set({ open: null })} />
      </Panel>
    </div>
  );
}
