import { useCallback, useState } from 'react';
import type { SubscriptionView } from '../../../shared/subscriptions.js';
import { Button } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { Panel } from '../dashboard/panel.js';
import { useCancelSubscription } from './api/cancel-subscription.js';
import { useSubscriptions } from './api/get-subscriptions.js';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog.js';
import { SubscriptionSummary } from './subscription-summary.js';
import { SUBSCRIPTION_UI_TEXTS as T, subscriptionName } from './subscription-texts.js';

function RowSkeleton() {
  return (
    <li className="flex flex-col gap-2 py-4" aria-hidden="true">
      <Skeleton className="h-5 w-48" />
      <Skeleton className="h-4 w-64" />
      <Skeleton className="h-12" />
    </li>
  );
}

/** The dashboard's "Subscriptions" card: each subscription with its terms, status, next delivery and a Cancel button. */
export function SubscriptionsPanel() {
  const subscriptions = useSubscriptions();
  const cancel = useCancelSubscription();
  const [cancellingId, setCancellingId] = useState<string | null>(null);
  const close = useCallback(() => setCancellingId(null), []);
  const data = subscriptions.data;
  // The list's current copy, so the dialog sees a cancellation the list has read meanwhile.
  const cancelling: SubscriptionView | undefined = data?.find((s) => s.id === cancellingId);

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
              <SubscriptionSummary subscription={sub} />
              {sub.status !== 'cancelled' && (
                <Button
                  variant="outline"
                  size="sm"
                  className="shrink-0 self-start"
                  onClick={() => setCancellingId(sub.id)}
                  aria-label={`${T.cancelButton}: ${subscriptionName(sub)}, ${sub.terms}`}
                >
                  {T.cancelButton}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {cancelling && (
        <CancelSubscriptionDialog
          subscription={cancelling}
          open
          onClose={close}
          onCancel={(reason) => cancel.mutateAsync({ id: cancelling.id, reason })}
        />
      )}
    </Panel>
  );
}
