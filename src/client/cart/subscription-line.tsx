import { subscriptionLineText } from '../../shared/subscription-words.js';

/**
 * What a subscription line says under its title in the cart, the checkout and the confirmation
 * (issue [4/8]): "Every 4 weeks · 10% off". Nothing for a line bought once.
 */
export function SubscriptionLineNote({
  everyWeeks,
  discountPercent,
  className = '',
}: {
  everyWeeks: number | null | undefined;
  discountPercent: number | null | undefined;
  className?: string;
}) {
  if (!everyWeeks) return null;
  return (
    <p className={`text-sm font-medium text-brand-800 ${className}`} data-subscription-line="">
      {subscriptionLineText(everyWeeks, discountPercent ?? 0)}
    </p>
  );
}

/** A subscription line's words in a label ("Quantity of Laundry Powder, every 4 weeks"), to tell it from the same product bought once. */
export function lineLabelName(name: string, everyWeeks: number | null | undefined): string {
  return everyWeeks ? `${name}, ${everyWeeks === 1 ? 'every week' : `every ${everyWeeks} weeks`}` : name;
}
