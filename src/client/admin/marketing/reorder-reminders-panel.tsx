import { useId } from 'react';
import { REORDER_LIMITS, REORDER_SKIP_WORDS, type AdminReorderReminderRow } from '../../../shared/schemas/reorder-reminders.js';
import { formatCents } from '../../../shared/money.js';
import { formatDateTime } from '../../lib/format.js';
import { DataTable, ListState, Panel, type Column } from '../components/admin-ui.js';
import { Headline } from '../components/figures.js';
import { useReorderReminders } from './get-reorder-reminders.js';
import { FollowedOrder, OrderLink, PresetPeriodSelect, rate, usePresetPeriod } from './marketing-ui.js';

/*
 * The owner's reorder reminders (issue [7/8] item 4): for a period, the reminders e-mailed to
 * one-time buyers of refills, the lines not e-mailed by reason, the orders that followed (the same
 * product by the same address within 30 days of a reminder) and their money, and the last
 * decisions. The period lives in the address (`rrmPeriod`), so reload and Back keep it.
 */

function Outcome({ row }: { row: AdminReorderReminderRow }) {
  if (row.state === 'skipped') {
    return (
      <span className="inline-flex flex-col items-start gap-0.5 max-md:items-end">
        <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-800">Not sent</span>
        {row.reason && <span className="text-xs text-stone-600">{REORDER_SKIP_WORDS[row.reason]}</span>}
      </span>
    );
  }
  return (
    <span className="inline-flex flex-col items-start gap-0.5 max-md:items-end">
      <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900">E-mailed</span>
      {row.clickedAt && <span className="text-xs text-stone-600">Link used {formatDateTime(row.clickedAt)}</span>}
    </span>
  );
}

const COLUMNS: Column<AdminReorderReminderRow>[] = [
  {
    header: 'Decided',
    primary: true,
    cell: (r) => (
      <span className="flex flex-col">
        <span className="font-medium text-stone-900">{r.productName}</span>
        <span className="text-xs text-stone-600">{formatDateTime(r.createdAt)}</span>
      </span>
    ),
  },
  { header: 'Customer', cell: (r) => <span className="break-all">{r.email || '—'}</span> },
  {
    header: 'Bought in',
    cell: (r) => <OrderLink id={r.orderId} number={r.orderNumber} />,
  },
  { header: 'Outcome', cell: (r) => <Outcome row={r} /> },
  {
    header: 'Order that followed',
    cell: (r) => <FollowedOrder id={r.followedOrderId} number={r.followedOrderNumber} cents={r.followedCents} />,
  },
];

/** Reorder reminders: figures and the last decisions, for the Marketing tab. */
export function ReorderRemindersPanel() {
  const { preset, from, to, pick } = usePresetPeriod('rrmPeriod');
  const { data, error, isPending, isFetching, refetch } = useReorderReminders({ from, to });
  const periodId = useId();
  const skippedTotal = data?.skipped.reduce((n, s) => n + s.count, 0) ?? 0;
  return (
    <Panel title="Reorder reminders">
      <p className="mb-4 max-w-3xl text-sm text-stone-700">
        A customer who bought a product with a reorder period once (set on the product: “Reminder to reorder after”), and said yes to offers
        and reminders, gets one e-mail when it is due, to reorder in one click or subscribe and save. None goes when they ordered it again
        or subscribed. An order followed when the same address ordered the product within {REORDER_LIMITS.linkDays} days of the reminder.
      </p>
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <PresetPeriodSelect value={preset} onPick={pick} />
      </div>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading reorder reminders"
      >
        {data && (
          <div className="flex flex-col gap-6" aria-busy={isFetching}>
            <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Reorder reminder figures">
              <Headline
                label="Reminders sent"
                value={data.sent}
                note={`${data.emails} e-mail${data.emails === 1 ? '' : 's'}`}
                testId="rrm-sent"
              />
              <Headline
                label="Link used"
                value={data.clicked}
                note={`${rate(data.clicked, data.emails)} of the e-mails`}
                testId="rrm-clicked"
              />
              <Headline
                label="Orders that followed"
                value={data.followedOrders}
                note={`Within ${REORDER_LIMITS.linkDays} days of a reminder`}
                testId="rrm-followed"
              />
              <Headline
                label="Their revenue"
                value={formatCents(data.followedRevenueCents)}
                note="Received, net of refunds"
                testId="rrm-revenue"
              />
            </dl>
            <section aria-labelledby={`${periodId}-skipped`} className="flex min-w-0 flex-col gap-2">
              <h3 id={`${periodId}-skipped`} className="text-base font-semibold text-stone-900">
                Not sent ({skippedTotal})
              </h3>
              {data.skipped.length === 0 ? (
                <p className="text-sm text-stone-700">Every reminder due in this period was sent.</p>
              ) : (
                <ul className="flex flex-wrap gap-2" data-testid="rrm-skipped">
                  {data.skipped.map((s) => (
                    <li key={s.reason} className="rounded-full border border-stone-200 bg-stone-50 px-3 py-1 text-sm text-stone-800">
                      {REORDER_SKIP_WORDS[s.reason]}: <span className="font-semibold tabular-nums">{s.count}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby={`${periodId}-last`} className="flex min-w-0 flex-col gap-2">
              <h3 id={`${periodId}-last`} className="text-base font-semibold text-stone-900">
                Last {REORDER_LIMITS.lastRows} reminders
              </h3>
              {data.last.length === 0 ? (
                <p className="rounded-lg border border-dashed border-stone-300 px-4 py-10 text-center text-stone-700">
                  No reminders were due in this period. Give refills a reorder period in Products (Edit → Reminder to reorder after) to
                  start.
                </p>
              ) : (
                <DataTable
                  caption="Last reorder reminders"
                  rows={data.last}
                  rowKey={(r) => r.id}
                  columns={COLUMNS}
                  busy={isFetching}
                  dense
                />
              )}
            </section>
          </div>
        )}
      </ListState>
    </Panel>
  );
}

export default ReorderRemindersPanel;
