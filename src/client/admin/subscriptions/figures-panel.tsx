import '../../lib/zod-config.js';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money.js';
import {
  FIGURES_PERIODS,
  FiguresPeriodInput,
  RETENTION_MONTHS,
  SUBSCRIPTION_FIGURES_MESSAGES as TEXT,
  type FiguresBucket,
  type FiguresCsvName,
  type FiguresPeriod,
  type RetentionRow,
  type SubscriptionFigures,
} from '../../../shared/schemas/admin/subscription-figures.js';
import { PeriodDates } from '../components/period-dates.js';
import { Skeleton } from '../../ui/skeleton.js';
import { ListState, Panel, th } from '../components/admin-ui.js';
import { SubTabs } from '../components/sub-tabs.js';
import { FiguresSkeleton, Headline, PeriodSelect } from '../components/figures.js';
import { withParams } from '../components/search-params.js';
import { figuresCsvUrl, useFigures, type FiguresRequest } from './get-figures.js';

/*
 * The owner's subscription Figures (issue [5/8]): subscribers now, then for a period of the shop's
 * days cut by day, week or month: revenue, new, paused and cancelled, the reasons given and
 * retention by month of signing up, each with its CSV. The period, the cut and the table shown live
 * in the address (`figRange`, `figFrom`, `figTo`, `figBy`, `figView`), so reload and Back keep them.
 */

const RANGES = [
  { id: '30', label: 'Last 30 days', days: 30, by: 'day' },
  { id: '90', label: 'Last 90 days', days: 90, by: 'week' },
  { id: '365', label: 'Last 12 months', days: null, by: 'month' },
] as const;
// 90 days by week first: recent enough to act on, and quick however long the shop has sold subscriptions.
const DEFAULT_RANGE = '90';
const BY_TEXT: Record<FiguresPeriod, string> = { day: 'Day', week: 'Week', month: 'Month' };

const VIEWS = [
  { id: 'revenue', label: 'Revenue' },
  { id: 'movements', label: 'New, paused, cancelled' },
  { id: 'reasons', label: 'Cancellation reasons' },
  { id: 'retention', label: 'Retention' },
] as const satisfies readonly { id: FiguresCsvName; label: string }[];
type View = (typeof VIEWS)[number]['id'];

const PARAM = { range: 'figRange', from: 'figFrom', to: 'figTo', by: 'figBy', view: 'figView' } as const;

function useFiguresState() {
  const [params, setParams] = useSearchParams();
  const rangeParam = params.get(PARAM.range) ?? DEFAULT_RANGE;
  const preset = RANGES.find((r) => r.id === rangeParam);
  const custom = { from: params.get(PARAM.from) ?? '', to: params.get(PARAM.to) ?? '' };
  const customOk = rangeParam === 'custom' && custom.from !== '' && FiguresPeriodInput.safeParse(custom).success;
  const byParam = params.get(PARAM.by);
  const by: FiguresPeriod = (FIGURES_PERIODS as readonly string[]).includes(byParam ?? '')
    ? (byParam as FiguresPeriod)
    : (preset?.by ?? 'month');
  const viewParam = params.get(PARAM.view);
  const view: View = VIEWS.find((v) => v.id === viewParam)?.id ?? 'revenue';
  // No dates and no days: the server's default, the last 12 months (this one included) to today.
  const request: FiguresRequest = customOk
    ? { from: custom.from, to: custom.to, period: by }
    : preset?.days
      ? { days: preset.days, period: by }
      : { period: by };
  const set = (changes: Partial<Record<keyof typeof PARAM, string | null>>) =>
    setParams(withParams(params, PARAM, changes), { replace: true });
  return {
    request,
    choice: rangeParam === 'custom' ? 'custom' : (preset?.id ?? DEFAULT_RANGE),
    custom,
    by,
    view,
    pickRange: (id: string) => {
      const r = RANGES.find((x) => x.id === id);
      // A preset brings its usual cut (days by day, 90 days by week, a year by month); the owner may change it after.
      if (r) set({ range: r.id === DEFAULT_RANGE ? null : r.id, from: null, to: null, by: null });
      else set({ range: 'custom' });
    },
    setCustom: (p: { from: string; to: string }) => set({ range: 'custom', from: p.from, to: p.to }),
    setBy: (value: FiguresPeriod) => set({ by: value }),
    setView: (value: View) => set({ view: value === 'revenue' ? null : value }),
  };
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const at = (day: string) => new Date(`${day}T00:00:00Z`);
const lastOfMonth = (day: string) => new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).getUTCDate();

/** "Nov 3 – Nov 29, 2026" (the year once when both ends share it). */
function spanText(from: string, to: string): string {
  if (from === to) return dayFormat.format(at(from));
  return from.slice(0, 4) === to.slice(0, 4)
    ? `${shortDayFormat.format(at(from))} – ${dayFormat.format(at(to))}`
    : `${dayFormat.format(at(from))} – ${dayFormat.format(at(to))}`;
}

/** A row's period: "Nov 3, 2026", "Nov 2 – Nov 8, 2026", "Nov 2026" (a month cut short by the span shows its days). */
function bucketText(b: Pick<FiguresBucket, 'start' | 'end'>, period: FiguresPeriod): string {
  if (period === 'month' && b.start.endsWith('-01') && Number(b.end.slice(8)) === lastOfMonth(b.end))
    return monthFormat.format(at(b.start));
  return spanText(b.start, b.end);
}

const count = (n: number) => n.toLocaleString('en-US');
const moneyCls = (cents: number) => `tabular-nums ${cents < 0 ? 'text-red-700' : ''}`;

const csvLinkCls =
  'inline-flex h-10 items-center justify-center whitespace-nowrap rounded-md border border-brand-600 bg-white px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2';
const selectCls = 'h-10 rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-900';
const cellCls = 'whitespace-nowrap px-3 py-2 text-sm text-stone-800';
const stickyCls = 'sticky left-0 z-10';

/** The custom period: both dates, checked by the schema the server uses. */
function CustomDates(props: { from: string; to: string; onApply: (p: { from: string; to: string }) => void }) {
  return <PeriodDates {...props} schema={FiguresPeriodInput} idPrefix="figures-period" />;
}

/**
 * A figure's table: scrolls inside its own box both ways (a phone keeps the page still), with the
 * heading row and the first column pinned; the box takes the keyboard's focus so it can be scrolled.
 * It is positioned, so a visually hidden text in a cell stays inside it rather than widening the page.
 */
function FiguresTable({ caption, head, children, foot }: { caption: string; head: ReactNode; children: ReactNode; foot?: ReactNode }) {
  return (
    // Scrolls, so it takes focus for keyboard scrolling (WCAG 2.1.1).
    <div
      role="region"
      aria-label={caption}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="relative max-h-[28rem] overflow-auto rounded-lg border border-stone-200 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <table className="w-full border-collapse">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 z-20 bg-stone-50">{head}</thead>
        <tbody>{children}</tbody>
        {foot && <tfoot className="border-t-2 border-stone-300 bg-stone-50 font-semibold">{foot}</tfoot>}
      </table>
    </div>
  );
}

function Th({ children, numeric, first }: { children: ReactNode; numeric?: boolean; first?: boolean }) {
  return (
    <th scope="col" className={`${th}${numeric ? ' text-right' : ''}${first ? ` ${stickyCls} bg-stone-50` : ''}`}>
      {children}
    </th>
  );
}

function RowHead({ children, foot }: { children: ReactNode; foot?: boolean }) {
  return (
    <th scope="row" className={`${cellCls} ${stickyCls} text-left font-medium ${foot ? 'bg-stone-50' : 'bg-white'}`}>
      {children}
    </th>
  );
}

function Num({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <td className={`${cellCls} text-right tabular-nums ${className}`}>{children}</td>;
}

function RevenueTable({ f }: { f: SubscriptionFigures }) {
  return (
    <FiguresTable
      caption="Subscription revenue by period"
      head={
        <tr>
          <Th first>Period</Th>
          <Th numeric>Renewals</Th>
          <Th numeric>First orders</Th>
          <Th numeric>Revenue</Th>
        </tr>
      }
      foot={
        <tr>
          <RowHead foot>Total</RowHead>
          <Num className={moneyCls(f.totals.renewalCents)}>{formatCents(f.totals.renewalCents)}</Num>
          <Num className={moneyCls(f.totals.firstOrderCents)}>{formatCents(f.totals.firstOrderCents)}</Num>
          <Num className={moneyCls(f.totals.revenueCents)}>{formatCents(f.totals.revenueCents)}</Num>
        </tr>
      }
    >
      {f.buckets.map((b) => (
        <tr key={b.start} className="border-t border-stone-200" data-testid="figures-revenue-row">
          <RowHead>{bucketText(b, f.period)}</RowHead>
          <Num className={moneyCls(b.renewalCents)}>{formatCents(b.renewalCents)}</Num>
          <Num className={moneyCls(b.firstOrderCents)}>{formatCents(b.firstOrderCents)}</Num>
          <Num className={`font-medium ${moneyCls(b.revenueCents)}`}>{formatCents(b.revenueCents)}</Num>
        </tr>
      ))}
    </FiguresTable>
  );
}

function MovementsTable({ f }: { f: SubscriptionFigures }) {
  return (
    <FiguresTable
      caption="New, paused and cancelled subscriptions by period"
      head={
        <tr>
          <Th first>Period</Th>
          <Th numeric>New</Th>
          <Th numeric>Paused</Th>
          <Th numeric>Cancelled</Th>
          <Th numeric>Subscribed at the end</Th>
        </tr>
      }
      foot={
        <tr>
          <RowHead foot>Total</RowHead>
          <Num>{count(f.totals.started)}</Num>
          <Num>{count(f.totals.paused)}</Num>
          <Num>{count(f.totals.cancelled)}</Num>
          <Num>{count(f.buckets.at(-1)?.subscribedAtEnd ?? 0)}</Num>
        </tr>
      }
    >
      {f.buckets.map((b) => (
        <tr key={b.start} className="border-t border-stone-200">
          <RowHead>{bucketText(b, f.period)}</RowHead>
          <Num>{count(b.started)}</Num>
          <Num>{count(b.paused)}</Num>
          <Num>{count(b.cancelled)}</Num>
          <Num>{count(b.subscribedAtEnd)}</Num>
        </tr>
      ))}
    </FiguresTable>
  );
}

function ReasonsTable({ f }: { f: SubscriptionFigures }) {
  const total = f.totals.cancelled;
  if (total === 0)
    return <p className="rounded-lg border border-dashed border-stone-300 py-8 text-center text-stone-700">{TEXT.noCancellations}</p>;
  const share = (n: number) => `${Math.round((1000 * n) / total) / 10}%`;
  return (
    <FiguresTable
      caption="Cancellation reasons"
      head={
        <tr>
          <Th first>Reason</Th>
          <Th numeric>Cancellations</Th>
          <Th numeric>Share</Th>
        </tr>
      }
    >
      {f.reasons.map((r) => (
        <tr key={r.reason} className="border-t border-stone-200">
          <th
            scope="row"
            className={`${cellCls} ${stickyCls} min-w-40 max-w-md bg-white text-left font-medium whitespace-normal break-words`}
          >
            {r.reason}
          </th>
          <Num>{count(r.count)}</Num>
          <Num>{share(r.count)}</Num>
        </tr>
      ))}
      {f.otherReasons && (
        <tr className="border-t border-stone-200">
          <RowHead>Other reasons ({count(f.otherReasons.kinds)} more, in the CSV)</RowHead>
          <Num>{count(f.otherReasons.count)}</Num>
          <Num>{share(f.otherReasons.count)}</Num>
        </tr>
      )}
    </FiguresTable>
  );
}

/** A retention cell's shade: the more still subscribed, the greener (the text stays dark on every shade). */
function shade(percent: number): string {
  if (percent >= 90) return 'bg-brand-200';
  if (percent >= 75) return 'bg-brand-100';
  if (percent >= 50) return 'bg-brand-50';
  return 'bg-amber-50';
}

function RetentionTable({ f }: { f: SubscriptionFigures }) {
  const months = Array.from({ length: RETENTION_MONTHS }, (_, k) => k);
  const monthName = (m: string) => monthFormat.format(at(`${m}-01`));
  const cell = (r: RetentionRow, k: number) => {
    const c = r.cells[k];
    if (r.signedUp === 0)
      return (
        <Num key={k} className="text-stone-600">
          —
        </Num>
      );
    if (!c)
      return (
        <td key={k} className={cellCls}>
          <span className="sr-only">not yet</span>
        </td>
      );
    return (
      <td key={k} className={`${cellCls} text-right tabular-nums ${shade(c.percent)}`}>
        <span className="block font-medium text-stone-900">{c.percent}%</span>
        <span className="block text-xs text-stone-700">{count(c.still)}</span>
      </td>
    );
  };
  return (
    <FiguresTable
      caption="Retention by month of signing up"
      head={
        <tr>
          <Th first>Signed up</Th>
          <Th numeric>Subscribers</Th>
          {months.map((k) => (
            <Th key={k} numeric>
              {k === 0 ? 'Month 0' : `+${k}`}
            </Th>
          ))}
        </tr>
      }
    >
      {f.retention.map((r) => (
        <tr key={r.month} className="border-t border-stone-200" data-testid="figures-retention-row">
          <RowHead>{monthName(r.month)}</RowHead>
          <Num>{count(r.signedUp)}</Num>
          {months.map((k) => cell(r, k))}
        </tr>
      ))}
    </FiguresTable>
  );
}

function SubscriptionFiguresSkeleton() {
  return (
    <FiguresSkeleton label="Loading the subscription figures" headlines={5} gridClassName="grid grid-cols-2 gap-3 lg:grid-cols-5">
      <Skeleton className="h-10 w-72 max-w-full" />
      <Skeleton className="h-48" />
    </FiguresSkeleton>
  );
}

const VIEW_HINT: Record<View, string> = {
  revenue: TEXT.revenueHint,
  movements: TEXT.movementsHint,
  reasons:
    'The reasons customers (or you, cancelling for them) gave, in the period, as typed: spaces round them and capitals do not count.',
  retention: TEXT.retentionHint,
};

/** The Figures of the owner's Subscriptions tab. */
export function FiguresPanel() {
  const { request, choice, custom, by, view, pickRange, setCustom, setBy, setView } = useFiguresState();
  const { data, error, isPending, isFetching, refetch } = useFigures(request);

  const controls = (
    <div className="flex flex-wrap items-center gap-3">
      <PeriodSelect id="figures-range" value={choice} presets={RANGES} onPick={pickRange} className={selectCls} />
      <div className="flex items-center gap-2">
        <label htmlFor="figures-by" className="text-sm font-medium text-stone-900">
          By
        </label>
        <select id="figures-by" value={by} onChange={(e) => setBy(e.target.value as FiguresPeriod)} className={selectCls}>
          {FIGURES_PERIODS.map((p) => (
            <option key={p} value={p}>
              {BY_TEXT[p]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );

  let body: ReactNode;
  if (isPending) body = <SubscriptionFiguresSkeleton />;
  else if (!data || !data.anySubscriptions)
    body = (
      <ListState
        isPending={false}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        isEmpty
        empty={
          <div className="flex flex-col items-center gap-1" data-testid="figures-empty">
            <p className="font-medium text-stone-900">{TEXT.empty}</p>
            <p className="text-sm">{TEXT.emptyHint}</p>
          </div>
        }
      >
        {null}
      </ListState>
    );
  else {
    const f = data;
    const span = spanText(f.from, f.to);
    body = (
      <div className="flex min-w-0 flex-col gap-4" aria-busy={isFetching}>
        <p className="text-sm text-stone-700" data-testid="figures-period">
          {span}{' '}
          <span className="text-stone-600">
            (days in {f.timeZone.replace(/_/g, ' ')}, by {f.period})
          </span>
        </p>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <Headline
            label="Active subscribers"
            value={count(f.now.activeSubscribers)}
            note={f.now.paymentFailing ? `${count(f.now.paymentFailing)} with a failing card` : undefined}
            testId="figures-active"
          />
          <Headline label="Paused now" value={count(f.now.paused)} testId="figures-paused" />
          <Headline label="Subscription revenue" value={formatCents(f.totals.revenueCents)} testId="figures-revenue" />
          <Headline label="New" value={count(f.totals.started)} testId="figures-new" />
          <Headline label="Cancelled" value={count(f.totals.cancelled)} testId="figures-cancelled" />
        </dl>
        <SubTabs label="Figures" tabs={VIEWS} selected={view} onSelect={setView}>
          <div className="flex min-w-0 flex-col gap-3">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <p className="max-w-3xl text-sm text-stone-700">{VIEW_HINT[view]}</p>
              <a href={figuresCsvUrl(view, f)} download className={csvLinkCls}>
                Download CSV
                <span className="sr-only">
                  , {VIEWS.find((v) => v.id === view)!.label.toLowerCase()}, {span}
                </span>
              </a>
            </div>
            {view === 'revenue' && <RevenueTable f={f} />}
            {view === 'movements' && <MovementsTable f={f} />}
            {view === 'reasons' && <ReasonsTable f={f} />}
            {view === 'retention' && <RetentionTable f={f} />}
          </div>
        </SubTabs>
      </div>
    );
  }

  return (
    <Panel title="Figures" actions={controls}>
      {choice === 'custom' && (
        <div className="mb-4">
          <CustomDates from={custom.from || (data?.from ?? '')} to={custom.to || (data?.to ?? '')} onApply={setCustom} />
        </div>
      )}
      {body}
    </Panel>
  );
}
