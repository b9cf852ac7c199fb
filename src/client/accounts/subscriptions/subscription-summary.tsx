import type { SubscriptionView } from '../../../shared/subscriptions.js';
import {
  statusText,
  SUBSCRIPTION_STATUS_TONE,
  SUBSCRIPTION_UI_TEXTS as T,
  priceNoticeText,
  subscriptionFacts,
  unitPriceText,
} from './subscription-texts.js';

export function SubscriptionStatusBadge({ status }: { status: SubscriptionView['status'] }) {
  return (
    <span
      className={`inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 text-sm font-medium ${SUBSCRIPTION_STATUS_TONE[status]}`}
      data-testid="subscription-status"
    >
      {statusText(status)}
    </span>
  );
}

/**
 * One subscription as its customer reads it, on the dashboard's card and the manage link's page:
 * what comes (items and quantities), the terms ("Every 4 weeks · 10% off") and status, then the
 * next delivery's date (none once cancelled) and the deliveries so far.
 */
export function SubscriptionSummary({ subscription, headingLevel = 3 }: { subscription: SubscriptionView; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const cancelled = subscription.status === 'cancelled';
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Heading className="font-semibold text-stone-900" data-testid="subscription-terms">
          {subscription.terms}
        </Heading>
        <SubscriptionStatusBadge status={subscription.status} />
      </div>
      <ul className="flex flex-col gap-1 text-stone-800" aria-label="Items">
        {subscription.items.map((item) => (
          <li key={`${item.productId}/${item.variantId}`} className="break-words">
            <span data-testid="subscription-item">
              {item.name} <span className="whitespace-nowrap text-stone-600">× {item.quantity}</span>
            </span>
            {!cancelled && (
              <span className="whitespace-nowrap text-sm text-stone-600" data-testid="subscription-item-price">
                {' '}
                · {unitPriceText(item.unitPriceCents)}
              </span>
            )}
            {!cancelled &&
              subscription.priceNotices
                ?.filter((n) => n.variantId === item.variantId && Date.parse(n.effectiveFrom) > Date.now() - 86_400_000)
                .map((n) => (
                  <span key={n.effectiveFrom} className="block text-sm text-amber-900" data-testid="subscription-price-notice">
                    {priceNoticeText(n)}
                  </span>
                ))}
            {!cancelled && item.skipNext && (
              <span className="ml-2 inline-flex whitespace-nowrap rounded-full bg-stone-200 px-2 py-0.5 text-xs font-medium text-stone-800">
                {T.leftOut}
              </span>
            )}
          </li>
        ))}
        {!cancelled &&
          subscription.extras.map((extra) => (
            <li key={`extra/${extra.variantId}`} className="break-words">
              <span data-testid="subscription-extra">
                {extra.name} <span className="whitespace-nowrap text-stone-600">× {extra.quantity}</span>
              </span>
              <span className="whitespace-nowrap text-sm text-stone-600"> · {unitPriceText(extra.unitPriceCents)}</span>
              <span className="ml-2 inline-flex whitespace-nowrap rounded-full bg-green-50 px-2 py-0.5 text-xs font-medium text-green-900">
                {T.oneTimeTag}
              </span>
            </li>
          ))}
      </ul>
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        {subscriptionFacts(subscription).map((f) => (
          <div key={f.label} className="flex flex-col gap-0.5 rounded-lg bg-stone-50 px-3 py-2">
            <dt className="text-stone-600">{f.label}</dt>
            <dd className="font-semibold text-stone-900" data-testid={f.testId}>
              {f.value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
