import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { tabForKey } from '../ui/roving-tabs.js';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { MailIcon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { useSession } from '../lib/get-session.js';
import { ResetRequestForm } from './reset-request-form.js';
import { useSignIn } from './api/sign-in.js';
import { useSignUp } from './api/sign-up.js';
import { AUTH_MESSAGES, AuthTabResetRequestForm, PASSWORD_RULES, SignInInput, SignUpInput } from '../lib/auth-schemas.js';
import { Card, DecoyField, FormError, SubmitButton, TextField } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';
import { safeRedirectPath } from '../lib/safe-redirect.js';
import { useBotGuard } from '../lib/use-bot-guard.js';
import { maxLengths } from '../../shared/schemas/limits.js';

const SIGN_IN_MAX = maxLengths(SignInInput);
const SIGN_UP_MAX = maxLengths(SignUpInput);

type Tab = 'signin' | 'signup' | 'reset';

const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'signin', label: 'Sign In' },
  { id: 'signup', label: 'Sign Up' },
  { id: 'reset', label: 'Reset' },
];

function toTab(value: string | null): Tab {
  return value === 'signup' || value === 'reset' ? value : 'signin';
}

const SIGN_IN_FAILED = 'Failed to sign in. Please check your credentials.';
const SIGN_UP_FAILED = 'Failed to sign up. Please try again.';

/** Spec section 8: some sign-up failures are reworded for people. */
export function signUpErrorText(message: string): string {
  if (message.includes('Database error')) return 'There was an issue creating your account. Please contact support if this continues.';
  if (message.includes('already registered')) return 'An account with this email already exists. Please sign in instead.';
  return message || SIGN_UP_FAILED;
}

export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const tab = toTab(params.get('tab'));
  const redirectTo = safeRedirectPath(params.get('redirect'));
  const navigate = useNavigate();
  const { user, isLoading } = useSession();
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  // Someone already signed in when the page opens has nothing to do here. Only the first answer
  // counts: after signing in on this page, the form itself says welcome and moves on.
  const checked = useRef(false);
  useEffect(() => {
    if (checked.current || isLoading) return;
    checked.current = true;
    if (!user) return;
    toast({ title: `Logged in as: ${user.role} (${user.email})` });
    void navigate(redirectTo, { replace: true });
  }, [isLoading, user, navigate, redirectTo]);

  const selectTab = (next: Tab, focus = false) => {
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.set('tab', next);
        return p;
      },
      { replace: true },
    );
    if (focus) tabRefs.current[next]?.focus();
  };

  const onTabKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const target = tabForKey(e.key, TABS, tab);
    if (!target) return;
    e.preventDefault();
    selectTab(target.id, true);
  };

  // Signing in here: the form decides where to go next, not the "already signed in" check.
  const claimNavigation = () => {
    checked.current = true;
  };

  const done = (title: string, description: string) => {
    toast({ title, description });
    void navigate(redirectTo, { replace: true });
  };

  const tabId = (t: Tab) => `${baseId}-tab-${t}`;
  const panelId = (t: Tab) => `${baseId}-panel-${t}`;

  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <Card className="w-full max-w-md">
        <h1 className="mb-6 text-center text-2xl font-bold text-stone-900">Welcome</h1>
        <div role="tablist" aria-label="Account" className="mb-6 grid grid-cols-3 gap-1 rounded-lg bg-stone-100 p-1">
          {TABS.map((t) => {
            const selected = t.id === tab;
            return (
              <button
                key={t.id}
                ref={(el) => {
                  tabRefs.current[t.id] = el;
                }}
                type="button"
                role="tab"
                id={tabId(t.id)}
                aria-selected={selected}
                aria-controls={panelId(t.id)}
                tabIndex={selected ? 0 : -1}
                onClick={() => selectTab(t.id)}
                onKeyDown={onTabKeyDown}
                className={`rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                  selected ? 'bg-white text-stone-900 shadow-sm' : 'text-stone-700 hover:text-stone-900'
                }`}
              >
                {t.label}
              </button>
            );
          })}
        </div>
        <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)}>
          {/* Keyed by tab: a tab change clears the error and restarts the form timer. */}
          {tab === 'signin' && (
            <SignInForm
              key="signin"
              onStart={claimNavigation}
              onForgot={() => selectTab('reset', true)}
              onDone={() => done('Welcome back!', 'You have successfully signed in.')}
            />
          )}
          {tab === 'signup' && (
            <SignUpForm
              key="signup"
              onStart={claimNavigation}
              onDone={() => done('Welcome!', 'Your account has been created successfully.')}
            />
          )}
          {tab === 'reset' && <ResetForm key="reset" onBack={() => selectTab('signin', true)} />}
        </div>
      </Card>
    </Container>
  );
}

type FormProps = { onStart: () => void; onDone: () => void };

function SignInForm({ onForgot, onStart, onDone }: FormProps & { onForgot: () => void }) {
  const id = useId();
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard('signIn');
  const [error, setError] = useState<string | null>(null);
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(SignInInput), defaultValues: { email: '', password: '', elapsedMs: 0, website: '' } });

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
      <SubmitButton pending={signIn.isPending} label="Sign In" pendingLabel="Signing in..." />
    </form>
  );
}

function SignUpForm({ onStart, onDone }: FormProps) {
  const id = useId();
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard('signUp');
  const [error, setError] = useState<string | null>(null);
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(SignUpInput), defaultValues: { fullName: '', email: '', password: '', elapsedMs: 0, website: '' } });

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
      <DecoyField id={`${id}-website`} />
      <FormError id={`${id}-error`} message={error} />
      <SubmitButton pending={signUp.isPending} label="Sign Up" pendingLabel="Signing up..." />
    </form>
  );
}

function ResetForm({ onBack }: { onBack: () => void }) {
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
