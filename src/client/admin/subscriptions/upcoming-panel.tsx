import { RowsSkeleton } from '../components/paged-list.js';
import { DataTable, ListState, Panel, type Column } from '../components/admin-ui.js';
import { UPCOMING_CSV_URL, useUpcoming } from './get-upcoming.js';
import { UPCOMING_MESSAGES, type AdminUpcomingRow } from './subscription-schemas.js';

const WINDOWS = [
  { days: 7, units: 'units7', short: 'shortfall7' },
  { days: 30, units: 'units30', short: 'shortfall30' },
  { days: 90, units: 'units90', short: 'shortfall90' },
] as const;

const csvLinkCls =
  'inline-flex h-10 items-center justify-center whitespace-nowrap rounded-md border border-brand-600 bg-white px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2';

/** A window's units, in red when the stock will not cover them. */
function Units({ row, window }: { row: AdminUpcomingRow; window: (typeof WINDOWS)[number] }) {
  const short = row[window.short] > 0;
  return <span className={short ? 'font-semibold text-red-700' : undefined}>{row[window.units]}</span>;
}

/** Each window the stock falls short in, with by how much; a dash when none. */
function ShortBy({ row }: { row: AdminUpcomingRow }) {
  const short = WINDOWS.filter((w) => row[w.short] > 0);
  if (short.length === 0) return <span className="text-stone-600">—</span>;
  return (
    <ul className="flex flex-col font-semibold text-red-700 max-md:items-end" data-testid="upcoming-short">
      {short.map((w) => (
        <li key={w.days} className="whitespace-nowrap">
          {row[w.short]} in {w.days} days
        </li>
      ))}
    </ul>
  );
}

const columns: Column<AdminUpcomingRow>[] = [
  { header: 'Product', primary: true, className: 'md:min-w-52 font-medium', cell: (r) => r.name },
  { header: 'SKU', className: 'md:whitespace-nowrap', cell: (r) => r.sku ?? <span className="text-stone-600">—</span> },
  ...WINDOWS.map((w): Column<AdminUpcomingRow> => ({
    header: `Next ${w.days} days`,
    numeric: true,
    cell: (r) => <Units row={r} window={w} />,
  })),
  { header: 'In stock', numeric: true, cell: (r) => r.available },
  { header: 'Short by', className: 'md:whitespace-nowrap', cell: (r) => <ShortBy row={r} /> },
];

function UpcomingSkeleton() {
  return (
    <RowsSkeleton
      label="Loading upcoming deliveries"
      rows={3}
      inline
      bars={['h-4 w-56 max-w-full', 'h-4 w-24', 'h-4 w-12', 'h-4 w-12', 'h-4 w-12', 'h-4 w-16']}
    />
  );
}

/**
 * "Upcoming" (issue [5/8]): the units the schedule will renew of each variant in the next 7, 30
 * and 90 days against what is in stock (on hand less open checkouts' holds), the shortest first,
 * so the owner orders stock in time; the same rows as CSV.
 */
export function UpcomingPanel() {
  const { data, error, isPending, refetch } = useUpcoming();
  const shortRows = data?.rows.filter((r) => r.shortfall90 > 0).length ?? 0;
  return (
    <Panel
      title="Upcoming"
      actions={
        <a href={UPCOMING_CSV_URL} download className={csvLinkCls}>
          Download CSV
        </a>
      }
    >
      {isPending ? (
        <UpcomingSkeleton />
      ) : (
        <ListState
          isPending={false}
          error={error && !data ? error : null}
          onRetry={() => void refetch()}
          isEmpty={data?.rows.length === 0}
          empty={<p>{UPCOMING_MESSAGES.empty}</p>}
        >
          {data && (
            <>
              <p className="mb-1 text-sm text-stone-700">
                Units the subscriptions will renew, against what is in stock now (on hand less what open checkouts hold).
              </p>
              <p
                className={`mb-3 text-sm font-semibold ${shortRows ? 'text-red-700' : 'text-green-800'}`}
                data-testid="upcoming-summary"
                aria-live="polite"
              >
                {shortRows === 0
                  ? UPCOMING_MESSAGES.enough
                  : `${shortRows === 1 ? '1 product runs' : `${shortRows} products run`} short within 90 days`}
              </p>
              <DataTable caption="Upcoming deliveries" rows={data.rows} rowKey={(r) => r.variantId} columns={columns} dense />
            </>
          )}
        </ListState>
      )}
    </Panel>
  );
}
