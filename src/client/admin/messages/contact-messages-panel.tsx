import { useState } from 'react';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { CONTACT_MESSAGES_PAGE_SIZE, useContactMessages, useRetryContactForward, type ContactMessage } from '../api/messaging-api.js';
import { formatDateTime } from '../../lib/format.js';
import { ListState, PageNav, Panel } from '../components/admin-ui.js';

const FORWARD: Record<string, { label: string; cls: string }> = {
  stored: { label: 'Not forwarded', cls: 'bg-stone-100 text-stone-800' },
  pending: { label: 'Forwarding pending', cls: 'bg-yellow-100 text-yellow-900' },
  forwarded: { label: 'Forwarded', cls: 'bg-green-100 text-green-900' },
  failed: { label: 'Forwarding failed', cls: 'bg-red-100 text-red-900' },
};

/** A failed forward, or a pending one that has already failed at least once, can be sent again now. */
function canRetry(m: ContactMessage): boolean {
  return m.forwardStatus === 'failed' || (m.forwardStatus === 'pending' && m.attempts > 0);
}

function MessageCard({ m, retrying, onRetry }: { m: ContactMessage; retrying: boolean; onRetry: () => void }) {
  const status = FORWARD[m.forwardStatus] ?? { label: m.forwardStatus, cls: 'bg-stone-100 text-stone-800' };
  return (
    <li>
      <article aria-labelledby={`msg-${m.id}-subject`} className="flex flex-col gap-3 rounded-lg border border-stone-200 p-4">
        <header className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0">
            <h3 id={`msg-${m.id}-subject`} className="break-words font-semibold text-stone-900">
              {m.subject}
            </h3>
            <p className="break-words text-sm text-stone-700">
              From {m.name} &lt;
              <a
                href={`mailto:${m.email}?subject=${encodeURIComponent(`Re: ${m.subject}`)}`}
                className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
              >
                {m.email}
              </a>
              &gt;
            </p>
          </div>
          <p className="shrink-0 text-sm text-stone-700">
            Received <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
          </p>
        </header>
        <p className="whitespace-pre-wrap break-words text-sm text-stone-800">{m.message}</p>
        <footer className="flex flex-wrap items-center gap-x-3 gap-y-2 border-t border-stone-200 pt-3 text-sm text-stone-700">
          <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${status.cls}`}>{status.label}</span>
          <span>Attempts: {m.attempts}</span>
          {m.lastError && <span className="min-w-0 break-words text-red-800">Last error: {m.lastError}</span>}
          {canRetry(m) && (
            <Button
              variant="outline"
              size="sm"
              className="ml-auto"
              disabled={retrying}
              onClick={onRetry}
              aria-label={`Retry forwarding the message from ${m.name}`}
            >
              {retrying ? 'Retrying…' : 'Retry forwarding'}
            </Button>
          )}
        </footer>
      </article>
    </li>
  );
}

/** Messages people sent with the contact form, newest first, and how their forwarding went. */
export function ContactMessagesPanel() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, isFetching, refetch, isPlaceholderData } = useContactMessages(page);
  const retry = useRetryContactForward();
  const totalPages = data ? Math.max(1, Math.ceil(data.total / CONTACT_MESSAGES_PAGE_SIZE)) : 1;

  return (
    <Panel
      title="Contact messages"
      actions={
        <>
          {data && <p className="self-center text-sm text-stone-700">{data.total} total</p>}
          <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
            {isFetching && !isPending ? 'Refreshing…' : 'Refresh'}
          </Button>
        </>
      }
    >
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading messages"
        isEmpty={data?.items.length === 0}
        empty={<p>No messages yet. Messages sent with the contact form appear here.</p>}
      >
        {data && (
          <>
            <ul className="flex flex-col gap-3" aria-label="Contact messages, newest first" aria-busy={isPlaceholderData}>
              {data.items.map((m) => (
                <MessageCard
                  key={m.id}
                  m={m}
                  retrying={retry.isPending && retry.variables === m.id}
                  onRetry={() =>
                    retry.mutate(m.id, {
                      onSuccess: () =>
                        toast({
                          title: 'Forwarding queued',
                          description: 'The message will be sent to the workflow endpoint again shortly.',
                        }),
                      onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
                    })
                  }
                />
              ))}
            </ul>
            <PageNav page={page} totalPages={totalPages} onPage={setPage} busy={isPlaceholderData} />
          </>
        )}
      </ListState>
    </Panel>
  );
}
