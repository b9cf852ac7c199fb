import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, type FormEvent, type ReactNode } from 'react';
import { get, useController, useForm, type DefaultValues, type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { fieldMaxLength } from '../../../shared/schemas/limits.js';
import { Alert } from '../../ui/alert.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { Field, fieldAria, inputCls, ListState, Panel } from './admin-ui.js';
import { ImageUpload } from './image-upload.js';
import { useAdminSettings, useSaveSettings, type AdminSettings, type SettingsBody, type SettingsSection } from '../api/content-api.js';

/** The stored values of some settings keys ('' for a key never saved). */
export function pickSettings<K extends string>(settings: AdminSettings, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, settings[k] ?? ''])) as Record<K, string>;
}

/** An error's message: its own, or the first of its parts' (a list checked item by item). */
function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  if ('message' in error && typeof error.message === 'string') return error.message;
  for (const part of Object.values(error)) {
    const m = firstMessage(part);
    if (m) return m;
  }
  return undefined;
}

/** The message of a form's field, wherever under it the schema put it. */
export function messageAt(errors: unknown, name: string): string | undefined {
  return firstMessage(get(errors, name));
}

/**
 * A settings form: react-hook-form over the form's values, checked by the body schema the server
 * uses (every message comes from it), values kept as typed through errors, the first invalid field
 * focused, and a warning before leaving with unsaved edits.
 */
export function useSettingsForm<T extends FieldValues, O>(idPrefix: string, schema: z.ZodType<O, T>, values: T) {
  const form = useForm<T, unknown, O>({ resolver: zodResolver(schema), defaultValues: values as DefaultValues<T> });
  const dirty = form.formState.isDirty;
  const { errors } = form.formState;

  // Leaving the page with unsaved edits asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const idOf = (name: FieldPath<T>) => `${idPrefix}-${name}`;
  const errorOf = (name: FieldPath<T>) => messageAt(errors, name);
  /** Every field's message, in the form's order, for the summary above it. */
  const messages = (Object.keys(values) as FieldPath<T>[]).flatMap((k) => errorOf(k) ?? []);
  /** The field's `maxLength`, from the schema the server checks with. */
  const maxLengthOf = (name: FieldPath<T>) => fieldMaxLength(schema, name);
  return { ...form, dirty, idOf, errorOf, messages, maxLengthOf };
}

export type SettingsForm<T extends FieldValues, O = T> = UseFormReturn<T, unknown, O> & {
  dirty: boolean;
  idOf: (name: FieldPath<T>) => string;
  errorOf: (name: FieldPath<T>) => string | undefined;
  messages: string[];
  maxLengthOf: (name: FieldPath<T>) => number | undefined;
};

/**
 * Saves a settings form: the server's answer (trimmed, video in embed form) becomes the saved
 * state, then the section's toast; a failure is a destructive toast and the entries stay.
 */
export function useSaveSettingsForm<S extends SettingsSection, T extends FieldValues, O extends SettingsBody<S>>(
  section: S,
  form: SettingsForm<T, O>,
  {
    saved,
    success,
    failure = messageOf,
  }: {
    /** The form's values for the settings the server answered with. */
    saved: (settings: AdminSettings) => T;
    success: { title: string; description: string };
    failure?: (err: unknown) => string;
  },
) {
  const save = useSaveSettings(section);
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (res) => {
        form.reset(saved(res.settings));
        toast(success);
      },
      onError: (err) => toast({ title: 'Error', description: failure(err), variant: 'destructive' }),
    }),
  );
  return { save, onSubmit: (e: FormEvent) => void onSubmit(e) };
}

/** A page of settings (Homepage, About): its panel, the settings loading, then the form. */
export function SettingsPage({
  title,
  preview,
  loadingLabel,
  children,
}: {
  title: string;
  /** The storefront page to check the saved content on. */
  preview: string;
  loadingLabel: string;
  children: (settings: AdminSettings) => ReactNode;
}) {
  const { data, error, isPending, refetch } = useAdminSettings();
  return (
    <Panel title={title} actions={<PreviewLink href={preview} />}>
      <ListState isPending={isPending} error={error && !data ? error : null} onRetry={() => void refetch()} loadingLabel={loadingLabel}>
        {data && children(data)}
      </ListState>
    </Panel>
  );
}

/** A labelled group of fields in a long form. */
export function FormSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 rounded-lg border border-stone-200 p-4 sm:p-5">
      <legend className="px-1 text-base font-semibold text-stone-900">{title}</legend>
      {description && <p className="mb-4 text-sm text-stone-700">{description}</p>}
      <div className="flex flex-col gap-4">{children}</div>
    </fieldset>
  );
}

/** A text input or textarea bound to one field of a settings form. */
export function TextField<T extends FieldValues, O>({
  form,
  name,
  label,
  required,
  hint,
  type = 'text',
  rows,
  autoComplete,
  placeholder,
}: {
  form: SettingsForm<T, O>;
  name: FieldPath<T>;
  label: string;
  required?: boolean;
  hint?: string;
  type?: 'text' | 'email' | 'tel' | 'url';
  /** Renders a textarea with this many rows. */
  rows?: number;
  autoComplete?: string;
  placeholder?: string;
}) {
  const id = form.idOf(name);
  const error = form.errorOf(name);
  const common = {
    id,
    className: inputCls,
    required,
    placeholder,
    maxLength: form.maxLengthOf(name),
    ...form.register(name),
    ...fieldAria(error, `${id}-error`),
  };
  return (
    <Field label={label} required={required} htmlFor={id} error={error} {...(hint ? { hint } : {})}>
      {rows ? <textarea {...common} rows={rows} /> : <input {...common} type={type} autoComplete={autoComplete ?? 'off'} />}
    </Field>
  );
}

/** An image chosen by upload (stored under /uploads/content), with a way to remove it. */
export function ImageField<T extends FieldValues, O>({
  form,
  name,
  label,
  onBusy,
  disabled,
}: {
  form: SettingsForm<T, O>;
  name: FieldPath<T>;
  label: string;
  onBusy: (busy: boolean) => void;
  disabled?: boolean;
}) {
  const {
    field: { value: raw, onChange, ref: focusRef },
  } = useController({ control: form.control, name });
  const value = typeof raw === 'string' ? raw : '';
  const error = form.errorOf(name);
  return (
    // Focused when its value is the first invalid one.
    <div className="flex flex-col gap-2" id={form.idOf(name)} tabIndex={-1} ref={focusRef}>
      <ImageUpload
        kind="content"
        label={label}
        current={value || null}
        onUploaded={(url) => onChange(url)}
        onBusy={onBusy}
        disabled={disabled}
      />
      {value && (
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 break-all text-xs text-stone-700">
            Current: <span className="font-mono">{value}</span>
          </p>
          <Button size="sm" variant="ghost" onClick={() => onChange('')} disabled={disabled} aria-label={`Remove ${label.toLowerCase()}`}>
            Remove
          </Button>
        </div>
      )}
      {error && <p className="text-sm text-red-700">{error}</p>}
    </div>
  );
}

/** Shown above a form that failed validation: what to fix, and that the entries are kept. */
export function ValidationSummary({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert variant="destructive" title="Please fix the highlighted fields.">
      <p>Nothing you entered has been lost.</p>
      <ul className="mt-1 list-disc pl-5">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </Alert>
  );
}

/** The save row of a long form; it stays in view at the bottom of the screen while scrolling. */
export function StickySaveBar({ saving, dirty, disabled, label }: { saving: boolean; dirty: boolean; disabled?: boolean; label: string }) {
  return (
    <div className="sticky bottom-0 z-10 -mx-4 -mb-4 flex items-center justify-between gap-3 rounded-b-xl border-t border-stone-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:-mb-6 sm:px-6">
      <p className="min-w-0 text-xs text-stone-700 sm:text-sm">
        <span className="text-red-700" aria-hidden="true">
          *
        </span>{' '}
        Required. {dirty ? <strong className="font-semibold text-stone-900">You have unsaved changes.</strong> : 'All changes saved.'}
      </p>
      <Button type="submit" className="shrink-0" disabled={disabled || saving}>
        {saving ? 'Saving...' : label}
      </Button>
    </div>
  );
}

/** Opens the storefront page in a new tab to check the saved content. */
export function PreviewLink({ href }: { href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={buttonClasses('outline', 'sm')}>
      Preview Page
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** The save row of a short form. */
export function SaveRow({ saving, dirty, disabled, label }: { saving: boolean; dirty: boolean; disabled?: boolean; label: string }) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-3 border-t border-stone-200 pt-4">
      {dirty && <p className="mr-auto text-sm font-semibold text-stone-900">You have unsaved changes.</p>}
      <Button type="submit" disabled={disabled || saving}>
        {saving ? 'Saving...' : label}
      </Button>
    </div>
  );
}
