import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { EmailTemplateForm, splitVariables } from '../../../shared/schemas/admin/content.js';
import { EmailTemplateInput } from '../../../shared/schemas/content.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { ApiError } from '../../lib/api-client.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { useDeleteEmailTemplate, useRestoreEmailTemplate, useSaveEmailTemplate, type EmailTemplate } from '../api/messaging-api.js';
import { ConfirmDialog, Field, fieldAria, inputCls } from '../components/admin-ui.js';
import { messageAt } from '../components/settings-form.js';
import { variablesUsed } from './template-variables.js';

const TEMPLATE_SAVE_FAILED = 'Failed to save template. Please try again.';
const TEMPLATE_DELETE_FAILED = 'Failed to delete template. Please try again.';
const TEMPLATE_DELETE_CONFIRM = 'Are you sure you want to delete this template?';
const TEMPLATE_RESTORE_CONFIRM =
  'Restore the shop’s default name, subject and text of this template? Your edits to it are replaced and cannot be brought back.';
const TEMPLATE_RESTORE_FAILED = 'Failed to restore the default template. Please try again.';
const MAX = maxLengths(EmailTemplateInput);

export type TemplateDraft = EmailTemplateForm;

export function draftOf(t: EmailTemplate | null): TemplateDraft {
  return {
    id: t?.id ?? '',
    name: t?.name ?? '',
    subject: t?.subject ?? '',
    html: t?.html ?? '',
    text: t?.text ?? '',
    variables: t?.variables.join(', ') ?? '',
  };
}

export function sameDraft(a: TemplateDraft, b: TemplateDraft): boolean {
  return (Object.keys(a) as (keyof TemplateDraft)[]).every((k) => a[k] === b[k]);
}

function variablesUsedIn(d: TemplateDraft): string[] {
  return variablesUsed(`${d.subject}\n${d.html}\n${d.text}`);
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** A 4xx answer carries a reason the owner can act on (a Handlebars error, say); 5xx and network failures do not. */
function reasonOf(err: unknown): string | null {
  return err instanceof ApiError && err.status < 500 ? err.message : null;
}

type Props = {
  /** The stored template, or null while creating a new one. */
  template: EmailTemplate | null;
  /** What the editor starts from: the template, or the edits kept from an earlier visit. */
  draft: TemplateDraft;
  /** Every edit, so it outlives the editor (switching to Preview or Test and back). */
  onChange: (next: TemplateDraft) => void;
  onSaved: (t: EmailTemplate) => void;
  onDeleted: () => void;
  onCancel: () => void;
};

/** Edit HTML: name, subject, the HTML (and optional plain-text) body and the variables it may use. */
export function TemplateEditor({ template, draft, onChange, onSaved, onDeleted, onCancel }: Props) {
  const save = useSaveEmailTemplate();
  const del = useDeleteEmailTemplate();
  const restore = useRestoreEmailTemplate();
  const [restoring, setRestoring] = useState(false);
  const [restoreError, setRestoreError] = useState<unknown>(null);
  const builtIn = Boolean(template?.builtIn);
  const {
    register,
    handleSubmit,
    control,
    getValues,
    setValue,
    reset,
    subscribe,
    formState: { errors, isSubmitted },
  } = useForm({ resolver: zodResolver(EmailTemplateForm), defaultValues: draft });
  const [confirming, setConfirming] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const [announce, setAnnounce] = useState('');
  // A new template's ID follows its name until the owner types one.
  const [idTouched, setIdTouched] = useState(template !== null);
  const subjectRef = useRef<HTMLInputElement | null>(null);
  const htmlRef = useRef<HTMLTextAreaElement | null>(null);
  const lastField = useRef<'subject' | 'html'>('html');
  const fid = (k: keyof TemplateDraft) => `template-${k}`;
  const values = useWatch({ control }) as TemplateDraft;
  const variables = splitVariables(values.variables);

  // Each edit goes up to the panel, which keeps it while the editor is closed.
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);
  useEffect(() => subscribe({ formState: { values: true }, callback: ({ values: next }) => changed.current({ ...next }) }), [subscribe]);

  /** Sets a value as if typed: marked as an edit, checked again once the form was submitted. */
  const set = (k: keyof TemplateDraft, v: string) => setValue(k, v, { shouldDirty: true, shouldValidate: isSubmitted });

  /** Puts {{name}} where the cursor was in the subject or the HTML, and on the clipboard too. */
  const insertVariable = (name: string) => {
    const token = `{{${name}}}`;
    const field = lastField.current;
    const el = field === 'subject' ? subjectRef.current : htmlRef.current;
    const value = getValues(field);
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    set(field, value.slice(0, start) + token + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
    void navigator.clipboard?.writeText(token).catch(() => undefined);
    setAnnounce(`Inserted ${token} into the ${field === 'subject' ? 'subject' : 'HTML'} and copied it`);
  };

  const submit = (parsed: z.output<typeof EmailTemplateForm>) => {
    const body = { ...parsed, text: parsed.text ?? null };
    save.mutate(body, {
      onSuccess: ({ template: saved }) => {
        toast({ title: 'Template saved', description: `'${saved.name}' has been saved.` });
        onSaved(saved);
      },
      onError: setSaveError,
    });
  };

  const onDelete = () => {
    if (!template) return;
    setDeleteError(null);
    del.mutate(template.id, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Template deleted', description: `'${template.name}' has been deleted.` });
        onDeleted();
      },
      onError: (err) => {
        setConfirming(false);
        setDeleteError(err);
      },
    });
  };

  const onRestore = () => {
    if (!template) return;
    setSaveError(null);
    setRestoreError(null);
    restore.mutate(template.id, {
      onSuccess: ({ template: restored }) => {
        setRestoring(false);
        reset(draftOf(restored));
        toast({ title: 'Default restored', description: `'${restored.name}' has its default text again.` });
        onSaved(restored);
      },
      onError: (err) => {
        setRestoring(false);
        setRestoreError(err);
      },
    });
  };

  const errorOf = (k: keyof TemplateDraft) => messageAt(errors, k);
  const aria = (k: keyof TemplateDraft) => fieldAria(errorOf(k), `${fid(k)}-error`);
  const subject = register('subject');
  const html = register('html');
  const used = variablesUsedIn(values).filter((v) => !variables.includes(v));

  return (
    <form
      onSubmit={(e) => {
        setSaveError(null);
        void handleSubmit(submit)(e);
      }}
      noValidate
    >
      <fieldset disabled={save.isPending || del.isPending || restore.isPending} className="flex min-w-0 flex-col gap-4">
        <legend className="sr-only">{template ? `Edit ${template.name}` : 'New template'}</legend>
        {saveError !== null && (
          <Alert variant="destructive" title={TEMPLATE_SAVE_FAILED}>
            {reasonOf(saveError)}
          </Alert>
        )}
        {restoreError !== null && (
          <Alert variant="destructive" title={TEMPLATE_RESTORE_FAILED}>
            {reasonOf(restoreError)}
          </Alert>
        )}
        {deleteError !== null && (
          <Alert variant="destructive" title={TEMPLATE_DELETE_FAILED}>
            {reasonOf(deleteError)}
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" required htmlFor={fid('name')} error={errorOf('name')}>
            <input
              id={fid('name')}
              className={inputCls}
              maxLength={MAX.name}
              {...register('name', {
                onChange: (e: { target: { value: string } }) => {
                  if (!idTouched) setValue('id', slug(e.target.value), { shouldDirty: true });
                },
              })}
              {...aria('name')}
            />
          </Field>
          {template ? (
            <Field label="Template ID" htmlFor={fid('id')} hint="The shop refers to the template by its ID, so it cannot change.">
              <input id={fid('id')} className={`${inputCls} font-mono`} {...register('id')} readOnly />
            </Field>
          ) : (
            <Field label="Template ID" required htmlFor={fid('id')} error={errorOf('id')} hint="Lowercase letters, numbers and hyphens.">
              <input
                id={fid('id')}
                className={`${inputCls} font-mono`}
                maxLength={MAX.id}
                {...register('id', {
                  onChange: () => setIdTouched(true),
                })}
                {...aria('id')}
              />
            </Field>
          )}
        </div>
        <Field label="Subject" required htmlFor={fid('subject')} error={errorOf('subject')}>
          <input
            id={fid('subject')}
            className={inputCls}
            maxLength={MAX.subject}
            {...subject}
            ref={(el) => {
              subject.ref(el);
              subjectRef.current = el;
            }}
            onFocus={() => (lastField.current = 'subject')}
            {...aria('subject')}
          />
        </Field>

        <div className="flex flex-col gap-2">
          <Field
            label="Variables"
            htmlFor={fid('variables')}
            error={errorOf('variables')}
            hint={
              builtIn
                ? 'What the shop sends this e-mail. Use them in the subject or HTML as {{name}}.'
                : 'Names separated by commas. Use them in the subject or HTML as {{name}}.'
            }
          >
            <input
              id={fid('variables')}
              className={`${inputCls} font-mono`}
              // The shop decides what a built-in e-mail is sent; the owner decides for their own templates.
              readOnly={builtIn}
              {...register('variables')}
              {...aria('variables')}
            />
          </Field>
          {variables.length > 0 && (
            <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Insert a variable">
              {variables.map((v) => (
                <button
                  key={v}
                  type="button"
                  onClick={() => insertVariable(v)}
                  aria-label={`Insert {{${v}}}`}
                  title="Insert at the cursor and copy"
                  className="rounded-full border border-brand-200 bg-brand-50 px-2.5 py-1 font-mono text-xs text-brand-900 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600"
                >
                  {`{{${v}}}`}
                </button>
              ))}
            </div>
          )}
          {used.length > 0 && builtIn && (
            <p className="text-sm text-red-800">
              The shop does not send this e-mail <span className="font-mono">{used.map((v) => `{{${v}}}`).join(', ')}</span>: saving will be
              refused until {used.length > 1 ? 'they are' : 'it is'} removed or corrected.
            </p>
          )}
          {used.length > 0 && !builtIn && (
            <p className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
              Used in the template but not listed: <span className="font-mono">{used.join(', ')}</span>
              <Button variant="ghost" size="sm" onClick={() => set('variables', [...variables, ...used].join(', '))}>
                Add them
              </Button>
            </p>
          )}
          <p className="sr-only" aria-live="polite">
            {announce}
          </p>
        </div>

        <Field label="HTML" required htmlFor={fid('html')} error={errorOf('html')}>
          <textarea
            id={fid('html')}
            rows={18}
            spellCheck={false}
            className={`${inputCls} font-mono text-xs leading-relaxed`}
            maxLength={MAX.html}
            {...html}
            ref={(el) => {
              html.ref(el);
              htmlRef.current = el;
            }}
            onFocus={() => (lastField.current = 'html')}
            {...aria('html')}
          />
        </Field>
        <Field
          label="Plain-text version"
          htmlFor={fid('text')}
          error={errorOf('text')}
          hint="Optional. When empty, the text version is made from the HTML."
        >
          <textarea
            id={fid('text')}
            rows={6}
            spellCheck={false}
            className={`${inputCls} font-mono text-xs leading-relaxed`}
            maxLength={MAX.text}
            {...register('text')}
            {...aria('text')}
          />
        </Field>

        <p className="text-xs text-stone-600">
          <span className="text-red-700">*</span> Required
        </p>
        <div className="flex flex-wrap items-center justify-between gap-2 border-t border-stone-200 pt-4">
          <div>
            {template && !template.builtIn && (
              <Button variant="destructive" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            )}
            {template?.builtIn && (
              <div className="flex flex-wrap items-center gap-2">
                <Button variant="outline" onClick={() => setRestoring(true)}>
                  {restore.isPending ? 'Restoring…' : 'Restore default'}
                </Button>
                <p className="text-sm text-stone-700">Built-in templates can be edited but not deleted.</p>
              </div>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="ghost"
              onClick={() => {
                reset(draftOf(template));
                onCancel();
              }}
            >
              {template ? 'Discard changes' : 'Cancel'}
            </Button>
            <Button type="submit">{save.isPending ? 'Saving…' : 'Save Template'}</Button>
          </div>
        </div>
      </fieldset>
      <ConfirmDialog
        open={confirming}
        title="Delete template"
        message={TEMPLATE_DELETE_CONFIRM}
        busy={del.isPending}
        onConfirm={onDelete}
        onClose={() => setConfirming(false)}
      />
      <ConfirmDialog
        open={restoring}
        title="Restore default"
        message={TEMPLATE_RESTORE_CONFIRM}
        confirmLabel="Restore default"
        busyLabel="Restoring…"
        busy={restore.isPending}
        onConfirm={onRestore}
        onClose={() => setRestoring(false)}
      />
    </form>
  );
}
