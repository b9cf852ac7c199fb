import { Skeleton } from '../../ui/skeleton.js';
import { Panel } from '../dashboard/panel.js';
import { useCancelSubscription } from './api/cancel-subscription.js';
import { useSubscriptions } from './api/get-subscriptions.js';
import { SubscriptionActions } from './subscription-actions.js';
import { SubscriptionSummary } from './subscription-summary.js';
import { SubscriptionHistory } from './subscription-history.js';
import { SubscriptionCard } from './subscription-card.js';
import { SUBSCRIPTION_UI_TEXTS as T } from './subscription-texts.js';

function RowSkeleton() {
  return (
    <li className="flex flex-col gap-2 py-4" aria-hidden="true">
      <Skeleton className="h-5 w-48" />
      <Skeleton className="h-4 w-64" />
      <Skeleton className="h-12" />
    </li>
  );
}

/** The dashboard's "Subscriptions" card: each subscription with its terms, status and next delivery, and its Skip, Change and Cancel buttons. */
export function SubscriptionsPanel() {
  const subscriptions = useSubscriptions();
  const cancel = useCancelSubscription();
  // Each row's dialogs read the list's current copy, so they see what the list has read meanwhile.
  const data = subscriptions.data;

  return (
    <Panel title={T.cardTitle}>
      {subscriptions.isError && !data ? (
        <p role="alert" className="text-sm text-red-800">
          {T.loadFailed}
        </p>
      ) : !data ? (
        <ul className="divide-y divide-stone-100" aria-busy="true" data-testid="subscriptions-loading">
          <RowSkeleton />
          <RowSkeleton />
        </ul>
      ) : data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-stone-300 px-6 py-8 text-center text-stone-700" data-testid="no-subscriptions">
          {T.empty}
        </p>
      ) : (
        <ul className="divide-y divide-stone-100" data-testid="subscriptions">
          {data.map((sub) => (
            <li
              key={sub.id}
              data-subscription={sub.id}
              className="flex flex-col gap-4 py-5 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between"
            >
              <div className="flex min-w-0 flex-1 flex-col gap-3">
                <SubscriptionSummary subscription={sub} />
                <SubscriptionCard subscription={sub} target={{ accountId: sub.id }} />
                <SubscriptionHistory target={{ accountId: sub.id }} items={sub.items} />
              </div>
              <SubscriptionActions
                subscription={sub}
                target={{ accountId: sub.id }}
                layout="card"
                onCancel={(reason) => cancel.mutateAsync({ id: sub.id, reason })}
              />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
