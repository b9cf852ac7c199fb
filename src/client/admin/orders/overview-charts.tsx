import { type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Line, LineChart, Rectangle, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCents } from '../../../shared/money.js';
import { formatDay } from '../../lib/format.js';
import type { OrdersOverview } from '../api/admin-schemas.js';
import { td, th } from '../components/admin-ui.js';
import { STATUS_CHART_COLORS } from './status-badge.js';

/*
 * The only module that imports recharts: orders-overview.tsx loads it with React.lazy, so the chart
 * library stays in its own chunk, out of the storefront and out of the order table's way.
 */

const REVENUE_COLOR = '#2f7d4a'; // brand-600, 5.1:1 on white
const ORDERS_COLOR = '#1d4ed8'; // blue-700
const GRID_COLOR = '#e7e5e4'; // stone-200
const TICK = { fill: '#57534e', fontSize: 12 }; // stone-600

const dayShort = (date: unknown) => (typeof date === 'string' ? formatDay(date, 'short') : String(date));
const dayLong = (date: unknown) => (typeof date === 'string' ? formatDay(date, 'long') : String(date));
/** Whole dollars for the axis ("$1,250"); the tooltip and tables keep the cents. */
const axisMoney = (cents: number) => formatCents(Math.round(cents / 100) * 100).replace(/\.00$/, '');
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * What makes a chart accessible: its SVG is one image whose label sums it up. Recharts' keyboard
 * layer is off (it would make the SVG a focusable "application"); the exact numbers are in the
 * figure's table instead, which anyone can open.
 */
const chartA11y = (summary: string) => ({ role: 'img', 'aria-label': summary, accessibilityLayer: false }) as const;

/** One chart: a figure named by its caption, the drawing, and its numbers as a table. */
function ChartFigure({
  caption,
  heightClass,
  chart,
  table,
  className = '',
}: {
  caption: string;
  heightClass: string;
  chart: ReactNode;
  table: ReactNode;
  className?: string;
}) {
  return (
    <figure className={`min-w-0 rounded-lg border border-stone-200 p-3 ${className}`}>
      <figcaption className="mb-2 text-sm font-semibold text-stone-900">{caption}</figcaption>
      <div className={`w-full min-w-0 ${heightClass}`}>
        <ResponsiveContainer width="100%" height="100%" minWidth={0}>
          {chart}
        </ResponsiveContainer>
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer rounded text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2">
          Show the numbers
        </summary>
        {/* Scrolls when long, so it takes focus for keyboard scrolling. */}
        <div
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          role="region"
          aria-label={`${caption}: numbers`}
          className="mt-2 max-h-72 overflow-y-auto rounded focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          {table}
        </div>
      </details>
    </figure>
  );
}

function DataTable({ caption, head, rows }: { caption: string; head: [string, string]; rows: [string, string][] }) {
  return (
    <table className="w-full border-collapse">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-stone-50">
        <tr>
          <th scope="col" className={th}>
            {head[0]}
          </th>
          <th scope="col" className={`${th} text-right`}>
            {head[1]}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([a, b]) => (
          <tr key={a} className="border-t border-stone-200">
            <th scope="row" className={`${td} text-left font-normal`}>
              {a}
            </th>
            <td className={`${td} text-right tabular-nums`}>{b}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function OverviewCharts({ data }: { data: OrdersOverview }) {
  const animate = !prefersReducedMotion();
  const { days, byStatus, totals } = data;
  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  const span = `${dayShort(first)} to ${dayShort(last)}`;
  const best = days.reduce((a, d) => (d.revenueCents > a.revenueCents ? d : a), days[0]!);
  const busiest = days.reduce((a, d) => (d.orders > a.orders ? d : a), days[0]!);
  const statuses = byStatus.map((s) => ({ ...s, color: STATUS_CHART_COLORS[s.status] }));
  const statusText = statuses.map((s) => `${s.count} ${s.status}`).join(', ');

  const revenueSummary = `Revenue per day, ${span}: ${formatCents(totals.revenueCents)} in total; highest ${formatCents(best.revenueCents)} on ${dayShort(best.date)}.`;
  const ordersSummary = `Orders per day, ${span}: ${plural(totals.orders, 'order')} in total; busiest day ${dayShort(busiest.date)} with ${plural(busiest.orders, 'order')}.`;
  const statusSummary = `Orders by status, ${span}: ${statusText}.`;

  const dayAxis = <XAxis dataKey="date" tickFormatter={dayShort} tick={TICK} tickLine={false} minTickGap={16} />;
  const tooltipLabel = (label: ReactNode) => dayLong(label);

  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-2">
      <ChartFigure
        caption="Revenue per day (money received, net of refunds)"
        heightClass="h-56"
        chart={
          <BarChart data={days} {...chartA11y(revenueSummary)} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke={GRID_COLOR} />
            {dayAxis}
            <YAxis tickFormatter={axisMoney} tick={TICK} tickLine={false} axisLine={false} width={64} />
            <Tooltip
              cursor={{ fill: '#f5f5f4' }}
              labelFormatter={tooltipLabel}
              formatter={(value) => [formatCents(Number(value ?? 0)), 'Revenue']}
            />
            <Bar dataKey="revenueCents" name="Revenue" fill={REVENUE_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={animate} />
          </BarChart>
        }
        table={
          <DataTable
            caption="Revenue per day"
            head={['Day', 'Revenue']}
            rows={days.map((d) => [dayLong(d.date), formatCents(d.revenueCents)])}
          />
        }
      />
      <ChartFigure
        caption="Orders per day"
        heightClass="h-56"
        chart={
          <LineChart data={days} {...chartA11y(ordersSummary)} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke={GRID_COLOR} />
            {dayAxis}
            <YAxis allowDecimals={false} tick={TICK} tickLine={false} axisLine={false} width={40} />
            <Tooltip labelFormatter={tooltipLabel} formatter={(value) => [Number(value ?? 0).toLocaleString('en-US'), 'Orders']} />
            <Line
              type="linear"
              dataKey="orders"
              name="Orders"
              stroke={ORDERS_COLOR}
              strokeWidth={2}
              dot={{ r: 2 }}
              activeDot={{ r: 4 }}
              isAnimationActive={animate}
            />
          </LineChart>
        }
        table={
          <DataTable
            caption="Orders per day"
            head={['Day', 'Orders']}
            rows={days.map((d) => [dayLong(d.date), d.orders.toLocaleString('en-US')])}
          />
        }
      />
      <ChartFigure
        className="lg:col-span-2"
        caption="Orders by status"
        heightClass="h-52"
        chart={
          <BarChart data={statuses} layout="vertical" {...chartA11y(statusSummary)} margin={{ top: 0, right: 32, bottom: 0, left: 0 }}>
            <CartesianGrid horizontal={false} stroke={GRID_COLOR} />
            <XAxis type="number" allowDecimals={false} tick={TICK} tickLine={false} />
            <YAxis
              type="category"
              dataKey="status"
              tick={TICK}
              tickLine={false}
              axisLine={false}
              width={84}
              tickFormatter={(s: string) => s.charAt(0).toUpperCase() + s.slice(1)}
            />
            <Tooltip cursor={{ fill: '#f5f5f4' }} formatter={(value) => [Number(value ?? 0).toLocaleString('en-US'), 'Orders']} />
            <Bar
              dataKey="count"
              name="Orders"
              isAnimationActive={animate}
              shape={(props) => (
                <Rectangle
                  {...props}
                  fill={(props.payload as { color?: string } | undefined)?.color ?? REVENUE_COLOR}
                  radius={[0, 3, 3, 0]}
                />
              )}
            >
              <LabelList dataKey="count" position="right" fill="#292524" fontSize={12} />
            </Bar>
          </BarChart>
        }
        table={
          <DataTable
            caption="Orders by status"
            head={['Status', 'Orders']}
            rows={statuses.map((s) => [s.status.charAt(0).toUpperCase() + s.status.slice(1), s.count.toLocaleString('en-US')])}
          />
        }
      />
    </div>
  );
}
