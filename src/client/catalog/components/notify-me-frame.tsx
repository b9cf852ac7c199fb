import { type ReactNode } from 'react';
import { MailIcon } from '../../ui/icons.js';
import { NOTIFY_ME } from '../stock-text.js';

// The box and the field row the "Notify me" form draws, apart from the form (notify-me-form.tsx,
// loaded later) and its outline while it loads (notify-me.tsx), which both use them.

/** The box around the form, the same while the form's code loads. */
export function NotifyMeFrame({ titleId, variantLabel, children }: { titleId: string; variantLabel?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-4 sm:p-5">
      <div className="flex items-start gap-3">
        <MailIcon size={20} className="mt-0.5 shrink-0 text-brand-700" />
        <div className="flex flex-col gap-1">
          <h2 id={titleId} className="font-semibold text-stone-900">
            {NOTIFY_ME.titleFor(variantLabel)}
          </h2>
          <p className="text-sm text-stone-700">{NOTIFY_ME.intro}</p>
        </div>
      </div>
      {children}
    </section>
  );
}

/** The e-mail field and button, as the form draws them (disabled while its code loads). */
export function NotifyMeFields({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {NOTIFY_ME.emailLabel}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">{children}</div>
    </div>
  );
}
