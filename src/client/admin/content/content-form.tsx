import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { Alert } from '../../ui/alert.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { Field, inputCls } from '../components/admin-ui.js';
import { ImageUpload } from '../components/image-upload.js';
import type { AdminSettings } from './content-api.js';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

function pick<K extends string>(settings: AdminSettings, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, settings[k] ?? ''])) as Record<K, string>;
}

/**
 * State of a form over a group of settings keys: the entered values (kept as typed through
 * validation and server errors), per-field errors from the shared zod schema, and whether
 * anything differs from what was last saved.
 */
export function useSettingsForm<K extends string>(idPrefix: string, keys: readonly K[], settings: AdminSettings) {
  const [values, setValues] = useState(() => pick(settings, keys));
  const [saved, setSaved] = useState(values);
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const dirty = keys.some((k) => values[k] !== saved[k]);

  // Leaving the page with unsaved edits asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const idOf = useCallback((k: K) => `${idPrefix}-${k}`, [idPrefix]);

  const set = (k: K, v: string) => {
    setValues((prev) => ({ ...prev, [k]: v }));
    setErrors((prev) => (prev[k] ? { ...prev, [k]: undefined } : prev));
  };

  /** Checks the values with the schema; on failure shows the errors and focuses the first field. */
  const validate = <S extends z.ZodType>(schema: S, input: unknown = values): z.output<S> | null => {
    const result = schema.safeParse(input);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    const found: FieldErrors<K> = {};
    for (const issue of result.error.issues) {
      const k = String(issue.path[0] ?? '') as K;
      if (keys.includes(k) && !found[k]) found[k] = issue.message;
    }
    setErrors(found);
    const first = keys.find((k) => found[k]);
    if (first) document.getElementById(idOf(first))?.focus();
    return null;
  };

  /** After a save: the server's values (trimmed, video in embed form) become the saved state. */
  const markSaved = (next: AdminSettings) => {
    const fresh = pick(next, keys);
    setValues(fresh);
    setSaved(fresh);
  };

  return { values, set, errors, setErrors, dirty, validate, markSaved, idOf };
}

export type SettingsForm<K extends string> = ReturnType<typeof useSettingsForm<K>>;

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

/** A text input or textarea bound to one key of a settings form. */
export function TextField<K extends string>({
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
  form: SettingsForm<K>;
  name: K;
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
  const error = form.errors[name];
  const common = {
    id,
    name,
    className: `${inputCls} aria-[invalid=true]:border-red-700`,
    value: form.values[name],
    required,
    'aria-invalid': Boolean(error),
    'aria-describedby': error ? `${id}-error` : undefined,
    placeholder,
  };
  return (
    <Field label={label} required={required} htmlFor={id} error={error} {...(hint ? { hint } : {})}>
      {rows ? (
        <textarea {...common} rows={rows} onChange={(e) => form.set(name, e.target.value)} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete ?? 'off'} onChange={(e) => form.set(name, e.target.value)} />
      )}
    </Field>
  );
}

/** An image chosen by upload (stored under /uploads/content), with a way to remove it. */
export function ImageField<K extends string>({
  form,
  name,
  label,
  onBusy,
  disabled,
}: {
  form: SettingsForm<K>;
  name: K;
  label: string;
  onBusy: (busy: boolean) => void;
  disabled?: boolean;
}) {
  const value = form.values[name];
  const error = form.errors[name];
  return (
    <div className="flex flex-col gap-2" id={form.idOf(name)} tabIndex={-1}>
      <ImageUpload
        kind="content"
        label={label}
        current={value || null}
        onUploaded={(url) => form.set(name, url)}
        onBusy={onBusy}
        disabled={disabled}
      />
      {value && (
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 break-all text-xs text-stone-700">
            Current: <span className="font-mono">{value}</span>
          </p>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => form.set(name, '')}
            disabled={disabled}
            aria-label={`Remove ${label.toLowerCase()}`}
          >
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
