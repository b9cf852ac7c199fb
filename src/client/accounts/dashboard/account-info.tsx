import '../../lib/zod-config.js';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ACCOUNT_MESSAGES, AddressInput, ContactInfoInput, formatPhone } from '../../../shared/schemas/account.js';
import { formatAddress } from '../../../shared/address.js';
import type { Address, SessionUser } from '../../../shared/schemas/auth.js';
import { US_STATES } from '../../../shared/schemas/checkout.js';
import { errorMessage } from '../../lib/error-message.js';
import { useSession } from '../../lib/get-session.js';
import { FieldError, FormError, inputClasses, TextField } from '../../ui/form-controls.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { AddressLines } from '../../ui/address-lines.js';
import { toast } from '../../ui/toast.js';
import { saveAddress, updateContactInfo, type AddressKind } from './api.js';
import { Panel } from './panel.js';

const ADDRESS_TEXTS: Record<AddressKind, { title: string; saved: string; failed: string }> = {
  shipping: { title: 'Shipping Address', saved: ACCOUNT_MESSAGES.shippingSaved, failed: ACCOUNT_MESSAGES.shippingFailed },
  billing: { title: 'Billing Address', saved: ACCOUNT_MESSAGES.billingSaved, failed: ACCOUNT_MESSAGES.billingFailed },
};

/** The first problem zod found, as the form's one inline message. */
function firstIssue(error: { issues: readonly { message: string }[] }): string {
  return error.issues[0]?.message ?? ACCOUNT_MESSAGES.requiredFields;
}

const CONTACT_LABELS = { fullName: 'Full Name', email: 'Email', phone: 'Phone' } as const;
const ADDRESS_LABELS = { name: 'Name', address: 'Street Address', city: 'City', state: 'State', zip: 'ZIP' } as const;

type ZodIssues = { issues: readonly { path: readonly PropertyKey[]; message: string }[] };

/** Each field zod found wrong, with its first problem; a missing one reads '{Label} is required'. */
function issuesByField(error: ZodIssues | undefined, labels: Readonly<Record<string, string>>): Partial<Record<string, string>> {
  const out: Partial<Record<string, string>> = {};
  for (const issue of error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    if (!field || out[field] !== undefined) continue;
    out[field] = issue.message === ACCOUNT_MESSAGES.requiredFields ? `${labels[field] ?? 'This field'} is required` : issue.message;
  }
  return out;
}

/**
 * Which fields show as wrong: only those that really are, once the person left a field they
 * filled in (blur) or tried to save. A field filled in correctly is never outlined, whatever is
 * wrong elsewhere in the form.
 */
function useFieldChecks(issues: Partial<Record<string, string>>) {
  const [attempted, setAttempted] = useState(false);
  const [left, setLeft] = useState<ReadonlySet<string>>(() => new Set());
  return {
    attempted,
    attempt: () => setAttempted(true),
    /** The field's problem to show, if any. */
    shown: (field: string): string | undefined => (attempted || left.has(field) ? issues[field] : undefined),
    /** onBlur: a field left with something typed in it is checked from now on. */
    leave: (field: string) => (e: { currentTarget: { value: string } }) => {
      if (e.currentTarget.value.trim() !== '' && !left.has(field)) setLeft(new Set(left).add(field));
    },
  };
}

function FormActions({ pending, onCancel }: { pending: boolean; onCancel: () => void }) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Button variant="ghost" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? 'Saving...' : 'Save'}
      </Button>
    </div>
  );
}

function ContactForm({ user, onDone }: { user: SessionUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [fullName, setFullName] = useState(user.fullName);
  const [email, setEmail] = useState(user.email);
  const [phone, setPhone] = useState(formatPhone(user.phone ?? ''));
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const { impersonatorEmail } = useSession();
  // A new e-mail needs the current password (the server insists too); the field shows only then.
  const emailChanged = email.trim().toLowerCase() !== user.email;
  const checked = ContactInfoInput.safeParse({ fullName, email, phone });
  const checks = useFieldChecks(issuesByField(checked.error, CONTACT_LABELS));
  // The form's message: what the server said, or (after a try) the first problem still there.
  const shownError = error ?? (checks.attempted && checked.error ? firstIssue(checked.error) : null);
  const errorId = shownError ? `${id}-error` : undefined;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    checks.attempt();
    setError(null);
    const parsed = checked;
    if (!parsed.success) {
      const first = parsed.error.issues[0]?.path[0];
      document.getElementById(`${id}-${first === 'fullName' ? 'name' : String(first)}`)?.focus();
      return;
    }
    if (emailChanged && !currentPassword) {
      setError(ACCOUNT_MESSAGES.currentPasswordRequired);
      document.getElementById(`${id}-current-password`)?.focus();
      return;
    }
    setError(null);
    setPending(true);
    try {
      await updateContactInfo(queryClient, {
        fullName: parsed.data.fullName,
        email: parsed.data.email,
        phone: parsed.data.phone,
        ...(emailChanged ? { currentPassword } : {}),
      });
      toast({ title: ACCOUNT_MESSAGES.contactSaved });
      onDone();
    } catch (err) {
      const message = errorMessage(err, ACCOUNT_MESSAGES.contactFailed);
      setError(message);
      toast({
        title: ACCOUNT_MESSAGES.contactFailed,
        description: message === ACCOUNT_MESSAGES.contactFailed ? undefined : message,
        variant: 'destructive',
      });
      setPending(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      <FormError id={`${id}-error`} message={shownError} />
      <TextField
        id={`${id}-name`}
        label={CONTACT_LABELS.fullName}
        autoComplete="name"
        required
        value={fullName}
        onChange={(e) => setFullName(e.target.value)}
        onBlur={checks.leave('fullName')}
        error={checks.shown('fullName')}
      />
      <TextField
        id={`${id}-email`}
        label={CONTACT_LABELS.email}
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        onBlur={checks.leave('email')}
        error={checks.shown('email')}
      />
      {emailChanged && (
        <div className="flex flex-col gap-1">
          <TextField
            id={`${id}-current-password`}
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            errorId={
              error === ACCOUNT_MESSAGES.currentPasswordRequired || error === ACCOUNT_MESSAGES.currentPasswordWrong ? errorId : undefined
            }
            aria-describedby={[errorId, `${id}-current-password-hint`].filter(Boolean).join(' ')}
          />
          <p id={`${id}-current-password-hint`} className="text-xs text-stone-600">
            {impersonatorEmail
              ? `Enter your own password (${impersonatorEmail}) to change this customer's email.`
              : 'Enter your current password to change your email.'}
          </p>
        </div>
      )}
      <TextField
        id={`${id}-phone`}
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder="(555) 123-4567"
        value={phone}
        onChange={(e) => setPhone(formatPhone(e.target.value))}
        onBlur={checks.leave('phone')}
        error={checks.shown('phone')}
      />
      <FormActions pending={pending} onCancel={onDone} />
    </form>
  );
}

function AddressForm({ kind, user, onDone }: { kind: AddressKind; user: SessionUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const texts = ADDRESS_TEXTS[kind];
  const current = kind === 'shipping' ? user.shippingAddress : user.billingAddress;
  const [values, setValues] = useState({
    name: current?.name ?? user.fullName,
    address: current?.address ?? '',
    city: current?.city ?? '',
    state: current?.state ?? '',
    zip: current?.zip ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const checked = AddressInput.safeParse({ ...values, country: 'US' });
  const checks = useFieldChecks(issuesByField(checked.error, ADDRESS_LABELS));
  // The form's message: what the server said, or (after a try) the first problem still there.
  const shownError = error ?? (checks.attempted && checked.error ? firstIssue(checked.error) : null);
  const stateError = checks.shown('state');

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    checks.attempt();
    setError(null);
    const parsed = checked;
    if (!parsed.success) {
      document.getElementById(`${id}-${String(parsed.error.issues[0]?.path[0])}`)?.focus();
      return;
    }
    setError(null);
    setPending(true);
    try {
      await saveAddress(queryClient, kind, { ...parsed.data });
      toast({ title: texts.saved });
      onDone();
    } catch (err) {
      const message = errorMessage(err, texts.failed);
      setError(message);
      toast({ title: texts.failed, description: message === texts.failed ? undefined : message, variant: 'destructive' });
      setPending(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      <FormError id={`${id}-error`} message={shownError} />
      <TextField
        id={`${id}-name`}
        label={ADDRESS_LABELS.name}
        autoComplete="name"
        required
        value={values.name}
        onChange={set('name')}
        onBlur={checks.leave('name')}
        error={checks.shown('name')}
      />
      <TextField
        id={`${id}-address`}
        label={ADDRESS_LABELS.address}
        autoComplete="street-address"
        required
        value={values.address}
        onChange={set('address')}
        onBlur={checks.leave('address')}
        error={checks.shown('address')}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id={`${id}-city`}
          label={ADDRESS_LABELS.city}
          autoComplete="address-level2"
          required
          value={values.city}
          onChange={set('city')}
          onBlur={checks.leave('city')}
          error={checks.shown('city')}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-state`} className="text-sm font-medium text-stone-800">
            {ADDRESS_LABELS.state}
          </label>
          <select
            id={`${id}-state`}
            autoComplete="address-level1"
            required
            value={values.state}
            onChange={set('state')}
            onBlur={checks.leave('state')}
            aria-invalid={stateError ? true : undefined}
            aria-describedby={stateError ? `${id}-state-error` : undefined}
            className={inputClasses(Boolean(stateError))}
          >
            <option value="">Select a state</option>
            {US_STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
          {stateError && <FieldError id={`${id}-state-error`} message={stateError} />}
        </div>
        <TextField
          id={`${id}-zip`}
          label={ADDRESS_LABELS.zip}
          inputMode="numeric"
          autoComplete="postal-code"
          required
          value={values.zip}
          onChange={set('zip')}
          onBlur={checks.leave('zip')}
          error={checks.shown('zip')}
        />
      </div>
      <FormActions pending={pending} onCancel={onDone} />
    </form>
  );
}

function AddressText({ address }: { address: Address | null }) {
  if (!address) return <p className="text-stone-600">Not set</p>;
  return <AddressLines lines={formatAddress(address, { country: false })} className="text-stone-900" />;
}

function InfoBlock({ label, children, action }: { label: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-stone-200 p-4">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold uppercase tracking-wide text-stone-600">{label}</h3>
        {action}
      </div>
      {children}
    </div>
  );
}

type Editing = 'contact' | AddressKind | null;

/** Name, e-mail, phone and the saved addresses, each editable in a dialog. */
export function AccountInfoCard({ user }: { user: SessionUser }) {
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);
  const editButton = (what: Exclude<Editing, null>, label: string) => (
    <Button variant="outline" size="sm" onClick={() => setEditing(what)} aria-label={label}>
      Edit
    </Button>
  );

  return (
    <Panel title="Account Information">
      <div className="grid gap-4 md:grid-cols-3">
        <InfoBlock label="Contact" action={editButton('contact', 'Edit Contact Information')}>
          <dl className="flex flex-col gap-2 text-sm">
            <div>
              <dt className="text-stone-600">Name</dt>
              <dd className="font-medium text-stone-900">{user.fullName}</dd>
            </div>
            <div>
              <dt className="text-stone-600">Email</dt>
              <dd className="break-all font-medium text-stone-900">{user.email}</dd>
            </div>
            <div>
              <dt className="text-stone-600">Phone</dt>
              <dd className="font-medium text-stone-900" data-testid="account-phone">
                {user.phone ? formatPhone(user.phone) : 'Not set'}
              </dd>
            </div>
          </dl>
        </InfoBlock>
        <InfoBlock label="Shipping Address" action={editButton('shipping', 'Edit Shipping Address')}>
          <div className="text-sm" data-testid="account-shipping-address">
            <AddressText address={user.shippingAddress} />
          </div>
        </InfoBlock>
        <InfoBlock label="Billing Address" action={editButton('billing', 'Edit Billing Address')}>
          <div className="text-sm" data-testid="account-billing-address">
            <AddressText address={user.billingAddress} />
          </div>
        </InfoBlock>
      </div>

      <Dialog open={editing === 'contact'} onClose={close} title="Contact Information">
        <ContactForm user={user} onDone={close} />
      </Dialog>
      <Dialog open={editing === 'shipping'} onClose={close} title={ADDRESS_TEXTS.shipping.title}>
        <AddressForm kind="shipping" user={user} onDone={close} />
      </Dialog>
      <Dialog open={editing === 'billing'} onClose={close} title={ADDRESS_TEXTS.billing.title}>
        <AddressForm kind="billing" user={user} onDone={close} />
      </Dialog>
    </Panel>
  );
}
