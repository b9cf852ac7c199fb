import { formatDateTime } from '../../lib/format.js';
import { actorText, eventContextOf, eventSentence } from './subscription-event-text.js';
import type { AdminSubscriptionDetail } from './subscription-schemas.js';

/**
 * A subscription's timeline, newest first (issue [5/8]): when, what (one sentence per event, in
 * subscription-event-text.ts), and who: the schedule, the customer, or the admin by e-mail. A
 * reactivation carries the terms agreed again, folded under it.
 */
export function SubscriptionTimeline({ sub }: { sub: AdminSubscriptionDetail }) {
  if (sub.events.length === 0) return <p className="text-sm text-stone-700">Nothing recorded yet.</p>;
  const ctx = eventContextOf(sub);
  return (
    <ol aria-label="Timeline" className="flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200">
      {sub.events.map((e) => {
        const s = eventSentence(e, ctx);
        return (
          <li key={e.id} className="flex flex-col gap-0.5 px-3 py-2" data-testid="subscription-event">
            <p className="break-words text-sm text-stone-900">{s.text}</p>
            <p className="break-words text-xs text-stone-600">
              <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>, by {actorText(e.actor, sub.email)}
            </p>
            {s.consentText && (
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer font-medium text-brand-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
                  Terms agreed again
                </summary>
                <p className="mt-1 whitespace-pre-line break-words text-stone-800">{s.consentText}</p>
              </details>
            )}
          </li>
        );
      })}
    </ol>
  );
}
