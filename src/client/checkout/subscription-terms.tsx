import { useId, useState, type Ref } from 'react';
import type { QuoteLine } from '../../shared/schemas/checkout.js';
import { subscriptionTerms, SUBSCRIPTION_MESSAGES, SUBSCRIPTION_TEXTS } from '../../shared/subscription-words.js';

/** Whether the priced cart asks for a subscription (a line with an interval its plan offers). */
export function hasSubscriptionLines(lines: readonly QuoteLine[] | undefined): boolean {
  return (lines ?? []).some((l) => l.everyWeeks != null && !l.missing && !l.isFreeGift);
}

/** The time the terms are drawn for: fixed once per page, so the first renewal date does not move while the shopper reads. */
export function useTermsTime(): string {
  const [now] = useState(() => new Date().toISOString());
  return now;
}

/**
 * The subscription terms next to Pay (issue [4/8]), drawn by the same function the server keeps
 * the consent with (shared/subscription-words.ts subscriptionTerms): per subscription what each
 * delivery costs, how often, until cancelled, the first renewal date and how to cancel online.
 * Then the box the shopper must tick themselves (never ticked for them); `showMissing` says why
 * Pay did nothing.
 */
export function SubscriptionTerms({
  lines,
  now,
  agreed,
  onAgree,
  showMissing,
  checkboxRef,
}: {
  lines: readonly QuoteLine[];
  now: string;
  agreed: boolean;
  onAgree: (agreed: boolean) => void;
  showMissing: boolean;
  checkboxRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const { groups, closing } = subscriptionTerms(lines, now);
  if (groups.length === 0) return null;
  const missing = showMissing && !agreed;
  return (
    <div className="mb-5 flex flex-col gap-3 rounded-lg border border-brand-200 bg-brand-50/60 p-4" data-subscription-terms="">
      <h3 id={`${id}-title`} className="font-semibold text-stone-900">
        {SUBSCRIPTION_TEXTS.termsTitle}
      </h3>
      <div id={`${id}-terms`} className="flex flex-col gap-3 text-sm text-stone-800">
        {groups.map((g) => (
          <div key={`${g.everyWeeks}|${g.paragraphs[0]}`} className="flex flex-col gap-1">
            {g.paragraphs.map((p, i) => (
              <p key={i} className={i === 0 ? 'font-medium text-stone-900' : ''}>
                {p}
              </p>
            ))}
          </div>
        ))}
        <p>{closing}</p>
      </div>
      <label className="flex cursor-pointer items-start gap-3 text-sm font-medium text-stone-900">
        <input
          ref={checkboxRef}
          type="checkbox"
          checked={agreed}
          onChange={(e) => onAgree(e.target.checked)}
          aria-describedby={missing ? `${id}-missing ${id}-terms` : `${id}-terms`}
          aria-invalid={missing ? true : undefined}
          className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
          data-testid="subscription-consent"
        />
        <span>{SUBSCRIPTION_TEXTS.agree}</span>
      </label>
      <p id={`${id}-missing`} role="alert" className={missing ? 'text-sm font-medium text-red-700' : 'sr-only'}>
        {missing ? SUBSCRIPTION_MESSAGES.consentMissing : ''}
      </p>
    </div>
  );
}
