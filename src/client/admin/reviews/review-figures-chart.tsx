import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay } from '../../lib/format.js';
import { td, th } from '../components/admin-ui.js';

/*
 * The reviews-per-day chart, the tab's only import of recharts: review-figures.tsx loads it with
 * React.lazy, so the chart library stays in its own chunk, out of the queue's way.
 */

const BAR_COLOR = '#2f7d4a'; // brand-600, 5.1:1 on white
const GRID_COLOR = '#e7e5e4'; // stone-200
const TICK = { fill: '#57534e', fontSize: 12 }; // stone-600

export type ReviewDay = { day: string; count: number; averageRating: number };

const dayShort = (day: unknown) => (typeof day === 'string' ? formatDay(day, 'short') : String(day));
const dayLong = (day: unknown) => (typeof day === 'string' ? formatDay(day, 'long') : String(day));

function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * Reviews written per day as bars (every day of the period, none left out), summed up in the
 * image's label; the exact numbers, with each day's average rating, in a table anyone can open.
 */
export default function ReviewFiguresChart({ days, summary }: { days: ReviewDay[]; summary: string }) {
  const animate = !prefersReducedMotion();
  const written = days.filter((d) => d.count > 0);
  return (
    <figure className="min-w-0 rounded-lg border border-stone-200 p-3">
      <figcaption className="mb-2 text-sm font-semibold text-stone-900">Reviews written per day</figcaption>
      <div className="h-56 w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%" minWidth={0}>
          <BarChart
            data={days}
            role="img"
            aria-label={summary}
            accessibilityLayer={false}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          >
            <CartesianGrid vertical={false} stroke={GRID_COLOR} />
            <XAxis dataKey="day" tickFormatter={dayShort} tick={TICK} tickLine={false} minTickGap={16} />
            <YAxis allowDecimals={false} tick={TICK} tickLine={false} axisLine={false} width={40} />
            <Tooltip
              cursor={{ fill: '#f5f5f4' }}
              labelFormatter={dayLong}
              formatter={(value) => [Number(value ?? 0).toLocaleString('en-US'), 'Reviews']}
            />
            <Bar dataKey="count" name="Reviews" fill={BAR_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={animate} />
          </BarChart>
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
          aria-label="Reviews written per day: numbers"
          className="mt-2 max-h-72 overflow-y-auto rounded focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          {written.length === 0 ? (
            <p className="py-2 text-stone-700">No reviews were written in this period.</p>
          ) : (
            <table className="w-full border-collapse">
              <caption className="sr-only">Reviews written per day (days with none left out)</caption>
              <thead className="bg-stone-50">
                <tr>
                  <th scope="col" className={th}>
                    Day
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Reviews
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Average rating
                  </th>
                </tr>
              </thead>
              <tbody>
                {written.map((d) => (
                  <tr key={d.day} className="border-t border-stone-200">
                    <th scope="row" className={`${td} whitespace-nowrap text-left font-normal`}>
                      {dayLong(d.day)}
                    </th>
                    <td className={`${td} text-right tabular-nums`}>{d.count.toLocaleString('en-US')}</td>
                    <td className={`${td} text-right tabular-nums`}>{d.averageRating.toFixed(1)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </details>
    </figure>
  );
}
