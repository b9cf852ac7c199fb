import { lazy, Suspense, useId } from 'react';
import { afterZod } from '../../lib/load-zod.js';
import { Button } from '../../ui/button.js';
import { inputClasses } from '../../ui/form-controls.js';
import { NOTIFY_ME } from '../stock-text.js';
import { NotifyMeFields, NotifyMeFrame } from './notify-me-frame.js';

// The form's code and its schema (zod) load only on a sold-out product's page.
const NotifyMeForm = lazy(afterZod(() => import('./notify-me-form.js')));

function NotifyMeOutline({ variantLabel }: { variantLabel?: string }) {
  const id = useId();
  return (
    <NotifyMeFrame titleId={`${id}-title`} variantLabel={variantLabel}>
      <NotifyMeFields id={`${id}-email`}>
        <input id={`${id}-email`} type="email" disabled className={inputClasses()} />
        <Button type="button" disabled className="sm:w-auto">
          {NOTIFY_ME.submit}
        </Button>
      </NotifyMeFields>
    </NotifyMeFrame>
  );
}

/**
 * "Notify me when it's back" on a sold-out product: an e-mail, once, when it is in stock again. For
 * a product with options the request is for the variant chosen, and the title names it.
 */
export function NotifyMe({ productId, variantId, variantLabel }: { productId: string; variantId?: string; variantLabel?: string }) {
  return (
    <Suspense fallback={<NotifyMeOutline variantLabel={variantLabel} />}>
      {/* Keyed: another variant is another request (the form starts again). */}
      <NotifyMeForm key={variantId} productId={productId} variantId={variantId} variantLabel={variantLabel} />
    </Suspense>
  );
}
