import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../ui/toast.js';
import { useRequestPasswordReset } from './api/request-password-reset.js';
import type { AuthTabResetRequestForm, PasswordResetRequestInput } from '../lib/auth-schemas.js';
import { DecoyField, FormError, SubmitButton, TextField } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';
import { useBotGuard } from '../lib/use-bot-guard.js';

const RESET_FAILED = 'Failed to send reset email. Please try again.';

type Props = {
  /** The body's schema, or the auth tab's form of it (its own empty-address text). */
  schema: typeof PasswordResetRequestInput | typeof AuthTabResetRequestForm;
  /** The toast's description once the link is on its way. */
  sentText: string;
  label: string;
  pendingLabel: string;
  onSent: () => void;
};

/**
 * The request for a reset link: the auth page's reset tab and /password-reset. The address is
 * checked; the decoy field is the only bot guard (no timer: the specification names none here).
 */
export function ResetRequestForm({ schema, sentText, label, pendingLabel, onSent }: Props) {
  const id = useId();
  // No timer here: the specification puts the one-second guard on sign-in and sign-up only.
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard(null);
  const [error, setError] = useState<string | null>(null);
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { email: '', elapsedMs: 0, website: '' } });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const guard = checkBotGuard(e.currentTarget);
    setError(null);
    setValue('elapsedMs', guard.elapsedMs);
    setValue('website', guard.website);
    void handleSubmit((body) => {
      request.mutate(body, {
        onSuccess: () => {
          toast({ title: 'Password Reset Email Sent', description: sentText });
          onSent();
        },
        onError: (err) => {
          const message = errorMessage(err, RESET_FAILED);
          setError(message);
          toast({ title: 'Password Reset Failed', description: message, variant: 'destructive' });
        },
      });
    })(e);
  };

  return (
    <form ref={attachBotGuard} noValidate onSubmit={onSubmit} className="relative flex flex-col gap-4">
      <TextField
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        required
        errorId={error ? `${id}-error` : undefined}
        error={errors.email?.message}
        {...register('email')}
      />
      <DecoyField id={`${id}-website`} />
      <FormError id={`${id}-error`} message={error} />
      <SubmitButton pending={request.isPending} label={label} pendingLabel={pendingLabel} />
    </form>
  );
}
