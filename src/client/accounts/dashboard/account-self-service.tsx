import '../../lib/zod-config.js';
import { useId, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useNavigate } from 'react-router';
import { PASSWORD_RULES } from '../../../shared/schemas/auth.js';
import { ChangePasswordInput, DeleteAccountInput, SELF_SERVICE_MESSAGES } from '../../../shared/schemas/account-self-service.js';
import type { SessionUser } from '../../../shared/schemas/auth.js';
import { applySession, SIGNED_OUT, useSession } from '../../lib/get-session.js';
import { errorMessage } from '../../lib/error-message.js';
import { formLevelError, TextField } from '../../ui/form-controls.js';
import { clearCart } from '../../cart/cart-store.js';
import { paths } from '../../lib/paths.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { DialogActions, DialogForm, Panel } from './panel.js';
import { ACCOUNT_DATA_URL, changePassword, deleteAccount } from './self-service-api.js';

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ChangePasswordInput),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    // The form's one message stays until the next attempt.
    reValidateMode: 'onSubmit',
  });
  const [serverError, setServerError] = useState<string | null>(null);
  // The first problem, as the schema words it: a field's, then the rules for a new password.
  const error =
    serverError ??
    errors.currentPassword?.message ??
    errors.newPassword?.message ??
    errors.confirmPassword?.message ??
    formLevelError(errors) ??
    null;
  const errorId = error ? `${id}-error` : undefined;

  const save = async (body: z.output<typeof ChangePasswordInput>) => {
    try {
      await changePassword(queryClient, body);
      toast({ title: SELF_SERVICE_MESSAGES.passwordChanged, description: SELF_SERVICE_MESSAGES.passwordChangedDetail });
      onDone();
    } catch (err) {
      setServerError(errorMessage(err, SELF_SERVICE_MESSAGES.passwordChangeFailed));
    }
  };

  return (
    <DialogForm
      id={id}
      message={error}
      onSubmit={(e) => {
        setServerError(null);
        return handleSubmit(save)(e);
      }}
    >
      <TextField
        id={`${id}-current`}
        label="Current Password"
        type="password"
        autoComplete="current-password"
        required
        {...register('currentPassword')}
        errorId={errorId}
      />
      <div className="flex flex-col gap-1">
        <TextField
          id={`${id}-new`}
          label="New Password"
          type="password"
          autoComplete="new-password"
          required
          {...register('newPassword')}
          errorId={errorId}
          aria-describedby={[errorId, `${id}-rules`].filter(Boolean).join(' ')}
        />
        <p id={`${id}-rules`} className="text-xs text-stone-600">
          {PASSWORD_RULES.newPassword}
        </p>
      </div>
      <TextField
        id={`${id}-confirm`}
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        required
        {...register('confirmPassword')}
        errorId={errorId}
      />
      <p className="text-sm text-stone-700">Other devices signed in to your account will be signed out.</p>
      <DialogActions pending={isSubmitting} onCancel={onDone} label="Update Password" pendingLabel="Updating..." />
    </DialogForm>
  );
}

function DeleteAccountForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(DeleteAccountInput),
    defaultValues: { password: '' },
    reValidateMode: 'onSubmit',
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const error = serverError ?? errors.password?.message ?? null;
  const errorId = error ? `${id}-error` : undefined;

  const remove = async (body: z.output<typeof DeleteAccountInput>) => {
    try {
      await deleteAccount(body);
    } catch (err) {
      setServerError(errorMessage(err, SELF_SERVICE_MESSAGES.deleteFailed));
      return;
    }
    // The server signed this browser out; nothing of the person stays here. Leave the guarded
    // page first, so it does not send the browser to the sign-in page on its own.
    clearCart();
    toast({ title: SELF_SERVICE_MESSAGES.accountDeleted, description: SELF_SERVICE_MESSAGES.accountDeletedDetail });
    void navigate(paths.home);
    applySession(queryClient, SIGNED_OUT);
  };

  return (
    <DialogForm
      id={id}
      message={error}
      onSubmit={(e) => {
        setServerError(null);
        return handleSubmit(remove)(e);
      }}
      intro={
        <div className="flex flex-col gap-2 text-sm text-stone-800">
          <p className="font-medium text-stone-900">This cannot be undone.</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>Your profile, saved addresses, loyalty points and rewards are removed, and you are signed out.</li>
            <li>
              Orders you paid for stay in the shop’s records, as tax and accounting rules require, with the name and addresses given at
              checkout, but no longer linked to an account. Checkouts that were never paid are removed.
            </li>
          </ul>
          <p>
            You may want to{' '}
            <a href={ACCOUNT_DATA_URL} download className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
              download your data
            </a>{' '}
            first.
          </p>
        </div>
      }
    >
      <TextField
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        {...register('password')}
        errorId={errorId}
      />
      <DialogActions pending={isSubmitting} onCancel={onDone} label="Delete My Account" pendingLabel="Deleting..." destructive />
    </DialogForm>
  );
}

function Row({ title, text, action }: { title: string; text: ReactNode; action: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <h3 className="font-semibold text-stone-900">{title}</h3>
        <p className="text-sm text-stone-700">{text}</p>
      </div>
      <div className="shrink-0">{action}</div>
    </div>
  );
}

type Open = 'password' | 'delete' | null;

/** Change password, download my data, delete my account (docs/decisions/0016). */
export function AccountSelfServiceCard({ user }: { user: SessionUser }) {
  const { impersonatorEmail } = useSession();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  // An admin acting as a customer may read the customer's data, never change their password or delete them.
  const own = !impersonatorEmail;

  return (
    <Panel title="Privacy & Security">
      <div className="flex flex-col divide-y divide-stone-200">
        <Row
          title="Password"
          text={
            own ? 'Change the password you sign in with. Your current password is needed.' : 'Only the customer can change their password.'
          }
          action={
            own && (
              <Button variant="outline" size="sm" onClick={() => setOpen('password')}>
                Change Password
              </Button>
            )
          }
        />
        <Row
          title="Your Data"
          text="A JSON file with your profile, addresses, orders and loyalty points."
          action={
            <a href={ACCOUNT_DATA_URL} download className={buttonClasses('outline', 'sm')}>
              Download My Data
            </a>
          }
        />
        <Row
          title="Delete Account"
          text={
            own
              ? user.role === 'admin'
                ? 'Remove your account and personal data. Another administrator must remain.'
                : 'Remove your account and personal data. Paid orders stay in the shop’s records.'
              : 'Only the customer can delete their account.'
          }
          action={
            own && (
              <Button variant="destructive" size="sm" onClick={() => setOpen('delete')}>
                Delete Account
              </Button>
            )
          }
        />
      </div>

      <Dialog open={open === 'password'} onClose={close} title="Change Password">
        <ChangePasswordForm onDone={close} />
      </Dialog>
      <Dialog open={open === 'delete'} onClose={close} title="Delete Account">
        <DeleteAccountForm onDone={close} />
      </Dialog>
    </Panel>
  );
}
