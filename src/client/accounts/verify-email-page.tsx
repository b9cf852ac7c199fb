import { Link, useSearchParams } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { AlertIcon, MailIcon } from '../ui/icons.js';
import { Card } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';
import { useSession } from '../lib/get-session.js';
import { useVerifyEmail } from './api/verify-email.js';
import { VERIFY_MESSAGES } from '../../shared/schemas/email-verification.js';

/** The link from the verification e-mail: verifies the address, then says so (or why not) in words. */
export default function VerifyEmailPage() {
  const [search] = useSearchParams();
  const token = search.get('token')?.trim() ?? '';
  const status = useVerifyEmail(token);
  const { user } = useSession();

  let body;
  if (!token) body = <Problem reason={VERIFY_MESSAGES.missingToken} signedIn={Boolean(user)} />;
  else if (status.isPending)
    body = (
      <p role="status" className="flex items-center justify-center gap-3 py-6 text-stone-700">
        <span
          aria-hidden="true"
          className="h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none"
        />
        Verifying your email address...
      </p>
    );
  else if (status.isError) body = <Problem reason={errorMessage(status.error, VERIFY_MESSAGES.unknownToken)} signedIn={Boolean(user)} />;
  else
    body = (
      <div role="status" className="flex flex-col items-center gap-4 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <MailIcon size={24} />
        </span>
        <h1 className="text-2xl font-bold text-stone-900">{status.data.status === 'verified' ? 'Email verified' : 'Already verified'}</h1>
        <p className="text-stone-700">{status.data.message}</p>
        {user ? (
          <Link to={paths.orders} className={buttonClasses('primary', 'lg', 'w-full')}>
            View My Orders
          </Link>
        ) : (
          <Link
            to={`${paths.authTab('signin')}&redirect=${encodeURIComponent(paths.orders)}`}
            className={buttonClasses('primary', 'lg', 'w-full')}
          >
            Sign In to See Your Orders
          </Link>
        )}
      </div>
    );

  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <Card className="w-full max-w-md">{body}</Card>
    </Container>
  );
}

function Problem({ reason, signedIn }: { reason: string; signedIn: boolean }) {
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-700">
        <AlertIcon size={24} />
      </span>
      <h1 className="text-2xl font-bold text-stone-900">Email not verified</h1>
      <p role="alert" className="w-full rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
        {reason}
      </p>
      <Link to={signedIn ? paths.dashboard : paths.authTab('signin')} className={buttonClasses('primary', 'lg', 'w-full')}>
        {signedIn ? 'Go to My Account' : 'Sign In'}
      </Link>
    </div>
  );
}
