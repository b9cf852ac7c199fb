import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { RECOVERY_REASON_WORDS, RECOVERY_STATE_LABELS, RECOVERY_STATES, type RecoveryState } from '../../../shared/recovery.js';
import { formatCents } from '../../../shared/money.js';
import { formatDateTime } from '../../lib/format.js';
import { DataTable, ListState, PageNav, Panel, type Column } from '../components/admin-ui.js';
import { Headline } from '../components/figures.js';
import { withParams } from '../components/search-params.js';
import { useRecoveries, type RecoveryRow } from './marketing-api.js';
import { FollowedOrder, OrderLink, PresetPeriodSelect, rate, usePresetPeriod } from './marketing-ui.js';

/*
 * The owner's abandoned checkouts (issue [7/8] item 5): the period's checkouts left unpaid, newest
 * first, with their state and value, and the figures: how many were left, e-mailed and recovered,
 * and the money recovered orders brought in (the one revenue rule: received net of refunds, on the
 * day it moved). Period, state and page live in the address, so reload and Back keep them.
 */

const PARAM = { period: 'rcvPeriod', state: 'rcvState', page: 'rcvPage' } as const;

const STATE_STYLE: Record<RecoveryState, string> = {
  abandoned: 'bg-stone-100 text-stone-800',
  emailed: 'bg-sky-100 text-sky-900',
  recovered: 'bg-brand-100 text-brand-900',
  'opted-out': 'bg-amber-100 text-amber-900',
  expired: 'bg-stone-100 text-stone-600',
  closed: 'bg-stone-100 text-stone-700',
};

function StateBadge({ row }: { row: RecoveryRow }) {
  return (
    <span className="inline-flex flex-col items-start gap-0.5 max-md:items-end">
      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[row.state]}`}>{RECOVERY_STATE_LABELS[row.state]}</span>
      {row.reason && <span className="text-xs text-stone-600">{RECOVERY_REASON_WORDS[row.reason]}</span>}
    </span>
  );
}

const COLUMNS: Column<RecoveryRow>[] = [
  {
    header: 'Checkout',
    primary: true,
    cell: (r) => (
      <span className="flex flex-col">
        <span className="font-medium">
          <OrderLink id={r.orderId} number={r.orderNumber} />
        </span>
        <span className="text-xs text-stone-600">{formatDateTime(r.checkoutAt)}</span>
      </span>
    ),
  },
  { header: 'Customer', cell: (r) => <span className="break-all">{r.email}</span> },
  { header: 'Items', numeric: true, cell: (r) => r.itemCount },
  { header: 'Value', numeric: true, cell: (r) => formatCents(r.valueCents) },
  { header: 'State', cell: (r) => <StateBadge row={r} /> },
  {
    header: 'E-mails',
    cell: (r) =>
      r.emailsSent === 0 ? (
        <span className="text-stone-500">None</span>
      ) : (
        <span className="flex flex-col max-md:items-end">
          <span>
            {r.emailsSent} sent{r.couponCode ? ` · ${r.couponCode}` : ''}
          </span>
          <span className="text-xs text-stone-600">
            Last {formatDateTime(r.lastEmailAt)}
            {r.restoredAt ? ' · cart opened' : ''}
          </span>
        </span>
      ),
  },
  {
    header: 'Order that followed',
    cell: (r) => <FollowedOrder id={r.recoveredOrderId} number={r.recoveredOrderNumber} cents={r.recoveredCents} />,
  },
];

function useFilters() {
  const [params, setParams] = useSearchParams();
  const stateParam = params.get(PARAM.state) ?? '';
  const state: RecoveryState | '' = (RECOVERY_STATES as readonly string[]).includes(stateParam) ? (stateParam as RecoveryState) : '';
  const page = Math.max(1, Math.floor(Number(params.get(PARAM.page) ?? '1')) || 1);
  const set = (changes: Partial<Record<'state' | 'page', string | null>>) =>
    setParams(withParams(params, { state: PARAM.state, page: PARAM.page }, changes), { replace: true });
  return { state, page, set };
}

export function AbandonedCheckouts() {
  const { preset, from, to, pick } = usePresetPeriod(PARAM.period, [PARAM.page]);
  const { state, page, set } = useFilters();
  const { data, error, isPending, isFetching, refetch } = useRecoveries({ from, to, state, page });
  const stateId = useId();
  const f = data?.figures;
  return (
    <Panel title="Abandoned checkouts">
      <p className="mb-4 max-w-3xl text-sm text-stone-700">
        Checkouts not paid an hour after they were made. A shopper who said yes to offers and reminders gets up to two e-mails with a link
        that puts the cart back (Settings, in this tab). Recovered: the customer ordered within 7 days of an e-mail.
      </p>
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <PresetPeriodSelect value={preset} onPick={pick} />
        <div className="flex items-center gap-2">
          <label htmlFor={stateId} className="text-sm font-medium text-stone-900">
            State
          </label>
          <select
            id={stateId}
            value={state}
            onChange={(e) => set({ state: e.target.value || null, page: null })}
            className="h-10 rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            <option value="">All states</option>
            {RECOVERY_STATES.map((s) => (
              <option key={s} value={s}>
                {RECOVERY_STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading abandoned checkouts"
      >
        {f && (
          <dl className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Checkout recovery figures">
            <Headline label="Abandoned" value={f.abandoned} note={`${formatCents(f.abandonedCents)} in carts`} testId="rcv-abandoned" />
            <Headline
              label="E-mailed"
              value={f.emailed}
              note={`${f.emailsSent} ${f.emailsSent === 1 ? 'e-mail' : 'e-mails'} sent`}
              testId="rcv-emailed"
            />
            <Headline
              label="Recovered"
              value={f.recovered}
              note={`${rate(f.recovered, f.emailed)} of those e-mailed`}
              testId="rcv-recovered"
            />
            <Headline
              label="Recovered revenue"
              value={formatCents(f.recoveredRevenueCents)}
              note="Received in the period, net of refunds"
              testId="rcv-revenue"
            />
          </dl>
        )}
        {data && data.rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-stone-300 px-4 py-10 text-center text-stone-700">
            {state
              ? `No ${RECOVERY_STATE_LABELS[state].toLowerCase()} checkouts in this period.`
              : 'No abandoned checkouts in this period.'}
          </p>
        ) : (
          data && (
            <>
              <DataTable caption="Abandoned checkouts" rows={data.rows} rowKey={(r) => r.id} columns={COLUMNS} busy={isFetching} dense />
              <PageNav
                page={data.page}
                totalPages={data.pages}
                onPage={(p) => set({ page: p === 1 ? null : String(p) })}
                busy={isFetching}
              />
            </>
          )
        )}
      </ListState>
    </Panel>
  );
}
