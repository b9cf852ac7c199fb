import { useSearchParams } from 'react-router';
import { errorMessage } from '../../accounts/error-message.js';
import { Pagination } from '../../catalog/components/pagination.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Spinner } from '../../ui/spinner.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
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
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${STATUS_STYLES[status] ?? 'bg-stone-100 text-stone-800'}`}>
      {status}
    </span>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
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

const th = 'whitespace-nowrap px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-stone-700';
const td = 'px-3 py-2 align-top text-sm text-stone-800';

function OutboxRow({ e, ...retry }: { e: OutboxEntry } & RetryProps) {
  return (
    <tr className="border-t border-stone-200">
      <td className={`${td} whitespace-nowrap`}>
        <time dateTime={e.createdAt}>{formatDate(e.createdAt)}</time>
      </td>
      <td className={`${td} whitespace-nowrap`}>{e.to}</td>
      <td className={`${td} min-w-48`}>{e.subject}</td>
      <td className={`${td} whitespace-nowrap`}>{e.templateId ?? '—'}</td>
      <td className={td}>
        <StatusBadge status={e.status} />
      </td>
      <td className={`${td} text-right tabular-nums`}>{e.attempts}</td>
      <td className={`${td} min-w-40 max-w-xs break-words text-red-800`}>{e.lastError ?? ''}</td>
      <td className={td}>
        <RetryButton e={e} {...retry} />
      </td>
    </tr>
  );
}

/** One e-mail as a card, for narrow screens where the table would need sideways scrolling. */
function OutboxCard({ e, ...retry }: { e: OutboxEntry } & RetryProps) {
  return (
    <li className="flex flex-col gap-1 border-t border-stone-200 py-3 text-sm text-stone-800">
      <div className="flex items-center justify-between gap-3">
        <time dateTime={e.createdAt} className="text-stone-700">
          {formatDate(e.createdAt)}
        </time>
        <StatusBadge status={e.status} />
      </div>
      <p className="font-medium text-stone-900">{e.subject}</p>
      <p className="break-words">To: {e.to}</p>
      <p className="text-stone-700">
        Template: {e.templateId ?? '—'} · Attempts: {e.attempts}
      </p>
      {e.lastError && <p className="break-words text-red-800">Last error: {e.lastError}</p>}
      {canRetry(e) && (
        <div>
          <RetryButton e={e} {...retry} />
        </div>
      )}
    </li>
  );
}

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
        onSuccess: () => toast({ title: 'E-mail queued again', description: `The e-mail to ${e.to} will be sent on the next delivery run.` }),
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
          <ul className="md:hidden" aria-label="E-mails, newest first" aria-busy={isPlaceholderData}>
            {data.items.map((e) => (
              <OutboxCard key={e.id} e={e} {...retryProps(e)} />
            ))}
          </ul>
          <div className="hidden overflow-x-auto md:block" aria-busy={isPlaceholderData}>
            <table className="w-full border-collapse">
              <caption className="sr-only">E-mail outbox, newest first</caption>
              <thead className="bg-stone-50">
                <tr>
                  <th scope="col" className={th}>
                    Date
                  </th>
                  <th scope="col" className={th}>
                    To
                  </th>
                  <th scope="col" className={th}>
                    Subject
                  </th>
                  <th scope="col" className={th}>
                    Template
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Attempts
                  </th>
                  <th scope="col" className={th}>
                    Last error
                  </th>
                  <th scope="col" className={th}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((e) => (
                  <OutboxRow key={e.id} e={e} {...retryProps(e)} />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} totalPages={totalPages} hrefFor={hrefFor} />
        </>
      )}
    </section>
  );
}
