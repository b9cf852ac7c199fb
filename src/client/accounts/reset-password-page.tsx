import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { AlertIcon, LockIcon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { useConfirmPasswordReset } from './api/confirm-password-reset.js';
import { useResetTokenStatus } from './api/validate-reset-token.js';
import type { PasswordResetConfirmInput } from '../../shared/schemas/auth.js';
import { AUTH_MESSAGES, NewPasswordForm, PASSWORD_RULES } from '../lib/auth-schemas.js';
import { Card, FormError, SubmitButton, TextField } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';

const INVALID_DEFAULT = 'Please request a new password reset link';

/** The token from ?token=, else from a hash such as #token=… or #access_token=…, with any error the hash reports. */
function readToken(search: URLSearchParams, hash: string): { token: string; hashError: string | null } {
  const fromQuery = search.get('token')?.trim();
  if (fromQuery) return { token: fromQuery, hashError: null };
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  const token = (h.get('token') ?? h.get('access_token') ?? '').trim();
  if (token) return { token, hashError: null };
  if (h.get('error_code') === 'otp_expired') return { token: '', hashError: AUTH_MESSAGES.tokenExpired };
  return { token: '', hashError: null };
}

export default function ResetPasswordPage() {
  const [search] = useSearchParams();
  const { hash } = useLocation();
  const { token, hashError } = readToken(search, hash);
  const [updated, setUpdated] = useState(false);
  // Once the password is updated the token is used up: nothing left to ask the server.
  const status = useResetTokenStatus(updated ? '' : token);

  let body;
  if (updated) body = <Updated />;
  else if (!token) body = <InvalidLink reason={hashError ?? AUTH_MESSAGES.missingToken} />;
  else if (status.isPending)
    body = (
      <p role="status" className="flex items-center justify-center gap-3 py-6 text-stone-700">
        <span
          aria-hidden="true"
          className="h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none"
        />
        Validating reset token...
      </p>
    );
  else if (status.isError) body = <InvalidLink reason={errorMessage(status.error, INVALID_DEFAULT)} />;
  else body = <SetPasswordForm token={token} email={status.data.email} onUpdated={() => setUpdated(true)} />;

  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <Card className="w-full max-w-md">{body}</Card>
    </Container>
  );
}

function InvalidLink({ reason }: { reason: string }) {
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-700">
        <AlertIcon size={24} />
      </span>
      <h1 className="text-2xl font-bold text-stone-900">Invalid Reset Link</h1>
      <p className="text-stone-700">This password reset link is invalid or has expired</p>
      <p role="alert" className="w-full rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
        {reason}
      </p>
      <Link to={paths.passwordReset} className={buttonClasses('primary', 'lg', 'w-full')}>
        Request New Reset Link
      </Link>
    </div>
  );
}

function Updated() {
  return (
    <div role="status" className="flex flex-col items-center gap-4 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <LockIcon size={24} />
      </span>
      <h1 className="text-2xl font-bold text-stone-900">Password updated successfully</h1>
      <Link to={paths.authTab('signin')} className={buttonClasses('primary', 'lg', 'w-full')}>
        Continue to Sign In
      </Link>
    </div>
  );
}

function SetPasswordForm({ token, email, onUpdated }: { token: string; email: string; onUpdated: () => void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirmPasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(NewPasswordForm), defaultValues: { token, password: '', confirmPassword: '' } });

  const submit = (body: PasswordResetConfirmInput) => {
    setError(null);
    confirm.mutate(body, {
      onSuccess: () => {
        toast({
          title: 'Password Reset Successful',
          description: 'Your password has been updated. You can now sign in with your new password.',
        });
        onUpdated();
      },
      onError: (err) => {
        const message = errorMessage(err, 'Failed to reset password');
        setError(message);
        toast({ title: 'Error', description: message, variant: 'destructive' });
      },
    });
  };

  const errorId = error ? `${id}-error` : undefined;
  return (
    <>
      <h1 className="mb-2 text-center text-2xl font-bold text-stone-900">Set a New Password</h1>
      <p className="mb-6 text-center text-sm text-stone-700">{email}</p>
      <form noValidate onSubmit={(e) => void handleSubmit(submit)(e)} className="flex flex-col gap-4">
        {/* Tells password managers which account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <div className="flex flex-col gap-1">
          <TextField
            id={`${id}-password`}
            label="New Password"
            type="password"
            autoComplete="new-password"
            required
            errorId={errorId}
            error={errors.password?.message}
            {...register('password')}
            aria-describedby={[errors.password ? `${id}-password-error` : errorId, `${id}-rules`].filter(Boolean).join(' ')}
          />
          {/* The rules before the first try, as the Change Password dialog shows them. */}
          <p id={`${id}-rules`} className="text-xs text-stone-600">
            {PASSWORD_RULES.newPassword}
          </p>
        </div>
        <TextField
          id={`${id}-confirm`}
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          required
          errorId={errorId}
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <FormError id={`${id}-error`} message={error} />
        <SubmitButton pending={confirm.isPending} label="Update Password" pendingLabel="Updating..." />
      </form>
    </>
  );
}
