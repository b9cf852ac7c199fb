import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { formatCents } from '../../../shared/money.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { messageOf } from '../api/admin-api.js';
import { OVERVIEW_DAYS, useOrdersOverview } from './order-api.js';

/**
 * The chart library (recharts) lives in its own lazy chunk, so neither the order table below nor
 * the headline numbers wait for it. A failed chunk load can be retried with a fresh lazy component.
 */
const importCharts = () => import('./overview-charts.js');
const loadCharts = () => lazy(importCharts);
let OverviewCharts = loadCharts();

/** What the numbers mean; the same rule as the server's ordersOverview. */
const OVERVIEW_LEGEND =
  'Placed orders only (paid, refunded or entered by the shop; unpaid checkout attempts are left out). Revenue is the money the shop received, net of refunds: orders you entered yourself count as orders but bring no revenue (the shop took no payment for them), and a cancelled order keeps what was not refunded. Days are UTC.';

class ChartsBoundary extends Component<{ children: ReactNode; onRetry: () => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert
        variant="destructive"
        title="The charts could not be loaded"
        action={
          <Button
            variant="outline"
            onClick={() => {
              this.props.onRetry();
              this.setState({ failed: false });
            }}
          >
            Retry
          </Button>
        }
      />
    );
  }
}

/** Placeholders the size of the three charts. */
function ChartsSkeleton() {
  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-2">
      <Skeleton className="h-64" />
      <Skeleton className="h-64" />
      <Skeleton className="h-56 lg:col-span-2" />
    </div>
  );
}

function Headline({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="min-w-0 rounded-lg border border-stone-200 bg-stone-50 px-3 py-3 sm:px-4">
      <dt className="text-sm text-stone-700">{label}</dt>
      <dd className="mt-1 text-xl font-semibold break-words tabular-nums text-stone-900 sm:text-2xl">{value}</dd>
    </div>
  );
}

/** Headline numbers and charts of the last 30 days, at the top of the orders list. */
export function OrdersOverviewSection() {
  const { data, error, isPending, refetch, isFetching } = useOrdersOverview();
  const [, setChartsAttempt] = useState(0);
  // Fetch the chart chunk alongside the data rather than after it; a failure shows when rendering.
  useEffect(() => {
    importCharts().catch(() => undefined);
  }, []);
  const headingId = 'orders-overview-heading';

  let body: ReactNode;
  if (isPending) {
    body = (
      <div className="flex flex-col gap-4">
        <p role="status" className="sr-only">
          Loading the orders overview
        </p>
        <div className="grid grid-cols-2 gap-3">
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
        </div>
        <ChartsSkeleton />
      </div>
    );
  } else if (error && !data) {
    body = (
      <Alert
        variant="destructive"
        title={messageOf(error, 'Failed to load the orders overview')}
        action={
          <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
            Retry
          </Button>
        }
      />
    );
  } else {
    const { totals } = data;
    body = (
      <div className="flex flex-col gap-4" aria-busy={isFetching}>
        <dl className="grid grid-cols-2 gap-3">
          <Headline label={`Orders, last ${OVERVIEW_DAYS} days`} value={totals.orders.toLocaleString('en-US')} />
          <Headline label={`Revenue, last ${OVERVIEW_DAYS} days`} value={formatCents(totals.revenueCents)} />
        </dl>
        {totals.orders === 0 ? (
          <p className="rounded-lg border border-dashed border-stone-300 py-8 text-center text-stone-700">
            No orders in the last {OVERVIEW_DAYS} days.
          </p>
        ) : (
          <ChartsBoundary
            onRetry={() => {
              OverviewCharts = loadCharts();
              setChartsAttempt((n) => n + 1);
            }}
          >
            <Suspense fallback={<ChartsSkeleton />}>
              <OverviewCharts data={data} />
            </Suspense>
          </ChartsBoundary>
        )}
        <p className="text-xs text-stone-600">{OVERVIEW_LEGEND}</p>
      </div>
    );
  }

  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="mb-4 text-xl font-semibold text-stone-900">
        Overview
      </h2>
      {body}
    </section>
  );
}
