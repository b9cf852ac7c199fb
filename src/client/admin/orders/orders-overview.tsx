import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money.js';
import { PeriodInput } from '../../../shared/schemas/reports.js';
import { Skeleton } from '../../ui/skeleton.js';
import { formatDay } from '../../lib/format.js';
import { ChartBoundary, FiguresLoadError, FiguresSkeleton, Headline, PeriodSelect } from '../components/figures.js';
import { withParams } from '../components/search-params.js';
import type { OrdersOverview } from '../api/admin-schemas.js';
import { useOrdersOverview, type OverviewPeriod } from './order-api.js';
import { PeriodForm } from './period-form.js';
import { SalesByProduct } from './sales-by-product.js';

/**
 * The chart library (recharts) lives in its own lazy chunk, so neither the order table below nor
 * the headline numbers wait for it. A failed chunk load can be retried with a fresh lazy component.
 */
const importCharts = () => import('./overview-charts.js');
const loadCharts = () => lazy(importCharts);
let OverviewCharts = loadCharts();

/** What the numbers mean; the same rule as the server's ordersOverview. */
const OVERVIEW_LEGEND =
  'Placed orders only (paid, refunded or entered by the shop; unpaid checkout attempts are left out), on the day they were placed. Revenue is the money the shop received, net of refunds, each on the day it moved: a payment on the day it was taken, a refund on the day it was made, so a figure already reported never changes. Orders you entered yourself bring no revenue until their payment is recorded, and a cancelled order keeps what was not refunded.';

/** The period's money, each line on the day it moved (the server's moneyByDay, decision 0046). */
function MoneyBreakdown({ money, named }: { money: OrdersOverview['money']; named: string }) {
  const lines: [label: string, cents: number, sign?: '−' | '+'][] = [
    ['Product sales', money.subtotalCents],
    ['Discounts', money.discountCents, '−'],
    ['Shipping', money.shippingCents, '+'],
    ['Tax', money.taxCents, '+'],
  ];
  return (
    <section
      aria-labelledby="overview-money-heading"
      className="min-w-0 rounded-lg border border-stone-200 p-3"
      data-testid="overview-money"
    >
      <h3 id="overview-money-heading" className="mb-2 text-sm font-semibold text-stone-900">
        Money, {named}
      </h3>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        {lines.map(([label, cents, sign]) => (
          <div key={label} className="flex justify-between gap-2 border-b border-stone-100 py-1 sm:flex-col sm:border-b-0">
            <dt className="text-stone-700">{label}</dt>
            <dd className="tabular-nums text-stone-900">
              {sign && cents !== 0 ? `${sign} ` : ''}
              {formatCents(cents)}
            </dd>
          </div>
        ))}
      </dl>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 border-t border-stone-200 pt-2 text-sm sm:grid-cols-3">
        <div className="flex justify-between gap-2 sm:flex-col">
          <dt className="text-stone-700">Payments taken</dt>
          <dd className="tabular-nums text-stone-900">{formatCents(money.takenCents)}</dd>
        </div>
        <div className="flex justify-between gap-2 sm:flex-col">
          <dt className="text-stone-700">Refunds made</dt>
          <dd className="tabular-nums text-stone-900">
            {money.refundedCents ? '− ' : ''}
            {formatCents(money.refundedCents)}
          </dd>
        </div>
        <div className="flex justify-between gap-2 font-semibold sm:flex-col">
          <dt className="text-stone-900">Revenue</dt>
          <dd className="tabular-nums text-stone-900">{formatCents(money.takenCents - money.refundedCents)}</dd>
        </div>
      </dl>
    </section>
  );
}

/** The overview's preset periods, in the shop's days; 30 unless the owner picks another. */
const PRESET_DAYS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;
const PRESETS = PRESET_DAYS.map((d) => ({ id: String(d), label: `Last ${d} days` }));
const PARAM = { period: 'period', from: 'periodFrom', to: 'periodTo' } as const;

/**
 * The period lives in the address (`period=7|30|90|custom`, `periodFrom`, `periodTo`), apart from
 * the order list's own date filter, so reload and Back keep it. A custom pair the schema refuses
 * (typed into the address by hand) falls back to the default period.
 */
function useOverviewPeriod() {
  const [params, setParams] = useSearchParams();
  const choice = params.get(PARAM.period) ?? String(DEFAULT_DAYS);
  const custom = { from: params.get(PARAM.from) ?? '', to: params.get(PARAM.to) ?? '' };
  const customOk = choice === 'custom' && custom.from !== '' && PeriodInput.safeParse(custom).success;
  const days = PRESET_DAYS.find((d) => String(d) === choice) ?? DEFAULT_DAYS;
  const period: OverviewPeriod = customOk ? custom : { days };
  const set = (changes: Partial<Record<keyof typeof PARAM, string | null>>) => {
    const onTab = new URLSearchParams(params);
    onTab.set('tab', 'orders');
    setParams(withParams(onTab, PARAM, changes), { replace: true });
  };
  return {
    period,
    choice: choice === 'custom' ? 'custom' : String(days),
    custom,
    pick: (value: string) => set(value === 'custom' ? { period: 'custom' } : { period: value, from: null, to: null }),
    setCustom: (p: { from: string; to: string }) => set({ period: 'custom', from: p.from, to: p.to }),
  };
}

/** "Nov 1 – Nov 27, 2026" (the year once, when both ends share it). */
function spanText(from: string, to: string): string {
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  return sameYear
    ? `${formatDay(from, 'short')} – ${formatDay(to, 'short')}, ${to.slice(0, 4)}`
    : `${formatDay(from, 'short')}, ${from.slice(0, 4)} – ${formatDay(to, 'short')}, ${to.slice(0, 4)}`;
}

const exportLinkCls =
  'inline-flex h-9 items-center justify-center whitespace-nowrap rounded-md border border-brand-600 bg-white px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2';

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

/** Headline numbers, charts and sales by product for a period, at the top of the orders list. */
export function OrdersOverviewSection() {
  const { period, choice, custom, pick, setCustom } = useOverviewPeriod();
  const { data, error, isPending, refetch, isFetching } = useOrdersOverview(period);
  const [, setChartsAttempt] = useState(0);
  // Fetch the chart chunk alongside the data rather than after it; a failure shows when rendering.
  useEffect(() => {
    importCharts().catch(() => undefined);
  }, []);
  const headingId = 'orders-overview-heading';

  let body: ReactNode;
  if (isPending) {
    body = (
      <FiguresSkeleton label="Loading the orders overview" headlines={2} gridClassName="grid grid-cols-2 gap-3">
        <ChartsSkeleton />
      </FiguresSkeleton>
    );
  } else if (error && !data) {
    body = (
      <FiguresLoadError error={error} fallback="Failed to load the orders overview" onRetry={() => void refetch()} busy={isFetching} />
    );
  } else {
    const { totals } = data;
    const named = 'days' in period ? `last ${period.days} days` : spanText(data.from, data.to);
    const span = spanText(data.from, data.to);
    // The exports of the same period (its dates as the server resolved them in the shop's time zone).
    const periodQuery = new URLSearchParams({ from: data.from, to: data.to });
    body = (
      <div className="flex flex-col gap-4" aria-busy={isFetching}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-stone-700" data-testid="overview-period">
            {span} <span className="text-stone-600">(days in {data.timeZone.replace(/_/g, ' ')})</span>
          </p>
          <div className="flex flex-wrap gap-2">
            <a href={`/api/admin/exports/orders.csv?${periodQuery}`} download className={exportLinkCls}>
              Orders CSV<span className="sr-only">, {span}</span>
            </a>
            <a href={`/api/admin/exports/customers.csv?${periodQuery}`} download className={exportLinkCls}>
              Customers CSV<span className="sr-only">, {span}</span>
            </a>
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-3">
          <Headline label={`Orders, ${named}`} value={totals.orders.toLocaleString('en-US')} />
          <Headline label={`Revenue, ${named}`} value={formatCents(totals.revenueCents)} />
        </dl>
        <MoneyBreakdown money={data.money} named={named} />
        {totals.orders === 0 ? (
          <p className="rounded-lg border border-dashed border-stone-300 py-8 text-center text-stone-700">No orders in this period.</p>
        ) : (
          <ChartBoundary
            title="The charts could not be loaded"
            onRetry={() => {
              OverviewCharts = loadCharts();
              setChartsAttempt((n) => n + 1);
            }}
          >
            <Suspense fallback={<ChartsSkeleton />}>
              <OverviewCharts data={data} />
            </Suspense>
          </ChartBoundary>
        )}
        <SalesByProduct products={data.products} span={span} />
        <p className="text-xs text-stone-600">{OVERVIEW_LEGEND}</p>
      </div>
    );
  }

  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="mb-4 flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id={headingId} className="text-xl font-semibold text-stone-900">
            Overview
          </h2>
          <PeriodSelect id="overview-period-choice" value={choice} presets={PRESETS} onPick={pick} />
        </div>
        {choice === 'custom' && (
          <PeriodForm
            idPrefix="overview-period"
            label="Overview period"
            from={custom.from || (data?.from ?? '')}
            to={custom.to || (data?.to ?? '')}
            onApply={setCustom}
          />
        )}
      </div>
      {body}
    </section>
  );
}
