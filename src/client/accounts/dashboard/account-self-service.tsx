import '../../lib/zod-config.js';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ChangePasswordInput, DeleteAccountInput, SELF_SERVICE_MESSAGES } from '../../../shared/schemas/account-self-service.js';
import type { SessionUser } from '../../../shared/schemas/auth.js';
import { applySession, SIGNED_OUT, useSession } from '../../lib/get-session.js';
import { errorMessage } from '../../lib/error-message.js';
import { FormError, TextField } from '../../ui/form-controls.js';
import { clearCart } from '../../lib/cart-store.js';
import { paths } from '../../lib/paths.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { Panel } from './panel.js';
import { ACCOUNT_DATA_URL, changePassword, deleteAccount } from './self-service-api.js';

function firstIssue(error: { issues: readonly { message: string }[] }, fallback: string): string {
  return error.issues[0]?.message ?? fallback;
}

function DialogActions({
  pending,
  onCancel,
  label,
  pendingLabel,
  destructive = false,
}: {
  pending: boolean;
  onCancel: () => void;
  label: string;
  pendingLabel: string;
  destructive?: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Button variant="ghost" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" variant={destructive ? 'destructive' : 'primary'} disabled={pending}>
        {pending ? pendingLabel : label}
      </Button>
    </div>
  );
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const errorId = error ? `${id}-error` : undefined;
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ChangePasswordInput.safeParse(values);
    if (!parsed.success) {
      setError(firstIssue(parsed.error, SELF_SERVICE_MESSAGES.passwordChangeFailed));
      return;
    }
    setError(null);
    setPending(true);
    try {
      await changePassword(queryClient, parsed.data);
      toast({ title: SELF_SERVICE_MESSAGES.passwordChanged, description: SELF_SERVICE_MESSAGES.passwordChangedDetail });
      onDone();
    } catch (err) {
      setError(errorMessage(err, SELF_SERVICE_MESSAGES.passwordChangeFailed));
      setPending(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      <FormError id={`${id}-error`} message={error} />
      <TextField
        id={`${id}-current`}
        label="Current Password"
        type="password"
        autoComplete="current-password"
        required
        value={values.currentPassword}
        onChange={set('currentPassword')}
        errorId={errorId}
      />
      <div className="flex flex-col gap-1">
        <TextField
          id={`${id}-new`}
          label="New Password"
          type="password"
          autoComplete="new-password"
          required
          value={values.newPassword}
          onChange={set('newPassword')}
          errorId={errorId}
          aria-describedby={[errorId, `${id}-rules`].filter(Boolean).join(' ')}
        />
        <p id={`${id}-rules`} className="text-xs text-stone-600">
          At least 8 characters, with a lowercase letter, an uppercase letter and a number.
        </p>
      </div>
      <TextField
        id={`${id}-confirm`}
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        required
        value={values.confirmPassword}
        onChange={set('confirmPassword')}
        errorId={errorId}
      />
      <p className="text-sm text-stone-700">Other devices signed in to your account will be signed out.</p>
      <DialogActions pending={pending} onCancel={onDone} label="Update Password" pendingLabel="Updating..." />
    </form>
  );
}

function DeleteAccountForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const errorId = error ? `${id}-error` : undefined;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = DeleteAccountInput.safeParse({ password });
    if (!parsed.success) {
      setError(firstIssue(parsed.error, SELF_SERVICE_MESSAGES.deleteFailed));
      return;
    }
    setError(null);
    setPending(true);
    try {
      await deleteAccount(parsed.data);
    } catch (err) {
      setError(errorMessage(err, SELF_SERVICE_MESSAGES.deleteFailed));
      setPending(false);
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
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
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
      <FormError id={`${id}-error`} message={error} />
      <TextField
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        errorId={errorId}
      />
      <DialogActions pending={pending} onCancel={onDone} label="Delete My Account" pendingLabel="Deleting..." destructive />
    </form>
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
