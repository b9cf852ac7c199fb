import '../lib/zod-config.js';
import { useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { UNSUBSCRIBE_MESSAGES, UnsubscribeState } from '../../shared/schemas/email-preferences.js';
import { apiRequestWith } from '../lib/api-client.js';
import { errorMessage } from '../lib/error-message.js';
import { Alert } from '../ui/alert.js';
import { OptOutPanel } from '../ui/opt-out-panel.js';
import { Card } from '../ui/form-controls.js';
import { Container } from '../ui/container.js';
import { Skeleton } from '../ui/skeleton.js';

const schema = () => Promise.resolve(UnsubscribeState);

/**
 * /unsubscribe?token=…, the link in every offer and reminder (issue [7/8]). Opening the page changes
 * nothing (a mail scanner follows links); the button does, as the e-mail's one-click header does.
 * Nobody needs to sign in.
 */
export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const url = `/api/unsubscribe/${encodeURIComponent(token)}`;
  const state = useQuery({
    queryKey: ['unsubscribe', token],
    queryFn: () => apiRequestWith(url, schema),
    enabled: token !== '',
    retry: false,
  });
  const unsubscribe = useMutation({ mutationFn: () => apiRequestWith(url, schema, { method: 'POST' }), onError: () => undefined });
  const now = unsubscribe.data ?? state.data;
  return (
    <Container narrow className="py-8 sm:py-12">
      <Card className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold text-stone-900">Offers and reminders</h1>
        {!token ? (
          <Alert variant="destructive" title="This link is missing its code. Use the link in the e-mail as it is." />
        ) : state.isError ? (
          <Alert variant="destructive" title={errorMessage(state.error, UNSUBSCRIBE_MESSAGES.linkUnknown)} />
        ) : !now ? (
          <div className="flex flex-col gap-3" aria-busy="true" aria-label="Loading">
            <Skeleton className="h-5 w-3/4" />
            <Skeleton className="h-11 w-40" />
          </div>
        ) : (
          <OptOutPanel
            done={now.unsubscribed}
            doneText={UNSUBSCRIBE_MESSAGES.done}
            doneNote={`Address: ${now.address}. Changed your mind? Sign in and turn offers back on in your account’s E-mail Preferences.`}
            question={`Stop offers and reminders (cart reminders, refill reminders and offers) to ${now.address}? Order, subscription and password e-mails are not affected.`}
            buttonLabel="Unsubscribe"
            pending={unsubscribe.isPending}
            error={unsubscribe.error}
            onPress={() => unsubscribe.mutate()}
          />
        )}
      </Card>
    </Container>
  );
}
