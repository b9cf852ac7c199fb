import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { DecoyField, formText, inputClasses } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';
import { useFormTimer } from '../lib/use-form-timer.js';
import { Button } from '../ui/button.js';
import { toast } from '../ui/toast.js';
import { useHydrated } from '../lib/use-hydrated.js';
import { loadContactSchemas, useSubmitContact } from './api/submit-contact.js';

type Values = { name: string; email: string; subject: string; message: string };
type Key = keyof Values;
type Errors = Partial<Record<Key, string>>;

const EMPTY: Values = { name: '', email: '', subject: '', message: '' };
const FIELDS: readonly Key[] = ['name', 'email', 'subject', 'message'];

/** What each field says next to it when left empty (the toast carries the spec's general text). */
const MISSING: Record<Key, string> = {
  name: 'Please enter your full name',
  email: 'Please enter your email address',
  subject: 'Please enter a subject',
  message: 'Please enter your message',
};

function FormField({ id, label, error, children }: { id: string; label: string; error: string | undefined; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
        <span className="ml-0.5 text-red-700" aria-hidden="true">
          *
        </span>
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The contact form. Bots get the same "Message Sent!" as people and nothing is sent: a submit
 * within 1.5 s of the form appearing, or with the hidden decoy field filled. The server applies
 * the same two checks and stores nothing in those cases.
 */
export function ContactForm() {
  const id = useId();
  const elapsed = useFormTimer();
  const submit = useSubmitContact();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [checking, setChecking] = useState(false);
  // The page arrives server-rendered: the fields wait for the browser's code, so nothing typed
  // before it runs is lost (or sent as a plain form submission).
  const hydrated = useHydrated();
  const fid = (k: Key) => `${id}-${k}`;
  const busy = checking || submit.isPending;

  // Fetch the schemas while the person types, so submitting does not wait for them.
  useEffect(() => {
    void loadContactSchemas().catch(() => undefined);
  }, []);

  const set = (k: Key, v: string) => {
    setValues((prev) => ({ ...prev, [k]: v }));
    if (errors[k]) setErrors((prev) => ({ ...prev, [k]: undefined }));
  };

  const sent = () => {
    toast({ title: 'Message Sent!', description: "We'll get back to you as soon as possible." });
    setValues(EMPTY);
    setErrors({});
    formRef.current?.reset();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const elapsedMs = Math.round(elapsed());
    const website = formText(new FormData(e.currentTarget), 'website');
    setChecking(true);
    let schemas: Awaited<ReturnType<typeof loadContactSchemas>>;
    try {
      schemas = await loadContactSchemas();
    } catch {
      setChecking(false);
      toast({ title: 'Error', description: 'Failed to submit form. Please try again later.', variant: 'destructive' });
      return;
    }
    setChecking(false);
    const { ContactInput, CONTACT_MIN_FILL_MS, CONTENT_MESSAGES } = schemas;
    if (website || elapsedMs < CONTACT_MIN_FILL_MS) return sent();

    const parsed = ContactInput.safeParse({ ...values, elapsedMs });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const k = issue.path[0] as Key;
        if (!FIELDS.includes(k) || found[k]) continue;
        found[k] = issue.message === CONTENT_MESSAGES.contactRequired ? MISSING[k] : issue.message;
      }
      setErrors(found);
      const first = FIELDS.find((k) => found[k]);
      if (first) document.getElementById(fid(first))?.focus();
      const missing = FIELDS.some((k) => found[k] === MISSING[k]);
      toast({
        title: 'Error',
        description: missing ? CONTENT_MESSAGES.contactRequired : (first && found[first]) || CONTENT_MESSAGES.contactRequired,
        variant: 'destructive',
      });
      return;
    }
    setErrors({});
    submit.mutate(parsed.data, {
      onSuccess: sent,
      onError: (err) => toast({ title: 'Error', description: errorMessage(err, CONTENT_MESSAGES.contactFailed), variant: 'destructive' }),
    });
  };

  const inputProps = (k: Key) => ({
    id: fid(k),
    name: k,
    value: values[k],
    required: true,
    'aria-invalid': errors[k] ? true : undefined,
    'aria-describedby': errors[k] ? `${fid(k)}-error` : undefined,
  });

  return (
    <form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)} className="relative flex flex-col gap-4">
      <h2 id={`${id}-title`} className="text-xl font-semibold text-stone-900">
        Send Us a Message
      </h2>
      <p className="-mt-2 text-sm text-stone-700">
        Fields marked{' '}
        <span aria-hidden="true" className="text-red-700">
          *
        </span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>
      <fieldset disabled={!hydrated} className="flex min-w-0 flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id={fid('name')} label="Full Name" error={errors.name}>
            <input
              {...inputProps('name')}
              type="text"
              autoComplete="name"
              maxLength={100}
              className={inputClasses(Boolean(errors.name))}
              onChange={(e) => set('name', e.target.value)}
            />
          </FormField>
          <FormField id={fid('email')} label="Email Address" error={errors.email}>
            <input
              {...inputProps('email')}
              type="email"
              autoComplete="email"
              maxLength={254}
              className={inputClasses(Boolean(errors.email))}
              onChange={(e) => set('email', e.target.value)}
            />
          </FormField>
        </div>
        <FormField id={fid('subject')} label="Subject" error={errors.subject}>
          <input
            {...inputProps('subject')}
            type="text"
            maxLength={200}
            className={inputClasses(Boolean(errors.subject))}
            onChange={(e) => set('subject', e.target.value)}
          />
        </FormField>
        <FormField id={fid('message')} label="Message" error={errors.message}>
          <textarea
            {...inputProps('message')}
            rows={5}
            maxLength={5000}
            className={`${inputClasses(Boolean(errors.message)).replace('h-10 ', '')} py-2`}
            onChange={(e) => set('message', e.target.value)}
          />
        </FormField>
        <DecoyField id={`${id}-website`} />
        <Button type="submit" size="lg" className="w-full sm:w-auto sm:self-start" disabled={busy}>
          {busy ? 'Sending...' : 'Send Message'}
        </Button>
      </fieldset>
    </form>
  );
}
