/**
 * The "Notify me when it's back" form (a lazy chunk: see notify-me.tsx). zod-config must run
 * before any schema is created, hence the first import.
 */
import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useId, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { queryKeys } from '../../../shared/query-keys.js';
import { BackInStockInput } from '../../../shared/schemas/inventory.js';
import { ApiError } from '../../lib/api-client.js';
import { errorMessage } from '../../lib/error-message.js';
import { useHydrated } from '../../lib/use-hydrated.js';
import { Button } from '../../ui/button.js';
import { fieldAria, inputClasses } from '../../ui/form-controls.js';
import { useNotifyBackInStock } from '../api/notify-back-in-stock.js';
import { NOTIFY_ME } from '../stock-text.js';
import { NotifyMeFields, NotifyMeFrame } from './notify-me-frame.js';

export default function NotifyMeForm({
  productId,
  variantId,
  variantLabel,
}: {
  productId: string;
  variantId?: string;
  variantLabel?: string;
}) {
  const id = useId();
  const emailId = `${id}-email`;
  const messageId = `${id}-message`;
  const queryClient = useQueryClient();
  const notify = useNotifyBackInStock(productId, variantId);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(BackInStockInput), defaultValues: { email: '' } });
  // Server-rendered: the field waits for the browser's code, so nothing typed before it runs is lost.
  const hydrated = useHydrated();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (notify.isPending) return;
    void handleSubmit((body) =>
      notify.mutate(body, {
        onError: (err) => {
          // 409: it is in stock again (someone restocked it meanwhile): show the page as it is now.
          if (err instanceof ApiError && err.status === 409) void queryClient.invalidateQueries({ queryKey: queryKeys.product(productId) });
        },
      }),
    )(e);
  };

  if (notify.isSuccess) {
    return (
      <NotifyMeFrame titleId={`${id}-title`} variantLabel={variantLabel}>
        <p role="status" className="rounded-md bg-brand-50 px-3 py-2 text-sm font-medium text-brand-900">
          {notify.data.message}
        </p>
      </NotifyMeFrame>
    );
  }

  const fieldError = errors.email?.message;
  const serverError = notify.isError ? errorMessage(notify.error, NOTIFY_ME.failed) : undefined;
  return (
    <NotifyMeFrame titleId={`${id}-title`} variantLabel={variantLabel}>
      <form noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
        <fieldset disabled={!hydrated} className="flex min-w-0 flex-col gap-2">
          <NotifyMeFields id={emailId}>
            <input
              id={emailId}
              type="email"
              autoComplete="email"
              maxLength={254}
              required
              {...register('email')}
              {...fieldAria(fieldError ?? serverError, messageId)}
              className={inputClasses(Boolean(fieldError ?? serverError))}
            />
            <Button type="submit" disabled={notify.isPending} aria-busy={notify.isPending} className="sm:w-auto">
              {notify.isPending ? NOTIFY_ME.pending : NOTIFY_ME.submit}
            </Button>
          </NotifyMeFields>
          {(fieldError ?? serverError) && (
            <p id={messageId} role="alert" className="text-sm text-red-700">
              {fieldError ?? serverError}
            </p>
          )}
        </fieldset>
      </form>
    </NotifyMeFrame>
  );
}
