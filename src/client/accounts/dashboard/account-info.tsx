import '../../lib/zod-config.js';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  useWatch,
  type FieldErrors,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ACCOUNT_MESSAGES, AddressInput, ContactInfoInput, contactInfoForm, formatPhone } from '../../../shared/schemas/account.js';
import { fieldMaxLength } from '../../../shared/schemas/limits.js';
import { formatAddress } from '../../../shared/address.js';
import type { Address, SessionUser } from '../../../shared/schemas/auth.js';
import { SHIPS_TO_TEXT, US_STATES } from '../../../shared/schemas/checkout.js';
import { errorMessage } from '../../lib/error-message.js';
import { useSession } from '../../lib/get-session.js';
import { fieldAria, FieldError, inputClasses, TextField } from '../../ui/form-controls.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { AddressLines } from '../../ui/address-lines.js';
import { toast } from '../../ui/toast.js';
import { saveAddress, updateContactInfo, type AddressKind } from './api.js';
import { DialogActions, DialogForm, Panel } from './panel.js';

const ADDRESS_TEXTS: Record<AddressKind, { title: string; saved: string; failed: string }> = {
  shipping: { title: 'Shipping Address', saved: ACCOUNT_MESSAGES.shippingSaved, failed: ACCOUNT_MESSAGES.shippingFailed },
  billing: { title: 'Billing Address', saved: ACCOUNT_MESSAGES.billingSaved, failed: ACCOUNT_MESSAGES.billingFailed },
};

const CONTACT_LABELS = { fullName: 'Full Name', email: 'Email', phone: 'Phone' } as const;
const ADDRESS_LABELS = { name: 'Name', address: 'Street Address', city: 'City', state: 'State', zip: 'ZIP' } as const;

/**
 * The dialogs' messages. Under a field, the schema's 'Please fill in all required fields' reads
 * '{Label} is required'; the form's own message (the specification's text, or the server's answer
 * after a save) is the first problem, in the form's order, as the schema words it.
 */
function useMessages<T extends FieldValues>(
  form: UseFormReturn<T>,
  labels: Readonly<Record<string, string>>,
  order: readonly Path<T>[],
  serverError: string | null,
) {
  const errors: FieldErrors<FieldValues> = form.formState.errors;
  const raw = (field: string) => errors[field]?.message as string | undefined;
  return {
    field: (field: Path<T>): string | undefined => {
      const message = raw(field);
      return message === ACCOUNT_MESSAGES.requiredFields ? `${labels[field] ?? 'This field'} is required` : message;
    },
    form: serverError ?? (form.formState.isSubmitted ? (order.map(raw).find(Boolean) ?? null) : null),
  };
}

/**
 * register() for a dialog field that is checked before a save attempt only once the person left
 * it with something typed in it, and from then on as they type; a field left empty says nothing
 * yet. After an attempt the form checks each field as it changes (react-hook-form's re-validation).
 */
function useCheckOnLeave<T extends FieldValues>(form: UseFormReturn<T>) {
  const left = useRef(new Set<string>());
  return (name: Path<T>, options: RegisterOptions<T, Path<T>> = {}) =>
    form.register(name, {
      ...options,
      onBlur: (e: { target: { value: unknown } }) => {
        if (String(e.target.value).trim() === '') return;
        left.current.add(name);
        void form.trigger(name);
      },
      onChange: (e: { target: { value: unknown } }) => {
        (options.onChange as ((e: unknown) => void) | undefined)?.(e);
        if (!form.formState.isSubmitted && left.current.has(name)) void form.trigger(name);
      },
    });
}

function ContactForm({ user, onDone }: { user: SessionUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [schema] = useState(() => contactInfoForm(user.email));
  const form = useForm({
    resolver: zodResolver(schema),
    defaultValues: { fullName: user.fullName, email: user.email, phone: formatPhone(user.phone ?? ''), currentPassword: '' },
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const { impersonatorEmail } = useSession();
  const field = useCheckOnLeave(form);
  const messages = useMessages(form, CONTACT_LABELS, ['fullName', 'email', 'phone', 'currentPassword'], serverError);
  // A new e-mail needs the current password (the server insists too); the field shows only then.
  const emailChanged = useWatch({ control: form.control, name: 'email' }).trim().toLowerCase() !== user.email;
  const errorId = messages.form ? `${id}-error` : undefined;
  const passwordFlagged =
    Boolean(form.formState.errors.currentPassword) ||
    serverError === ACCOUNT_MESSAGES.currentPasswordRequired ||
    serverError === ACCOUNT_MESSAGES.currentPasswordWrong;

  const save = async (body: z.output<typeof schema>) => {
    try {
      await updateContactInfo(queryClient, {
        fullName: body.fullName,
        email: body.email,
        phone: body.phone,
        ...(body.email !== user.email ? { currentPassword: body.currentPassword } : {}),
      });
      toast({ title: ACCOUNT_MESSAGES.contactSaved });
      onDone();
    } catch (err) {
      const message = errorMessage(err, ACCOUNT_MESSAGES.contactFailed);
      setServerError(message);
      toast({
        title: ACCOUNT_MESSAGES.contactFailed,
        description: message === ACCOUNT_MESSAGES.contactFailed ? undefined : message,
        variant: 'destructive',
      });
    }
  };

  return (
    <DialogForm
      id={id}
      message={messages.form}
      onSubmit={(e) => {
        setServerError(null);
        return form.handleSubmit(save)(e);
      }}
    >
      <TextField
        id={`${id}-name`}
        label={CONTACT_LABELS.fullName}
        autoComplete="name"
        required
        maxLength={fieldMaxLength(ContactInfoInput, 'fullName')}
        {...field('fullName')}
        error={messages.field('fullName')}
      />
      <TextField
        id={`${id}-email`}
        label={CONTACT_LABELS.email}
        type="email"
        autoComplete="email"
        required
        maxLength={fieldMaxLength(ContactInfoInput, 'email')}
        {...field('email', { deps: ['currentPassword'] })}
        error={messages.field('email')}
        // The sign-in e-mail is the customer's alone to change (the server refuses an admin acting as them).
        {...(impersonatorEmail ? { readOnly: true, 'aria-describedby': `${id}-email-hint` } : {})}
      />
      {impersonatorEmail && (
        <p id={`${id}-email-hint`} className="-mt-2 text-xs text-stone-600">
          {ACCOUNT_MESSAGES.emailChangeWhileImpersonating}
        </p>
      )}
      {emailChanged && (
        <div className="flex flex-col gap-1">
          <TextField
            id={`${id}-current-password`}
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
            {...form.register('currentPassword')}
            errorId={passwordFlagged ? errorId : undefined}
            aria-describedby={[passwordFlagged ? errorId : undefined, `${id}-current-password-hint`].filter(Boolean).join(' ')}
          />
          <p id={`${id}-current-password-hint`} className="text-xs text-stone-600">
            Enter your current password to change your email.
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
        {...field('phone', { onChange: (e: { target: { value: string } }) => form.setValue('phone', formatPhone(e.target.value)) })}
        error={messages.field('phone')}
      />
      <DialogActions pending={form.formState.isSubmitting} onCancel={onDone} />
    </DialogForm>
  );
}

function AddressForm({ kind, user, onDone }: { kind: AddressKind; user: SessionUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const current = kind === 'shipping' ? user.shippingAddress : user.billingAddress;
  return (
    <AddressEditor
      initial={{ ...current, name: current?.name ?? user.fullName }}
      texts={ADDRESS_TEXTS[kind]}
      onSave={(body) => saveAddress(queryClient, kind, body)}
      onDone={onDone}
    />
  );
}

/**
 * An address form (name, street, city, state, ZIP) as the account's dialogs draw it, checked on
 * leaving each field and on save; `onSave` sends it (and throws the server's refusal, shown here);
 * `children` go above the buttons (a subscription's "everywhere" box).
 */
export function AddressEditor({
  initial,
  texts,
  onSave,
  onDone,
  children,
}: {
  initial: Partial<Record<'name' | 'address' | 'city' | 'state' | 'zip', string>> | null;
  texts: { saved: string; failed: string };
  onSave: (body: z.output<typeof AddressInput>) => Promise<unknown>;
  onDone: () => void;
  children?: ReactNode;
}) {
  const id = useId();
  const form = useForm({
    resolver: zodResolver(AddressInput),
    defaultValues: {
      name: initial?.name ?? '',
      address: initial?.address ?? '',
      city: initial?.city ?? '',
      state: (initial?.state ?? '') as z.input<typeof AddressInput>['state'],
      zip: initial?.zip ?? '',
    },
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const field = useCheckOnLeave(form);
  const messages = useMessages(form, ADDRESS_LABELS, ['name', 'address', 'city', 'state', 'zip'], serverError);
  const stateError = messages.field('state');

  const save = async (body: z.output<typeof AddressInput>) => {
    try {
      await onSave(body);
      toast({ title: texts.saved });
      onDone();
    } catch (err) {
      const message = errorMessage(err, texts.failed);
      setServerError(message);
      toast({ title: texts.failed, description: message === texts.failed ? undefined : message, variant: 'destructive' });
    }
  };

  return (
    <DialogForm
      id={id}
      message={messages.form}
      onSubmit={(e) => {
        setServerError(null);
        return form.handleSubmit(save)(e);
      }}
    >
      <TextField
        id={`${id}-name`}
        label={ADDRESS_LABELS.name}
        autoComplete="name"
        required
        maxLength={fieldMaxLength(AddressInput, 'name')}
        {...field('name')}
        error={messages.field('name')}
      />
      <TextField
        id={`${id}-address`}
        label={ADDRESS_LABELS.address}
        autoComplete="street-address"
        required
        maxLength={fieldMaxLength(AddressInput, 'address')}
        {...field('address')}
        error={messages.field('address')}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id={`${id}-city`}
          label={ADDRESS_LABELS.city}
          autoComplete="address-level2"
          required
          maxLength={fieldMaxLength(AddressInput, 'city')}
          {...field('city')}
          error={messages.field('city')}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-state`} className="text-sm font-medium text-stone-800">
            {ADDRESS_LABELS.state}
          </label>
          <select
            id={`${id}-state`}
            autoComplete="address-level1"
            required
            {...field('state')}
            {...fieldAria(stateError, `${id}-state-error`)}
            aria-describedby={stateError ? `${id}-state-error ${id}-state-where` : `${id}-state-where`}
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
          <p id={`${id}-state-where`} className="text-xs text-stone-600">
            {SHIPS_TO_TEXT}
          </p>
        </div>
        <TextField
          id={`${id}-zip`}
          label={ADDRESS_LABELS.zip}
          inputMode="numeric"
          autoComplete="postal-code"
          required
          maxLength={fieldMaxLength(AddressInput, 'zip')}
          {...field('zip')}
          error={messages.field('zip')}
        />
      </div>
      {children}
      <DialogActions pending={form.formState.isSubmitting} onCancel={onDone} />
    </DialogForm>
  );
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

/** One saved address (or 'Not set') with its Edit button. */
function AddressCard({ kind, address, onEdit }: { kind: AddressKind; address: Address | null; onEdit: () => void }) {
  const { title } = ADDRESS_TEXTS[kind];
  return (
    <InfoBlock
      label={title}
      action={
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${title}`}>
          Edit
        </Button>
      }
    >
      <div className="text-sm" data-testid={`account-${kind}-address`}>
        {address ? (
          <AddressLines lines={formatAddress(address, { country: false })} className="text-stone-900" />
        ) : (
          <p className="text-stone-600">Not set</p>
        )}
      </div>
    </InfoBlock>
  );
}

type Editing = 'contact' | AddressKind | null;

/** Name, e-mail, phone and the saved addresses, each editable in a dialog. */
export function AccountInfoCard({ user }: { user: SessionUser }) {
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);

  return (
    <Panel title="Account Information">
      <div className="grid gap-4 md:grid-cols-3">
        <InfoBlock
          label="Contact"
          action={
            <Button variant="outline" size="sm" onClick={() => setEditing('contact')} aria-label="Edit Contact Information">
              Edit
            </Button>
          }
        >
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
        <AddressCard kind="shipping" address={user.shippingAddress} onEdit={() => setEditing('shipping')} />
        <AddressCard kind="billing" address={user.billingAddress} onEdit={() => setEditing('billing')} />
      </div>

      <Dialog open={editing === 'contact'} onClose={close} title="Contact Information">
        <ContactForm user={user} onDone={close} />
      </Dialog>
      {(['shipping', 'billing'] as const).map((kind) => (
        <Dialog key={kind} open={editing === kind} onClose={close} title={ADDRESS_TEXTS[kind].title}>
          <AddressForm kind={kind} user={user} onDone={close} />
        </Dialog>
      ))}
    </Panel>
  );
}
