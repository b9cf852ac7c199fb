import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '../ui/button.js';
import { MailIcon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { ResetRequestForm } from './reset-request-form.js';
import { useSignIn } from './api/sign-in.js';
import { useSignUp } from './api/sign-up.js';
import { useRequestSignInLink } from './api/sign-in-link.js';
import {
  AUTH_MESSAGES,
  AuthTabResetRequestForm,
  PASSWORD_RULES,
  SIGN_IN_LINK_MESSAGES,
  SignInInput,
  SignUpInput,
} from '../lib/auth-schemas.js';
import { ApiError } from '../lib/api-client.js';
import { DecoyField, FormError, SubmitButton, TextField } from '../ui/form-controls.js';
import { MarketingConsentBox } from '../ui/marketing-consent.js';
import { errorMessage } from '../lib/error-message.js';
import { useBotGuard } from '../lib/use-bot-guard.js';
import { maxLengths } from '../../shared/schemas/limits.js';

const SIGN_IN_MAX = maxLengths(SignInInput);
const SIGN_UP_MAX = maxLengths(SignUpInput);

const SIGN_IN_FAILED = 'Failed to sign in. Please check your credentials.';
const SIGN_UP_FAILED = 'Failed to sign up. Please try again.';

/** Spec section 8: some sign-up failures are reworded for people. */
export function signUpErrorText(message: string): string {
  if (message.includes('Database error')) return 'There was an issue creating your account. Please contact support if this continues.';
  if (message.includes('already registered')) return 'An account with this email already exists. Please sign in instead.';
  return message || SIGN_UP_FAILED;
}

/** Offered when sign-in is refused for too many attempts: a link to the mailbox lets this browser in. */
function SignInLinkOffer({ email }: { email: string }) {
  const id = useId();
  const request = useRequestSignInLink();
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (sent) {
    return (
      <p role="status" className="rounded-md bg-brand-50 px-3 py-2 text-sm font-medium text-brand-900">
        {sent}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3 rounded-md border border-stone-200 px-3 py-3 text-sm text-stone-700">
      <p id={`${id}-offer`}>{SIGN_IN_LINK_MESSAGES.offer}</p>
      <Button
        variant="outline"
        aria-describedby={`${id}-offer`}
        disabled={request.isPending}
        onClick={() => {
          setError(null);
          request.mutate(
            { email },
            {
              onSuccess: () => setSent(SIGN_IN_LINK_MESSAGES.sent(email)),
              onError: (err) => setError(errorMessage(err, SIGN_IN_LINK_MESSAGES.invalid)),
            },
          );
        }}
      >
        {request.isPending ? 'Sending...' : SIGN_IN_LINK_MESSAGES.send}
      </Button>
      <FormError id={`${id}-error`} message={error} />
    </div>
  );
}

export type FormProps = { onStart: () => void; onDone: () => void };

export function SignInForm({ onForgot, onStart, onDone, initialEmail }: FormProps & { onForgot: () => void; initialEmail: string }) {
  const id = useId();
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard('signIn');
  const [error, setError] = useState<string | null>(null);
  // Refused for too many attempts: the address it was refused for, to offer a sign-in link to.
  const [limitedEmail, setLimitedEmail] = useState<string | null>(null);
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(SignInInput), defaultValues: { email: initialEmail, password: '', elapsedMs: 0, website: '' } });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const guard = checkBotGuard(e.currentTarget);
    if (guard.automated) return setError(AUTH_MESSAGES.tryAgain);
    setError(null);
    setValue('elapsedMs', guard.elapsedMs);
    setValue('website', guard.website);
    void handleSubmit((body) => {
      onStart();
      signIn.mutate(body, {
        onSuccess: onDone,
        onError: (err) => {
          const message = errorMessage(err, SIGN_IN_FAILED);
          setLimitedEmail(err instanceof ApiError && err.status === 429 ? body.email : null);
          setError(message);
          toast({ title: 'Error signing in', description: message, variant: 'destructive' });
        },
      });
    })(e);
  };

  const errorId = error ? `${id}-error` : undefined;
  return (
    <form ref={attachBotGuard} noValidate onSubmit={onSubmit} className="relative flex flex-col gap-4">
      <TextField
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        required
        maxLength={SIGN_IN_MAX.email}
        errorId={errorId}
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={SIGN_IN_MAX.password}
        errorId={errorId}
        error={errors.password?.message}
        {...register('password')}
        action={
          <button
            type="button"
            onClick={onForgot}
            className="rounded text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            Forgot password?
          </button>
        }
      />
      <DecoyField id={`${id}-website`} />
      <FormError id={`${id}-error`} message={error} />
      {limitedEmail && <SignInLinkOffer key={limitedEmail} email={limitedEmail} />}
      <SubmitButton pending={signIn.isPending} label="Sign In" pendingLabel="Signing in..." />
    </form>
  );
}

export function SignUpForm({ onStart, onDone }: FormProps) {
  const id = useId();
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard('signUp');
  const [error, setError] = useState<string | null>(null);
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
    control,
  } = useForm({
    resolver: zodResolver(SignUpInput),
    defaultValues: { fullName: '', email: '', password: '', marketing: false, elapsedMs: 0, website: '' },
  });

  const marketing = useWatch({ control, name: 'marketing' });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const guard = checkBotGuard(e.currentTarget);
    if (guard.automated) return setError(AUTH_MESSAGES.tryAgain);
    setError(null);
    setValue('elapsedMs', guard.elapsedMs);
    setValue('website', guard.website);
    void handleSubmit((body) => {
      onStart();
      signUp.mutate(body, {
        onSuccess: onDone,
        onError: (err) => {
          const message = signUpErrorText(errorMessage(err, SIGN_UP_FAILED));
          setError(message);
          toast({ title: 'Error signing up', description: message, variant: 'destructive' });
        },
      });
    })(e);
  };

  const errorId = error ? `${id}-error` : undefined;
  return (
    <form ref={attachBotGuard} noValidate onSubmit={onSubmit} className="relative flex flex-col gap-4">
      <TextField
        id={`${id}-name`}
        label="Full Name"
        autoComplete="name"
        required
        maxLength={SIGN_UP_MAX.fullName}
        errorId={errorId}
        error={errors.fullName?.message}
        {...register('fullName')}
      />
      <TextField
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        required
        maxLength={SIGN_UP_MAX.email}
        errorId={errorId}
        error={errors.email?.message}
        {...register('email')}
      />
      <div className="flex flex-col gap-1">
        <TextField
          id={`${id}-password`}
          label="Password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          maxLength={SIGN_UP_MAX.password}
          required
          errorId={errorId}
          error={errors.password?.message}
          {...register('password')}
          aria-describedby={[errors.password ? `${id}-password-error` : errorId, `${id}-rules`].filter(Boolean).join(' ')}
        />
        {/* The rule before the first try, as the Change Password dialog shows its rules. */}
        <p id={`${id}-rules`} className="text-xs text-stone-600">
          {PASSWORD_RULES.signUp}
        </p>
      </div>
      <MarketingConsentBox id={`${id}-marketing`} checked={marketing ?? false} onChange={(v) => setValue('marketing', v)} />
      <DecoyField id={`${id}-website`} />
      <FormError id={`${id}-error`} message={error} />
      <SubmitButton pending={signUp.isPending} label="Sign Up" pendingLabel="Signing up..." />
    </form>
  );
}

export function ResetForm({ onBack }: { onBack: () => void }) {
  const [sent, setSent] = useState(false);
  if (sent) {
    return (
      <div className="flex flex-col items-center gap-4 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <MailIcon size={24} />
        </span>
        <h2 className="text-xl font-semibold text-stone-900">Check your email</h2>
        <p className="text-stone-700">Check your email for a link to reset your password.</p>
        <Button variant="outline" size="lg" className="w-full" onClick={onBack}>
          Back to Sign In
        </Button>
      </div>
    );
  }

  return (
    <ResetRequestForm
      schema={AuthTabResetRequestForm}
      sentText="Check your email for a link to reset your password."
      label="Send Reset Link"
      pendingLabel="Sending..."
      onSent={() => setSent(true)}
    />
  );
}
