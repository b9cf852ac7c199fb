import { MARKETING_CONSENT_HINT, MARKETING_CONSENT_LABEL } from '../../shared/marketing-consent.js';

/** The unticked "Send me offers and reminders" box of sign-up and checkout (issue [7/8]): consent is a tick, never a default. */
export function MarketingConsentBox({ id, checked, onChange }: { id: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3 text-sm font-medium text-stone-900">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`${id}-hint`}
          className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
        />
        <span>{MARKETING_CONSENT_LABEL}</span>
      </label>
      <p id={`${id}-hint`} className="pl-8 text-xs text-stone-600">
        {MARKETING_CONSENT_HINT}
      </p>
    </div>
  );
}
