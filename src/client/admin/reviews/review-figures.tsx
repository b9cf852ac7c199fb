import '../../lib/zod-config.js';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PeriodInput } from '../../../shared/schemas/reports.js';
import { addDays, daysInPeriod, localDateOf } from '../../../shared/shop-time.js';
import { PeriodDates } from '../components/period-dates.js';
import { Skeleton } from '../../ui/skeleton.js';
import { formatDay } from '../../lib/format.js';
import { paths } from '../../lib/paths.js';
import { Panel, td, th } from '../components/admin-ui.js';
import { ChartBoundary, FiguresLoadError, FiguresSkeleton, Headline, PeriodSelect } from '../components/figures.js';
import { withParams } from '../components/search-params.js';
import { useReviewFigures, type FiguresPeriod } from './get-review-figures.js';
import type { ReviewFigures } from './review-schemas.js';
import { ReviewStars } from './review-stars.js';
import type { ReviewDay } from './review-figures-chart.js';

/*
 * The owner's review figures (issue [6/8]): for a period of days, the reviews written each day, the
 * average rating by product, and the share of request e-mails that led to a review. The period
 * lives in the address (`figPeriod=30|90|365|custom`, `figFrom`, `figTo`), so reload and Back keep it.
 */

const importChart = () => import('./review-figures-chart.js');
const loadChart = () => lazy(importChart);
let ReviewFiguresChart = loadChart();

const PRESETS = [
  { id: '30', label: 'Last 30 days', days: 30 },
  { id: '90', label: 'Last 90 days', days: 90 },
  { id: '365', label: 'Last 12 months', days: 365 },
] as const;
const DEFAULT_PRESET = '30';
const PARAM = { period: 'figPeriod', from: 'figFrom', to: 'figTo' } as const;

/** Today in this browser's calendar (the server counts the shop's days; at most a day apart). */
function today(): string {
  return localDateOf(Date.now(), Intl.DateTimeFormat().resolvedOptions().timeZone);
}

function useFiguresPeriod() {
  const [params, setParams] = useSearchParams();
  const choice = params.get(PARAM.period) ?? DEFAULT_PRESET;
  const custom = { from: params.get(PARAM.from) ?? '', to: params.get(PARAM.to) ?? '' };
  const customOk = choice === 'custom' && custom.from !== '' && PeriodInput.safeParse(custom).success;
  const preset = PRESETS.find((p) => p.id === choice) ?? PRESETS[0];
  const end = today();
  const period: FiguresPeriod = customOk ? custom : { from: addDays(end, 1 - preset.days), to: end };
  const set = (changes: Partial<Record<keyof typeof PARAM, string | null>>) =>
    setParams(withParams(params, PARAM, changes), { replace: true });
  return {
    period,
    choice: choice === 'custom' ? 'custom' : preset.id,
    custom,
    pick: (value: string) =>
      set(value === 'custom' ? { period: 'custom' } : { period: value === DEFAULT_PRESET ? null : value, from: null, to: null }),
    setCustom: (p: { from: string; to: string }) => set({ period: 'custom', from: p.from, to: p.to }),
  };
}

/** The custom period: both dates, checked by the schema the server uses. */
function CustomDates(props: { from: string; to: string; onApply: (p: { from: string; to: string }) => void }) {
  return <PeriodDates {...props} schema={PeriodInput} idPrefix="review-figures" />;
}

/** "Nov 3 – Nov 29, 2026" (the year once when both ends share it). */
function spanText(from: string, to: string): string {
  if (from === to) return formatDay(from, 'long');
  return from.slice(0, 4) === to.slice(0, 4)
    ? `${formatDay(from, 'short')} – ${formatDay(to, 'short')}, ${to.slice(0, 4)}`
    : `${formatDay(from, 'short')}, ${from.slice(0, 4)} – ${formatDay(to, 'short')}, ${to.slice(0, 4)}`;
}

/** Every day of the period, a day without reviews as 0 (the server lists the days it has). */
function everyDay(f: ReviewFigures): ReviewDay[] {
  const known = new Map(f.byDay.map((d) => [d.day, d]));
  const n = Math.min(Math.max(daysInPeriod(f.from, f.to), 0), 366);
  return Array.from({ length: n }, (_, i) => {
    const day = addDays(f.from, i);
    return known.get(day) ?? { day, count: 0, averageRating: 0 };
  });
}

const count = (n: number) => n.toLocaleString('en-US');
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');

/** Published reviews' average per product, most reviewed first. */
function ByProductTable({ rows }: { rows: ReviewFigures['byProduct'] }) {
  if (rows.length === 0)
    return <p className="rounded-lg border border-dashed border-stone-300 py-6 text-center text-stone-700">No published reviews yet.</p>;
  return (
    // Scrolls sideways on a narrow phone rather than widening the page; focusable for the keyboard.
    <div
      role="region"
      aria-label="Average rating by product"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-stone-200 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <table className="w-full border-collapse">
        <caption className="sr-only">Average rating by product, most reviewed first</caption>
        <thead className="bg-stone-50">
          <tr>
            <th scope="col" className={th}>
              Product
            </th>
            <th scope="col" className={`${th} text-right`}>
              Reviews
            </th>
            <th scope="col" className={`${th} text-right`}>
              Average
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.productId} className="border-t border-stone-200" data-testid="review-figures-product">
              <th scope="row" className={`${td} text-left font-normal`}>
                <a
                  href={paths.product(p.productId)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="break-words text-brand-700 underline-offset-2 hover:underline"
                >
                  {p.name}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </th>
              <td className={`${td} text-right tabular-nums`}>{count(p.count)}</td>
              <td className={`${td} text-right`}>
                <span className="inline-flex items-center justify-end gap-2 whitespace-nowrap">
                  <span className="max-sm:hidden">
                    <ReviewStars rating={Math.round(p.average)} size={14} />
                  </span>
                  <span className="tabular-nums">{p.average.toFixed(1)}</span>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The Reviews tab's Figures view. */
export function ReviewFiguresPanel() {
  const { period, choice, custom, pick, setCustom } = useFiguresPeriod();
  const { data, error, isPending, isFetching, refetch } = useReviewFigures(period);
  const [, setChartAttempt] = useState(0);
  // Fetch the chart's chunk alongside the data rather than after it.
  useEffect(() => {
    importChart().catch(() => undefined);
  }, []);

  let body: ReactNode;
  if (isPending) {
    body = (
      <FiguresSkeleton label="Loading the review figures" headlines={4} gridClassName="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Skeleton className="h-64" />
      </FiguresSkeleton>
    );
  } else if (error && !data) {
    body = <FiguresLoadError error={error} fallback="Failed to load the review figures" onRetry={() => void refetch()} busy={isFetching} />;
  } else {
    const days = everyDay(data);
    const average = data.averageRating;
    const span = spanText(data.from, data.to);
    const busiest = days.reduce((a, d) => (d.count > a.count ? d : a), days[0] ?? { day: data.from, count: 0, averageRating: 0 });
    const summary = `Reviews written per day, ${span}: ${count(data.total)} in total${busiest.count > 0 ? `; most on ${formatDay(busiest.day, 'short')} with ${count(busiest.count)}` : ''}.`;
    const { sent, reviewed } = data.requests;
    body = (
      <div className="flex flex-col gap-4" aria-busy={isFetching}>
        <p className="text-sm text-stone-700" data-testid="review-figures-period">
          {span}
        </p>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Headline
            label="Reviews written"
            value={count(data.total)}
            note="Every status: pending, published and hidden"
            testId="review-figures-total"
          />
          <Headline
            label="Average rating"
            value={data.total > 0 ? average.toFixed(1) : '—'}
            note="Of the reviews written in the period"
            testId="review-figures-average"
          />
          <Headline label="Request e-mails sent" value={count(sent)} testId="review-figures-sent" />
          <Headline
            label="Led to a review"
            value={sent > 0 ? `${count(reviewed)} (${percent(reviewed, sent)})` : count(reviewed)}
            note="Requests sent in the period whose customer wrote at least one review"
            testId="review-figures-reviewed"
          />
        </dl>
        {data.total === 0 ? (
          <p className="rounded-lg border border-dashed border-stone-300 py-8 text-center text-stone-700">
            No reviews were written in this period.
          </p>
        ) : (
          <ChartBoundary
            title="The chart could not be loaded"
            onRetry={() => {
              ReviewFiguresChart = loadChart();
              setChartAttempt((n) => n + 1);
            }}
          >
            <Suspense fallback={<Skeleton className="h-64" />}>
              <ReviewFiguresChart days={days} summary={summary} />
            </Suspense>
          </ChartBoundary>
        )}
        <section aria-labelledby="review-figures-products" className="flex min-w-0 flex-col gap-2">
          <h3 id="review-figures-products" className="text-base font-semibold text-stone-900">
            Average rating by product
          </h3>
          <p className="text-xs text-stone-700">Published reviews written in the period; the 20 most reviewed products first.</p>
          <ByProductTable rows={data.byProduct} />
        </section>
      </div>
    );
  }

  return (
    <Panel title="Review figures" actions={<PeriodSelect id="review-figures-choice" value={choice} presets={PRESETS} onPick={pick} />}>
      {choice === 'custom' && (
        <div className="mb-4">
          <CustomDates from={custom.from || (data?.from ?? '')} to={custom.to || (data?.to ?? '')} onApply={setCustom} />
        </div>
      )}
      {body}
    </Panel>
  );
}
