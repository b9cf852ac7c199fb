import { useSearchParams } from 'react-router';
import { Alert } from '../ui/alert.js';
import { OptOutPanel } from '../ui/opt-out-panel.js';
import { Card } from '../ui/form-controls.js';
import { Container } from '../ui/container.js';
import { useOptOut } from './api/opt-out.js';

/**
 * /reviews/opt-out?token=…, the review request e-mail's "stop" link (issue [6/8]). Opening the
 * page changes nothing (a mail scanner follows links); the button does, as the e-mail's one-click
 * header does.
 */
export default function ReviewsOptOutPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const optOut = useOptOut(token);
  return (
    <Container narrow className="py-8 sm:py-12">
      <Card className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold text-stone-900">Review requests</h1>
        {!token ? (
          <Alert variant="destructive" title="This link is missing its code. Use the link in the e-mail as it is." />
        ) : (
          <OptOutPanel
            done={optOut.isSuccess}
            doneText={optOut.data?.message ?? ''}
            question="After an order arrives we send one e-mail asking what you think of what you bought. Press the button and we will not send you these requests any more. Order and shipping e-mails are not affected."
            buttonLabel="Stop review requests"
            pending={optOut.isPending}
            error={optOut.error}
            onPress={() => optOut.mutate()}
          />
        )}
      </Card>
    </Container>
  );
}
