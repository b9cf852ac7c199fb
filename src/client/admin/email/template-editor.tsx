import { useRef, useState, type FormEvent } from 'react';
import { EmailTemplateInput } from '../../../shared/schemas/content.js';
import { ApiError } from '../../lib/api-client.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { useDeleteEmailTemplate, useSaveEmailTemplate, type EmailTemplate } from '../api/messaging-api.js';
import { ConfirmDialog, Field, inputCls } from '../components/admin-ui.js';
import { variablesUsed } from './template-variables.js';

export const TEMPLATE_SAVE_FAILED = 'Failed to save template. Please try again.';
export const TEMPLATE_DELETE_FAILED = 'Failed to delete template. Please try again.';
export const TEMPLATE_DELETE_CONFIRM = 'Are you sure you want to delete this template?';

export type TemplateDraft = { id: string; name: string; subject: string; html: string; text: string; variables: string };
type Errors = Partial<Record<keyof TemplateDraft, string>>;

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

function splitVariables(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
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
  draft: TemplateDraft;
  onChange: (next: TemplateDraft) => void;
  onSaved: (t: EmailTemplate) => void;
  onDeleted: () => void;
  onCancel: () => void;
};

/** Edit HTML: name, subject, the HTML (and optional plain-text) body and the variables it may use. */
export function TemplateEditor({ template, draft, onChange, onSaved, onDeleted, onCancel }: Props) {
  const save = useSaveEmailTemplate();
  const del = useDeleteEmailTemplate();
  const [errors, setErrors] = useState<Errors>({});
  const [confirming, setConfirming] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const [announce, setAnnounce] = useState('');
  const idTouched = useRef(template !== null);
  const subjectRef = useRef<HTMLInputElement>(null);
  const htmlRef = useRef<HTMLTextAreaElement>(null);
  const lastField = useRef<'subject' | 'html'>('html');
  const fid = (k: string) => `template-${k}`;
  const set = <K extends keyof TemplateDraft>(k: K, v: TemplateDraft[K]) => {
    const next = { ...draft, [k]: v };
    if (k === 'name' && !idTouched.current) next.id = slug(String(v));
    onChange(next);
  };
  const variables = splitVariables(draft.variables);

  /** Puts {{name}} where the cursor was in the subject or the HTML, and on the clipboard too. */
  const insertVariable = (name: string) => {
    const token = `{{${name}}}`;
    const field = lastField.current;
    const el = field === 'subject' ? subjectRef.current : htmlRef.current;
    const value = draft[field];
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    onChange({ ...draft, [field]: value.slice(0, start) + token + value.slice(end) });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
    void navigator.clipboard?.writeText(token).catch(() => undefined);
    setAnnounce(`Inserted ${token} into the ${field === 'subject' ? 'subject' : 'HTML'} and copied it`);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaveError(null);
    const parsed = EmailTemplateInput.safeParse({
      id: draft.id.trim(),
      name: draft.name,
      subject: draft.subject,
      html: draft.html,
      text: draft.text.trim() ? draft.text : null,
      variables,
    });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const k = issue.path[0];
        if (typeof k === 'string' && k in draft && !found[k as keyof TemplateDraft]) found[k as keyof TemplateDraft] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    const body = { ...parsed.data, text: parsed.data.text ?? null };
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

  const aria = (k: keyof TemplateDraft) => ({
    'aria-invalid': Boolean(errors[k]),
    'aria-describedby': errors[k] ? `${fid(k)}-error` : undefined,
  });
  const used = variablesUsedIn(draft).filter((v) => !variables.includes(v));

  return (
    <form onSubmit={onSubmit} noValidate>
      <fieldset disabled={save.isPending || del.isPending} className="flex min-w-0 flex-col gap-4">
        <legend className="sr-only">{template ? `Edit ${template.name}` : 'New template'}</legend>
        {saveError !== null && (
          <Alert variant="destructive" title={TEMPLATE_SAVE_FAILED}>
            {reasonOf(saveError)}
          </Alert>
        )}
        {deleteError !== null && (
          <Alert variant="destructive" title={TEMPLATE_DELETE_FAILED}>
            {reasonOf(deleteError)}
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" required htmlFor={fid('name')} error={errors.name}>
            <input
              id={fid('name')}
              className={inputCls}
              value={draft.name}
              onChange={(e) => set('name', e.target.value)}
              {...aria('name')}
            />
          </Field>
          {template ? (
            <Field label="Template ID" htmlFor={fid('id')} hint="The shop refers to the template by its ID, so it cannot change.">
              <input id={fid('id')} className={`${inputCls} font-mono`} value={draft.id} readOnly />
            </Field>
          ) : (
            <Field label="Template ID" required htmlFor={fid('id')} error={errors.id} hint="Lowercase letters, numbers and hyphens.">
              <input
                id={fid('id')}
                className={`${inputCls} font-mono`}
                value={draft.id}
                onChange={(e) => {
                  idTouched.current = true;
                  set('id', e.target.value);
                }}
                {...aria('id')}
              />
            </Field>
          )}
        </div>
        <Field label="Subject" required htmlFor={fid('subject')} error={errors.subject}>
          <input
            ref={subjectRef}
            id={fid('subject')}
            className={inputCls}
            value={draft.subject}
            onFocus={() => (lastField.current = 'subject')}
            onChange={(e) => set('subject', e.target.value)}
            {...aria('subject')}
          />
        </Field>

        <div className="flex flex-col gap-2">
          <Field
            label="Variables"
            htmlFor={fid('variables')}
            error={errors.variables}
            hint="Names separated by commas. Use them in the subject or HTML as {{name}}."
          >
            <input
              id={fid('variables')}
              className={`${inputCls} font-mono`}
              value={draft.variables}
              onChange={(e) => set('variables', e.target.value)}
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
          {used.length > 0 && (
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

        <Field label="HTML" required htmlFor={fid('html')} error={errors.html}>
          <textarea
            ref={htmlRef}
            id={fid('html')}
            rows={18}
            spellCheck={false}
            className={`${inputCls} font-mono text-xs leading-relaxed`}
            value={draft.html}
            onFocus={() => (lastField.current = 'html')}
            onChange={(e) => set('html', e.target.value)}
            {...aria('html')}
          />
        </Field>
        <Field
          label="Plain-text version"
          htmlFor={fid('text')}
          error={errors.text}
          hint="Optional. When empty, the text version is made from the HTML."
        >
          <textarea
            id={fid('text')}
            rows={6}
            spellCheck={false}
            className={`${inputCls} font-mono text-xs leading-relaxed`}
            value={draft.text}
            onChange={(e) => set('text', e.target.value)}
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
            {template?.builtIn && <p className="text-sm text-stone-700">Built-in templates can be edited but not deleted.</p>}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" onClick={onCancel}>
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
    </form>
  );
}
