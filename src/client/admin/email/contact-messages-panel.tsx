import { useState } from 'react';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import {
  CONTACT_MESSAGES_PAGE_SIZE,
  useContactMessages,
  useRetryContactForward,
  useSetContactMessageState,
  type ContactMessage,
} from '../api/messaging-api.js';
import { CONTACT_MESSAGE_STATES, CONTACT_MESSAGE_TEXTS, type ContactMessageState } from '../../../shared/schemas/contact-messages.js';
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

const STATE_BADGE: Record<ContactMessageState, string> = {
  unread: 'bg-brand-100 text-brand-900',
  read: 'bg-stone-100 text-stone-800',
  answered: 'bg-green-100 text-green-900',
};

/** The owner's marks: the two states the message is not in. */
function StateButtons({ m, busy, onMark }: { m: ContactMessage; busy: boolean; onMark: (state: ContactMessageState) => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      {CONTACT_MESSAGE_STATES.filter((s) => s !== m.state).map((s) => (
        <Button
          key={s}
          variant="outline"
          size="sm"
          disabled={busy}
          onClick={() => onMark(s)}
          aria-label={`${CONTACT_MESSAGE_TEXTS.markAs[s]}: ${m.subject}`}
        >
          {CONTACT_MESSAGE_TEXTS.markAs[s]}
        </Button>
      ))}
    </div>
  );
}

function MessageCard({
  m,
  retrying,
  onRetry,
  marking,
  onMark,
}: {
  m: ContactMessage;
  retrying: boolean;
  onRetry: () => void;
  marking: boolean;
  onMark: (state: ContactMessageState) => void;
}) {
  const status = FORWARD[m.forwardStatus] ?? { label: m.forwardStatus, cls: 'bg-stone-100 text-stone-800' };
  const unread = m.state === 'unread';
  return (
    <li>
      <article
        aria-labelledby={`msg-${m.id}-subject`}
        data-testid="contact-message"
        data-state={m.state}
        className={`flex flex-col gap-3 rounded-lg border p-4 ${unread ? 'border-brand-600 bg-brand-50/40' : 'border-stone-200'}`}
      >
        <header className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0">
            <h3 id={`msg-${m.id}-subject`} className={`break-words text-stone-900 ${unread ? 'font-bold' : 'font-semibold'}`}>
              <span className={`mr-2 inline-flex rounded-full px-2.5 py-0.5 align-middle text-xs font-semibold ${STATE_BADGE[m.state]}`}>
                {CONTACT_MESSAGE_TEXTS.stateLabel[m.state]}
              </span>
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
        <StateButtons m={m} busy={marking} onMark={onMark} />
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
  const [filter, setFilter] = useState<ContactMessageState | 'all'>('all');
  const { data, error, isPending, isFetching, refetch, isPlaceholderData } = useContactMessages(
    page,
    filter === 'all' ? undefined : filter,
  );
  const retry = useRetryContactForward();
  const mark = useSetContactMessageState();
  const totalPages = data ? Math.max(1, Math.ceil(data.total / CONTACT_MESSAGES_PAGE_SIZE)) : 1;

  return (
    <Panel
      title="Contact messages"
      actions={
        <>
          <label htmlFor="contact-message-filter" className="self-center text-sm font-medium text-stone-900">
            Show
          </label>
          <select
            id="contact-message-filter"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as ContactMessageState | 'all');
              setPage(1);
            }}
            className="h-9 rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            {(['all', ...CONTACT_MESSAGE_STATES] as const).map((v) => (
              <option key={v} value={v}>
                {CONTACT_MESSAGE_TEXTS.filterLabel[v]}
                {v !== 'all' && data ? ` (${data.counts[v]})` : ''}
              </option>
            ))}
          </select>
          {data && <p className="self-center text-sm text-stone-700">{data.total} shown</p>}
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
        empty={<p>{filter === 'all' ? CONTACT_MESSAGE_TEXTS.emptyAll : CONTACT_MESSAGE_TEXTS.emptyState(filter)}</p>}
      >
        {data && (
          <>
            <ul className="flex flex-col gap-3" aria-label="Contact messages, newest first" aria-busy={isPlaceholderData}>
              {data.items.map((m) => (
                <MessageCard
                  key={m.id}
                  m={m}
                  retrying={retry.isPending && retry.variables === m.id}
                  marking={mark.isPending && mark.variables?.id === m.id}
                  onMark={(state) =>
                    mark.mutate(
                      { id: m.id, state },
                      { onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }) },
                    )
                  }
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
