import '../../lib/zod-config.js';
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONSENT_SOURCE_WORDS,
  EMAIL_PREFERENCES_MESSAGES,
  EmailPreferences,
  MARKETING_CONSENT_LABEL,
  type EmailPreferencesInput,
} from '../../../shared/schemas/email-preferences.js';
import { apiRequestWith } from '../../lib/api-client.js';
import { errorMessage } from '../../lib/error-message.js';
import { formatDate } from '../../lib/format.js';
import { Button } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { toast } from '../../ui/toast.js';
import { Panel } from './panel.js';

const KEY = ['account', 'email-preferences'] as const;
const URL = '/api/account/email-preferences';
const schema = () => Promise.resolve(EmailPreferences);

/**
 * The account's e-mail preferences (issue [7/8]): offers and reminders (off until the customer
 * says yes), review requests (on until they say no). What the server answers is what is shown:
 * after a save, and when another tab saved first.
 */
export function EmailPreferencesCard() {
  const id = useId();
  const queryClient = useQueryClient();
  const prefs = useQuery({ queryKey: KEY, queryFn: () => apiRequestWith(URL, schema) });
  // What the customer changed and has not saved; everything else shows what the server holds.
  const [changed, setChanged] = useState<Partial<EmailPreferencesInput>>({});
  const [error, setError] = useState<string | null>(null);
  const draft: EmailPreferencesInput | null = prefs.data
    ? { marketing: prefs.data.marketing, reviewRequests: prefs.data.reviewRequests, ...changed }
    : null;
  const save = useMutation({
    mutationFn: (body: EmailPreferencesInput) => apiRequestWith(URL, schema, { method: 'PUT', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(KEY, saved);
      setChanged({});
      setError(null);
      toast({ title: EMAIL_PREFERENCES_MESSAGES.saved });
    },
    onError: (err) => setError(errorMessage(err, 'Your e-mail preferences could not be saved. Please try again.')),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (draft && !save.isPending) save.mutate(draft);
  };

  const data = prefs.data;
  return (
    <Panel title="E-mail Preferences">
      {prefs.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 text-sm text-red-700">
          Your e-mail preferences could not be loaded.
          <Button variant="outline" size="sm" onClick={() => void prefs.refetch()}>
            Try again
          </Button>
        </div>
      ) : !data || !draft ? (
        <div className="flex flex-col gap-3" aria-busy="true" aria-label="Loading e-mail preferences">
          <Skeleton className="h-5 w-56" />
          <Skeleton className="h-5 w-44" />
          <Skeleton className="h-9 w-32" />
        </div>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-describedby={`${id}-note`}>
          <p id={`${id}-note`} className="text-sm text-stone-700">
            For {data.email}. Order, subscription and password e-mails are always sent.
          </p>
          <div className="flex flex-col gap-1">
            <label className="flex cursor-pointer items-start gap-3 text-sm font-medium text-stone-900">
              <input
                type="checkbox"
                checked={draft.marketing}
                onChange={(e) => setChanged({ ...changed, marketing: e.target.checked })}
                aria-describedby={`${id}-marketing`}
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
              />
              <span>{MARKETING_CONSENT_LABEL}</span>
            </label>
            <p id={`${id}-marketing`} className="pl-8 text-xs text-stone-600">
              {data.marketing && data.marketingSince && data.marketingSource
                ? `On since ${formatDate(data.marketingSince)}, ${CONSENT_SOURCE_WORDS[data.marketingSource]}.`
                : data.unsubscribed
                  ? 'Off: you unsubscribed.'
                  : 'Off.'}
            </p>
          </div>
          <label className="flex cursor-pointer items-start gap-3 text-sm font-medium text-stone-900">
            <input
              type="checkbox"
              checked={draft.reviewRequests}
              onChange={(e) => setChanged({ ...changed, reviewRequests: e.target.checked })}
              className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
            />
            <span>Ask me to review what I bought</span>
          </label>
          <p role="alert" className={error ? 'text-sm font-medium text-red-700' : 'sr-only'}>
            {error ?? ''}
          </p>
          <div>
            <Button type="submit" variant="outline" size="sm" disabled={save.isPending} aria-busy={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Preferences'}
            </Button>
          </div>
        </form>
      )}
    </Panel>
  );
}
