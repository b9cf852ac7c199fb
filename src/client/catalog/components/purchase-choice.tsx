import { useId } from 'react';
import { formatCents } from '../../../shared/money.js';
import type { SubscriptionPlanView } from '../../../shared/schemas/catalog.js';
import {
  discountedCents,
  everyWeeksText,
  laterDiscountText,
  ONE_TIME_PURCHASE,
  subscribeChoiceText,
  SUBSCRIPTION_TEXTS,
} from '../../../shared/subscription-words.js';

/** How the shopper buys the chosen variant: once, or as a subscription delivered every `everyWeeks`. */
export type Purchase = { mode: 'once' } | { mode: 'subscribe'; everyWeeks: number };

export const ONCE: Purchase = { mode: 'once' };

/**
 * The purchase as it applies to this plan: a subscription keeps its interval when the plan offers
 * it, else takes the plan's first (a variant chosen since may offer other intervals); without a
 * plan there is only buying once.
 */
export function purchaseFor(purchase: Purchase, plan: SubscriptionPlanView | null | undefined): Purchase {
  if (purchase.mode === 'once' || !plan || plan.intervals.length === 0) return ONCE;
  return plan.intervals.includes(purchase.everyWeeks) ? purchase : { mode: 'subscribe', everyWeeks: plan.intervals[0]! };
}

/** What one delivery costs bought this way: the variant's price, less the plan's first-delivery discount when subscribing. */
export function purchasePriceCents(priceCents: number, purchase: Purchase, plan: SubscriptionPlanView | null | undefined): number {
  return purchase.mode === 'subscribe' && plan ? discountedCents(priceCents, plan.discountPercent) : priceCents;
}

const optionClasses = (checked: boolean) =>
  `flex cursor-pointer items-start gap-3 rounded-md border p-3 transition-colors ${
    checked ? 'border-brand-700 bg-brand-50' : 'border-stone-300 bg-white hover:border-brand-600'
  }`;

/**
 * Subscribe and save on the product page (issue [4/8]), under the variant picker: "One-time
 * purchase" or "Subscribe and save N%", the intervals the chosen variant's plan offers ("Deliver
 * every"), and the price per delivery (with the plan's later discount, if any). Drawn only when the
 * chosen variant has a plan.
 */
export function PurchaseChoice({
  plan,
  priceCents,
  purchase,
  onChange,
}: {
  plan: SubscriptionPlanView;
  priceCents: number;
  purchase: Purchase;
  onChange: (purchase: Purchase) => void;
}) {
  const id = useId();
  const subscribing = purchase.mode === 'subscribe';
  const weeks = purchase.mode === 'subscribe' ? purchase.everyWeeks : plan.intervals[0]!;
  const perDelivery = discountedCents(priceCents, plan.discountPercent);
  const later =
    plan.laterDiscountPercent !== null && plan.laterFromDelivery !== null
      ? `${laterDiscountText(plan.laterDiscountPercent, plan.laterFromDelivery)}: ${formatCents(discountedCents(priceCents, plan.laterDiscountPercent))}`
      : null;
  return (
    <fieldset className="flex flex-col gap-2" data-purchase-choice="">
      <legend className="sr-only">How to buy</legend>
      <div className={optionClasses(!subscribing)}>
        <input
          id={`${id}-once`}
          type="radio"
          name={`${id}-purchase`}
          checked={!subscribing}
          onChange={() => onChange(ONCE)}
          className="mt-1 h-4 w-4 accent-brand-700"
        />
        <label htmlFor={`${id}-once`} className="flex flex-1 cursor-pointer flex-wrap items-baseline justify-between gap-x-3">
          <span className="font-medium text-stone-900">{ONE_TIME_PURCHASE}</span>
          <span className="text-stone-700">{formatCents(priceCents)}</span>
        </label>
      </div>
      <div className={optionClasses(subscribing)}>
        <input
          id={`${id}-subscribe`}
          type="radio"
          name={`${id}-purchase`}
          checked={subscribing}
          onChange={() => onChange({ mode: 'subscribe', everyWeeks: weeks })}
          className="mt-1 h-4 w-4 accent-brand-700"
        />
        <div className="flex flex-1 flex-col gap-2">
          <label htmlFor={`${id}-subscribe`} className="flex cursor-pointer flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-medium text-stone-900">{subscribeChoiceText(plan.discountPercent)}</span>
            <span className="font-semibold text-brand-700" data-subscription-price="">
              {formatCents(perDelivery)} <span className="text-sm font-normal text-stone-700">{SUBSCRIPTION_TEXTS.perDelivery}</span>
            </span>
          </label>
          {later && <p className="text-sm text-stone-700">{later}</p>}
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={`${id}-weeks`} className="text-sm font-medium text-stone-800">
              {SUBSCRIPTION_TEXTS.deliverEvery}
            </label>
            <select
              id={`${id}-weeks`}
              value={weeks}
              // Choosing an interval is choosing to subscribe.
              onChange={(e) => onChange({ mode: 'subscribe', everyWeeks: Number(e.target.value) })}
              className="h-10 rounded-md border border-stone-300 bg-white px-3 text-base text-stone-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 sm:text-sm"
            >
              {plan.intervals.map((w) => (
                <option key={w} value={w}>
                  {everyWeeksText(w)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
    </fieldset>
  );
}
