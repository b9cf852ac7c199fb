import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../lib/error-message.js';
import { paths } from '../lib/paths.js';
import { Alert } from '../ui/alert.js';
import { Button, buttonClasses } from '../ui/button.js';
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
        {optOut.isSuccess ? (
          <>
            <p role="status" className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 font-medium text-brand-900">
              {optOut.data.message}
            </p>
            <Link to={paths.products} className={buttonClasses('outline', 'md', 'self-start')}>
              Continue shopping
            </Link>
          </>
        ) : (
          <>
            <p className="text-stone-700">
              After an order arrives we send one e-mail asking what you think of what you bought. Press the button and we will not send you
              these requests any more. Order and shipping e-mails are not affected.
            </p>
            {optOut.isError && (
              <Alert variant="destructive" title={errorMessage(optOut.error, 'Something went wrong. Please try again.')} />
            )}
            {!token ? (
              <Alert variant="destructive" title="This link is missing its code. Use the link in the e-mail as it is." />
            ) : (
              <Button
                size="lg"
                className="self-start"
                disabled={optOut.isPending}
                aria-busy={optOut.isPending}
                onClick={() => optOut.mutate()}
              >
                {optOut.isPending ? 'Saving...' : 'Stop review requests'}
              </Button>
            )}
          </>
        )}
      </Card>
    </Container>
  );
}
