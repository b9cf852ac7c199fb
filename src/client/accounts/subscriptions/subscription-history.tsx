import { useId, useState } from 'react';
import { timelineSentence } from '../../../shared/subscription-timeline.js';
import type { SubscriptionView } from '../../../shared/subscriptions.js';
import { Button } from '../../ui/button.js';
import { useSubscriptionTimeline, type SubscriptionTarget } from './api/subscription-actions.js';
import { SUBSCRIPTION_UI_TEXTS as T } from './subscription-texts.js';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** "History": the subscription's timeline, read when opened: what the customer, the shop and the schedule did, newest first. */
export function SubscriptionHistory({ target, items }: { target: SubscriptionTarget; items: SubscriptionView['items'] }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timeline = useSubscriptionTimeline(target, open);
  return (
    <div className="flex flex-col gap-2">
      <Button
        variant="ghost"
        size="sm"
        className="self-start"
        aria-expanded={open}
        aria-controls={`${id}-history`}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? T.historyHide : T.historyButton}
      </Button>
      {open && (
        <div id={`${id}-history`} className="rounded-lg border border-stone-200 px-3 py-2 text-sm" data-testid="subscription-history">
          {timeline.isError ? (
            <p role="alert" className="text-red-800">
              {T.historyFailed}
            </p>
          ) : !timeline.data ? (
            <p className="text-stone-600" aria-busy="true">
              {T.historyLoading}
            </p>
          ) : timeline.data.length === 0 ? (
            <p className="text-stone-600">{T.historyEmpty}</p>
          ) : (
            <ol className="flex flex-col divide-y divide-stone-100" aria-label={T.historyTitle}>
              {timeline.data.map((e) => (
                <li key={e.id} className="flex flex-col gap-0.5 py-1.5 sm:flex-row sm:gap-3" data-testid="history-event">
                  <time dateTime={e.createdAt} className="shrink-0 text-stone-600 sm:w-44">
                    {when(e.createdAt)}
                  </time>
                  <span className="min-w-0 break-words text-stone-900">
                    {timelineSentence(e, items)} <span className="text-stone-600">· {e.actor}</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </div>
  );
}
