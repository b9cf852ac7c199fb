import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { MailIcon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { useRequestPasswordReset } from './api/request-password-reset.js';
import { AUTH_MESSAGES, FORM_MIN_FILL_MS, PasswordResetRequestInput } from '../lib/auth-schemas.js';
import { botGuardValues, Card, DecoyField, FormError, SubmitButton, TextField } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';
import { useFormTimer } from '../lib/use-form-timer.js';

const SENT_TEXT = 'Check your email for instructions to reset your password.';
const RESET_FAILED = 'Failed to send reset email. Please try again.';

export default function PasswordResetPage() {
  const id = useId();
  const elapsed = useFormTimer();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(PasswordResetRequestInput), defaultValues: { email: '', elapsedMs: 0, website: '' } });

  // The address is checked first (an empty one is pointed out at once), the time taken after it.
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const guard = botGuardValues(e.currentTarget, elapsed);
    setError(null);
    setValue('elapsedMs', guard.elapsedMs);
    setValue('website', guard.website);
    void handleSubmit((body) => {
      if (guard.elapsedMs < FORM_MIN_FILL_MS) return setError(AUTH_MESSAGES.tryAgain);
      request.mutate(body, {
        onSuccess: () => {
          setSent(true);
          toast({ title: 'Password Reset Email Sent', description: SENT_TEXT });
        },
        onError: (err) => {
          const message = errorMessage(err, RESET_FAILED);
          setError(message);
          toast({ title: 'Password Reset Failed', description: message, variant: 'destructive' });
        },
      });
    })(e);
  };

  const errorId = error ? `${id}-error` : undefined;
  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <Card className="w-full max-w-md">
        {sent ? (
          <div className="flex flex-col items-center gap-4 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
              <MailIcon size={24} />
            </span>
            <h1 className="text-2xl font-bold text-stone-900">Check your email</h1>
            <p className="text-stone-700">{SENT_TEXT}</p>
            <Link to={paths.auth} className={buttonClasses('outline', 'lg', 'w-full')}>
              Back to Login
            </Link>
          </div>
        ) : (
          <>
            <h1 className="mb-6 text-center text-2xl font-bold text-stone-900">Reset Password</h1>
            <form noValidate onSubmit={onSubmit} className="relative flex flex-col gap-4">
              <TextField
                id={`${id}-email`}
                label="Email"
                type="email"
                autoComplete="email"
                required
                errorId={errorId}
                error={errors.email?.message}
                {...register('email')}
              />
              <DecoyField id={`${id}-website`} />
              <FormError id={`${id}-error`} message={error} />
              <SubmitButton pending={request.isPending} label="Reset Password" pendingLabel="Resetting..." />
            </form>
            <p className="mt-6 text-center text-sm">
              <Link
                to={paths.auth}
                className="rounded font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                Back to Login
              </Link>
            </p>
          </>
        )}
      </Card>
    </Container>
  );
}
