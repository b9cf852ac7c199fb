import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { TestEmailForm } from '../../../shared/schemas/admin/content.js';
import { TEST_EMAIL_SUBJECT_PREFIX } from '../../../shared/schemas/content.js';
import { useSession } from '../../lib/get-session.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { useSendTestEmail } from '../api/messaging-api.js';
import { Field, inputCls } from '../components/admin-ui.js';
import { EMAIL_CONNECTION_FAILED, useEmailConnectionState } from '../components/email-connection-status.js';

const TEST_EMAIL_SENT = 'Test email sent successfully!';
const TEST_EMAIL_FAILED = 'Failed to send test email. Check console for details.';

/** Test: sends the saved template, filled with sample data, to an address the owner chooses. */
export function TemplateTestSend({ templateId, hasUnsavedChanges }: { templateId: string; hasUnsavedChanges: boolean }) {
  const id = useId();
  const { user } = useSession();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(TestEmailForm), defaultValues: { templateId, testEmail: user?.email ?? '' } });
  const error = errors.testEmail?.message;
  const [result, setResult] = useState<'sent' | 'failed' | null>(null);
  const send = useSendTestEmail();
  const { state } = useEmailConnectionState();
  const connected = state === 'connected';
  const inputId = `${id}-email`;
  const noteId = `${id}-note`;

  // The address typed stays when another template is chosen.
  useEffect(() => setValue('templateId', templateId), [setValue, templateId]);

  return (
    <form
      onSubmit={(e) => {
        setResult(null);
        void handleSubmit((body) => send.mutate(body, { onSuccess: () => setResult('sent'), onError: () => setResult('failed') }))(e);
      }}
      noValidate
      className="flex max-w-xl flex-col gap-4"
    >
      <p className="text-sm text-stone-700">
        Sends the saved template, filled with sample data, to the address below. Its subject starts with{' '}
        <span className="font-mono">{TEST_EMAIL_SUBJECT_PREFIX.trim()}</span>.
      </p>
      {hasUnsavedChanges && (
        <p className="rounded-md bg-yellow-50 px-3 py-2 text-sm text-yellow-900">
          You have unsaved changes; the test uses the saved version.
        </p>
      )}
      <Field label="Send test to" required htmlFor={inputId} error={error}>
        <input
          id={inputId}
          type="email"
          autoComplete="email"
          className={inputCls}
          {...register('testEmail')}
          aria-invalid={Boolean(error)}
          aria-describedby={[error ? `${inputId}-error` : '', connected ? '' : noteId].filter(Boolean).join(' ') || undefined}
        />
      </Field>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Button
          type="submit"
          className="shrink-0 whitespace-nowrap"
          disabled={!connected || send.isPending}
          aria-describedby={connected ? undefined : noteId}
        >
          {send.isPending ? 'Sending…' : 'Send Test Email'}
        </Button>
        {!connected && (
          <p id={noteId} className="text-sm text-stone-700">
            {state === 'testing'
              ? 'Checking the e-mail connection…'
              : `Test e-mails need a working e-mail connection. ${EMAIL_CONNECTION_FAILED}`}
          </p>
        )}
      </div>
      {result === 'sent' && (
        <div role="alert" className="rounded-lg border border-green-300 bg-green-50 p-4 font-semibold text-green-900">
          {TEST_EMAIL_SENT}
        </div>
      )}
      {result === 'failed' && <Alert variant="destructive" title={TEST_EMAIL_FAILED} />}
    </form>
  );
}
