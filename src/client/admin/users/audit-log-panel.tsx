import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { AUDIT_ACTIONS, AUDIT_MESSAGES, AuditLogFilters, NO_AUDIT_FILTERS, type AuditEntry } from '../../../shared/schemas/audit.js';
import { formatCents } from '../../../shared/money.js';
import { formatDateTime } from '../../lib/format.js';
import { Button } from '../../ui/button.js';
import { DataTable, Field, fieldAria, inputCls, ListState, PageNav, Panel, type Column } from '../components/admin-ui.js';
import { useAuditLog } from './get-audit-log.js';

/** The filters live in the address (`?view=audit&auditUser=…`), so a filtered view can be linked and reloaded. */
const FILTER_PARAMS = {
  action: 'auditAction',
  actor: 'auditActor',
  user: 'auditUser',
  from: 'auditFrom',
  to: 'auditTo',
} as const satisfies Record<keyof AuditLogFilters, string>;
const PAGE_PARAM = 'auditPage';

function filtersFrom(params: URLSearchParams): AuditLogFilters {
  const raw = Object.fromEntries(Object.entries(FILTER_PARAMS).map(([key, name]) => [key, params.get(name) ?? '']));
  const parsed = AuditLogFilters.safeParse(raw);
  return parsed.success ? parsed.data : NO_AUDIT_FILTERS;
}

/** The address of the audit view with these filters, on its first page. */
export function withAuditFilters(params: URLSearchParams, filters: Partial<AuditLogFilters>): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('view', 'audit');
  next.delete(PAGE_PARAM);
  for (const [key, name] of Object.entries(FILTER_PARAMS)) {
    const value = filters[key as keyof AuditLogFilters];
    if (value) next.set(name, value);
    else next.delete(name);
  }
  return next;
}

function pageFrom(params: URLSearchParams): number {
  const n = Number(params.get(PAGE_PARAM));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** An account an entry names; a deleted one keeps only its id. */
function Person({ person }: { person: AuditEntry['actor'] }) {
  if (!person) return <span className="text-stone-600">The shop</span>;
  if (!person.email) {
    return (
      <span className="text-stone-700">
        Deleted account <span className="break-all font-mono text-xs text-stone-600">{person.id}</span>
      </span>
    );
  }
  return <span className="break-all">{person.email}</span>;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** What changed, in words; the log keeps ids and figures only. */
function detailsText(e: AuditEntry): string {
  const d = e.details;
  switch (e.action) {
    case 'user.role_changed':
      return `${str(d.from) ?? '?'} → ${str(d.to) ?? '?'}`;
    case 'user.verification_changed':
      return d.to ? 'Not verified → Verified' : 'Verified → Not verified';
    case 'user.loyalty_points_changed':
      return `${num(d.from) ?? '?'} → ${num(d.to) ?? '?'} points`;
    case 'account.password_changed':
      return d.via === 'reset' ? 'Through a reset link' : 'From the account page';
    case 'account.contact_changed':
      return Array.isArray(d.fields) ? `Changed ${d.fields.map((f) => (f === 'fullName' ? 'name' : String(f))).join(' and ')}` : '';
    case 'account.address_changed':
      return `${str(d.kind) === 'billing' ? 'Billing' : 'Shipping'} address`;
    case 'account.deleted':
      return d.role === 'admin' ? 'An administrator’s account' : '';
    case 'order.refunded': {
      const amount = num(d.amountCents);
      return `${amount === null ? 'A refund' : formatCents(amount)} on order #${str(d.orderNumber) ?? '?'}${d.full ? ' (in full)' : ''}`;
    }
    case 'order.deleted':
      return `Order #${str(d.orderNumber) ?? '?'}`;
    case 'order.placed': {
      const total = num(d.totalCents);
      return `Order ${str(d.orderId) ?? '?'}${total === null ? '' : `, ${formatCents(total)}`}`;
    }
    case 'order.status_changed':
    case 'order.cancelled':
      return `Order #${str(d.orderNumber) ?? '?'}: ${str(d.from) ?? '?'} → ${str(d.to) ?? '?'}`;
    case 'order.label_bought':
    case 'order.label_voided':
      return `Order #${str(d.orderNumber) ?? '?'}${str(d.trackingNumber) ? `, tracking ${str(d.trackingNumber)}` : ''}`;
    case 'settings.changed':
      return Array.isArray(d.keys) ? d.keys.map(String).join(', ') : '';
    case 'product.price_changed':
      return Array.isArray(d.changes)
        ? `${str(d.productId) ?? '?'}: ${d.changes
            .map((c: unknown) => {
              const ch = (c ?? {}) as Record<string, unknown>;
              return `${formatCents(num(ch.fromCents) ?? 0)} → ${formatCents(num(ch.toCents) ?? 0)}`;
            })
            .join(', ')}`
        : '';
    case 'template.changed':
      return `${str(d.templateId) ?? '?'} ${str(d.how) ?? ''}`.trim();
    case 'subscription.cancelled':
      return `${str(d.subscriptionId) ?? '?'}: ${d.notified ? 'customer e-mailed' : 'customer not e-mailed'}`;
    case 'impersonation.viewed':
      return d.what === 'order' ? `Order #${str(d.orderNumber) ?? '?'}` : (str(d.what) ?? '');
    default:
      return '';
  }
}

const COLUMNS: readonly Column<AuditEntry>[] = [
  {
    header: 'Action',
    primary: true,
    className: 'font-medium text-stone-900 md:whitespace-nowrap',
    cell: (e) => AUDIT_ACTIONS[e.action as keyof typeof AUDIT_ACTIONS] ?? e.action,
  },
  {
    header: 'When',
    className: 'md:whitespace-nowrap',
    cell: (e) => <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>,
  },
  {
    header: 'By',
    className: 'md:min-w-44',
    cell: (e) => (
      <span className="flex flex-col items-end md:items-start">
        <Person person={e.actor} />
        {e.actingAs && (
          <span className="text-xs text-amber-900">
            acting as <Person person={e.actingAs} />
          </span>
        )}
      </span>
    ),
  },
  { header: 'User', className: 'md:min-w-44', cell: (e) => <Person person={e.target} /> },
  { header: 'Details', className: 'md:min-w-40 max-md:empty:hidden', cell: (e) => detailsText(e) },
];

/** A filter by person: an e-mail or a user id (the server resolves an e-mail to its id). */
function PersonFilter({
  label,
  name,
  error,
  field,
}: {
  label: string;
  name: 'actor' | 'user';
  error?: string;
  field: UseFormRegisterReturn;
}) {
  const id = `audit-${name}`;
  return (
    <Field label={label} htmlFor={id} error={error}>
      <input id={id} type="search" className={inputCls} placeholder="Email or user ID" {...field} {...fieldAria(error, `${id}-error`)} />
    </Field>
  );
}

function AuditFilterForm({ filters, onApply }: { filters: AuditLogFilters; onApply: (filters: AuditLogFilters) => void }) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(AuditLogFilters), defaultValues: filters });
  const fromError = errors.from?.message;
  const toError = errors.to?.message;
  return (
    <form
      role="search"
      aria-label="Filter the audit log"
      noValidate
      onSubmit={(e) => void handleSubmit(onApply)(e)}
      className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto] lg:items-start"
    >
      {/* On a phone the text fields take the whole width; the two dates share a row. */}
      <div className="col-span-2 sm:col-span-1">
        <Field label="Action" htmlFor="audit-action">
          <select id="audit-action" className={inputCls} {...register('action')}>
            <option value="">Any action</option>
            {Object.entries(AUDIT_ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="col-span-2 sm:col-span-1">
        <PersonFilter label="By" name="actor" error={errors.actor?.message} field={register('actor')} />
      </div>
      <div className="col-span-2 lg:col-span-1">
        <PersonFilter label="User" name="user" error={errors.user?.message} field={register('user')} />
      </div>
      <Field label="From" htmlFor="audit-from" error={fromError}>
        <input id="audit-from" type="date" className={inputCls} {...register('from')} {...fieldAria(fromError, 'audit-from-error')} />
      </Field>
      <Field label="To" htmlFor="audit-to" error={toError}>
        <input id="audit-to" type="date" className={inputCls} {...register('to')} {...fieldAria(toError, 'audit-to-error')} />
      </Field>
      <div className="col-span-2 flex gap-2 lg:col-span-1 lg:mt-6">
        <Button type="submit" className="flex-1 lg:flex-none">
          Apply
        </Button>
        <Button
          type="button"
          variant="outline"
          className="flex-1 lg:flex-none"
          onClick={() => {
            reset(NO_AUDIT_FILTERS);
            onApply(NO_AUDIT_FILTERS);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}

/**
 * The audit log (GET /api/admin/audit-log): who did what to which account, newest first, a page at
 * a time, filtered by action, by whom, on whom and by day. "By" is always the person at the
 * keyboard; while impersonating, the customer they acted as is shown beneath.
 */
export function AuditLogPanel() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const page = pageFrom(params);
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useAuditLog(filters, page);
  const filtered = Object.values(filters).some(Boolean);
  const setPage = (p: number) => {
    const next = new URLSearchParams(params);
    if (p > 1) next.set(PAGE_PARAM, String(p));
    else next.delete(PAGE_PARAM);
    setParams(next);
  };

  return (
    <Panel title="Audit log">
      {/* Remounted when the address's filters change (a user's History link), so the fields show them. */}
      <AuditFilterForm key={JSON.stringify(filters)} filters={filters} onApply={(f) => setParams(withAuditFilters(params, f))} />
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading the audit log"
        isEmpty={data?.items.length === 0}
        empty={<p>{filtered ? AUDIT_MESSAGES.emptyFiltered : AUDIT_MESSAGES.empty}</p>}
      >
        {data && (
          <>
            <p className="mb-2 text-sm text-stone-700" aria-live="polite">
              {data.total === 1 ? '1 entry' : `${data.total} entries`}
            </p>
            <DataTable caption="Audit log" rows={data.items} rowKey={(e) => e.id} columns={COLUMNS} busy={isPlaceholderData} />
            <PageNav page={data.page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
    </Panel>
  );
}
