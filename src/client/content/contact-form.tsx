import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type FormEvent, type ReactNode } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { DecoyField, fieldAria, inputClasses } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';
import { useBotGuard } from '../lib/use-bot-guard.js';
import { Button } from '../ui/button.js';
import { toast } from '../ui/toast.js';
import { useHydrated } from '../lib/use-hydrated.js';
import { useSubmitContact } from './api/submit-contact.js';
import { CONTACT_MISSING, CONTENT_MESSAGES, ContactInput } from './contact-schemas.js';
import { maxLengths } from '../../shared/schemas/limits.js';

const MAX = maxLengths(ContactInput);

type Key = 'name' | 'email' | 'subject' | 'message';
const FIELDS: readonly Key[] = ['name', 'email', 'subject', 'message'];
const EMPTY = { name: '', email: '', subject: '', message: '', elapsedMs: 0, website: '' };

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
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard('contact');
  const submit = useSubmitContact();
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ContactInput), defaultValues: EMPTY });
  // The page arrives server-rendered: the fields wait for the browser's code, so nothing typed
  // before it runs is lost (or sent as a plain form submission).
  const hydrated = useHydrated();
  const fid = (k: Key) => `${id}-${k}`;
  const busy = isSubmitting || submit.isPending;

  const sent = (form: HTMLFormElement | null) => {
    toast({ title: CONTENT_MESSAGES.contactSuccessTitle, description: CONTENT_MESSAGES.contactSuccess });
    reset(EMPTY);
    form?.reset();
  };

  // The toast carries the specification's general text when a field is empty, else the first field's problem.
  const invalid = (found: FieldErrors<typeof EMPTY>) => {
    const messages = FIELDS.flatMap((k) => found[k]?.message ?? []);
    const missing = messages.some((m) => (Object.values(CONTACT_MISSING) as string[]).includes(m));
    toast({
      title: 'Error',
      description: missing ? CONTENT_MESSAGES.contactRequired : (messages[0] ?? CONTENT_MESSAGES.contactRequired),
      variant: 'destructive',
    });
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const form = e.currentTarget;
    const guard = checkBotGuard(form);
    // The specification's answer for this form: a success that sends nothing.
    if (guard.automated) return sent(form);
    setValue('elapsedMs', guard.elapsedMs);
    setValue('website', guard.website);
    void handleSubmit(
      (body) =>
        submit.mutate(body, {
          onSuccess: () => sent(form),
          onError: (err) =>
            toast({ title: 'Error', description: errorMessage(err, CONTENT_MESSAGES.contactFailed), variant: 'destructive' }),
        }),
      invalid,
    )(e);
  };

  const inputProps = (k: Key) => ({ id: fid(k), required: true, ...register(k), ...fieldAria(errors[k]?.message, `${fid(k)}-error`) });

  return (
    <form ref={attachBotGuard} noValidate onSubmit={onSubmit} className="relative flex flex-col gap-4">
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
          <FormField id={fid('name')} label="Full Name" error={errors.name?.message}>
            <input
              {...inputProps('name')}
              type="text"
              autoComplete="name"
              maxLength={MAX.name}
              className={inputClasses(Boolean(errors.name))}
            />
          </FormField>
          <FormField id={fid('email')} label="Email Address" error={errors.email?.message}>
            <input
              {...inputProps('email')}
              type="email"
              autoComplete="email"
              maxLength={MAX.email}
              className={inputClasses(Boolean(errors.email))}
            />
          </FormField>
        </div>
        <FormField id={fid('subject')} label="Subject" error={errors.subject?.message}>
          <input {...inputProps('subject')} type="text" maxLength={MAX.subject} className={inputClasses(Boolean(errors.subject))} />
        </FormField>
        <FormField id={fid('message')} label="Message" error={errors.message?.message}>
          <textarea
            {...inputProps('message')}
            rows={5}
            maxLength={MAX.message}
            className={`${inputClasses(Boolean(errors.message)).replace('h-10 ', '')} py-2`}
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
