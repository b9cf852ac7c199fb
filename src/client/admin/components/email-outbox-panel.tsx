import { useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/error-message.js';
import { Pagination } from '../../ui/pagination.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Spinner } from '../../ui/spinner.js';
import { toast } from '../../ui/toast.js';
import { formatDateTime } from '../../lib/format.js';
import { messageOf } from '../api/admin-api.js';
import { DataTable, type Column } from './admin-ui.js';
import { OUTBOX_PAGE_SIZE, useEmailOutbox, type OutboxEntry } from '../api/get-email-outbox.js';
import { useRetryOutboxEmail } from '../api/messaging-api.js';

const PAGE_PARAM = 'outboxPage';

const STATUS_STYLES: Record<string, string> = {
  queued: 'bg-yellow-100 text-yellow-900',
  sending: 'bg-blue-100 text-blue-900',
  sent: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
};

function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${STATUS_STYLES[status] ?? 'bg-stone-100 text-stone-800'}`}
    >
      {status}
    </span>
  );
}

function toPage(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** A failed e-mail, or a queued one waiting after a failed attempt, can go back to the front of the queue. */
function canRetry(e: OutboxEntry): boolean {
  return e.status === 'failed' || (e.status === 'queued' && e.attempts > 0);
}

type RetryProps = { retrying: boolean; onRetry: () => void };

function RetryButton({ e, retrying, onRetry }: { e: OutboxEntry } & RetryProps) {
  if (!canRetry(e)) return null;
  return (
    <Button variant="outline" size="sm" disabled={retrying} onClick={onRetry} aria-label={`Retry the e-mail to ${e.to}: ${e.subject}`}>
      {retrying ? 'Retrying…' : 'Retry'}
    </Button>
  );
}

const OUTBOX_COLUMNS: readonly Column<OutboxEntry>[] = [
  {
    header: 'Date',
    className: 'md:whitespace-nowrap',
    cell: (e) => <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>,
  },
  // A narrow column breaks an address before its "@" rather than inside a word.
  {
    header: 'To',
    className: 'wrap-anywhere md:min-w-40',
    cell: (e) => e.to.split('@').flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, `@${part}`])),
  },
  {
    header: 'Subject',
    primary: true,
    className: 'font-medium text-stone-900 md:min-w-40 md:font-normal md:text-stone-800',
    cell: (e) => e.subject,
  },
  // A template id breaks after a hyphen, so "subscription-renewal-reminder" never widens the table past the screen.
  { header: 'Template', className: 'wrap-anywhere md:wrap-normal', cell: (e) => e.templateId ?? '—' },
  { header: 'Status', cell: (e) => <StatusBadge status={e.status} /> },
  { header: 'Attempts', numeric: true, cell: (e) => e.attempts },
  {
    header: 'Last error',
    className: 'break-words text-red-800 md:min-w-40 md:max-w-xs max-md:empty:hidden',
    cell: (e) => e.lastError ?? '',
  },
];

/** The e-mails the shop has queued or sent, newest first. */
export function EmailOutboxPanel() {
  const [params] = useSearchParams();
  const page = toPage(params.get(PAGE_PARAM));
  const { data, error, isPending, isError, isFetching, refetch, isPlaceholderData } = useEmailOutbox(page);
  const totalPages = data ? Math.max(1, Math.ceil(data.total / OUTBOX_PAGE_SIZE)) : 1;
  const retry = useRetryOutboxEmail();
  const retryProps = (e: OutboxEntry): RetryProps => ({
    retrying: retry.isPending && retry.variables === e.id,
    onRetry: () =>
      retry.mutate(e.id, {
        onSuccess: () =>
          toast({ title: 'E-mail queued again', description: `The e-mail to ${e.to} will be sent on the next delivery run.` }),
        onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
      }),
  });

  const hrefFor = (p: number) => {
    const next = new URLSearchParams(params);
    if (p <= 1) next.delete(PAGE_PARAM);
    else next.set(PAGE_PARAM, String(p));
    const qs = next.toString();
    return qs ? `?${qs}` : '?';
  };

  return (
    <section aria-labelledby="outbox-title" className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="outbox-title" className="text-xl font-semibold text-stone-900">
          E-mail outbox
        </h2>
        <div className="flex items-center gap-3">
          {data && <p className="text-sm text-stone-700">{data.total} total</p>}
          <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
            {isFetching && !isPending ? 'Refreshing…' : 'Refresh'}
          </Button>
        </div>
      </div>
      {isPending ? (
        <Spinner label="Loading" />
      ) : isError ? (
        <Alert
          variant="destructive"
          title={errorMessage(error, 'Failed to load e-mails')}
          action={
            <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
              Retry
            </Button>
          }
        />
      ) : data.items.length === 0 ? (
        <p className="py-8 text-center text-stone-700">No e-mails yet</p>
      ) : (
        <>
          <DataTable
            caption="E-mail outbox, newest first"
            rows={data.items}
            rowKey={(e) => e.id}
            busy={isPlaceholderData}
            columns={OUTBOX_COLUMNS}
            actions={(e) => <RetryButton e={e} {...retryProps(e)} />}
          />
          <Pagination page={page} totalPages={totalPages} hrefFor={hrefFor} />
        </>
      )}
    </section>
  );
}
