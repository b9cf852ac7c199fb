import { lazy, Suspense, useId, type ReactNode } from 'react';
import { afterZod } from '../../lib/load-zod.js';
import { Button } from '../../ui/button.js';
import { inputClasses } from '../../ui/form-controls.js';
import { MailIcon } from '../../ui/icons.js';
import { NOTIFY_ME } from '../stock-text.js';

// The form's code and its schema (zod) load only on a sold-out product's page.
const NotifyMeForm = lazy(afterZod(() => import('./notify-me-form.js')));

/** The box around the form, the same while the form's code loads. */
export function NotifyMeFrame({ titleId, children }: { titleId: string; children: ReactNode }) {
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-4 sm:p-5">
      <div className="flex items-start gap-3">
        <MailIcon size={20} className="mt-0.5 shrink-0 text-brand-700" />
        <div className="flex flex-col gap-1">
          <h2 id={titleId} className="font-semibold text-stone-900">
            {NOTIFY_ME.title}
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

function NotifyMeOutline() {
  const id = useId();
  return (
    <NotifyMeFrame titleId={`${id}-title`}>
      <NotifyMeFields id={`${id}-email`}>
        <input id={`${id}-email`} type="email" disabled className={inputClasses()} />
        <Button type="button" disabled className="sm:w-auto">
          {NOTIFY_ME.submit}
        </Button>
      </NotifyMeFields>
    </NotifyMeFrame>
  );
}

/** "Notify me when it's back" on a sold-out product: an e-mail, once, when it is in stock again. */
export function NotifyMe({ productId, variantId }: { productId: string; variantId?: string }) {
  return (
    <Suspense fallback={<NotifyMeOutline />}>
      {/* Keyed: another variant is another request (the form starts again). */}
      <NotifyMeForm key={variantId} productId={productId} variantId={variantId} />
    </Suspense>
  );
}
