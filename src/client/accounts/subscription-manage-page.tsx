import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { SubscriptionView } from '../../shared/subscriptions.js';
import { useSession } from '../lib/get-session.js';
import { paths } from '../lib/paths.js';
import { signInPathFor } from '../lib/safe-redirect.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { Card } from '../ui/form-controls.js';
import { AlertIcon } from '../ui/icons.js';
import { useCancelSubscriptionLink } from './subscriptions/api/cancel-subscription-link.js';
import { isUnknownLink, useSubscriptionLink } from './subscriptions/api/get-subscription-link.js';
import { dialogOfHash, SubscriptionActions } from './subscriptions/subscription-actions.js';
import { SubscriptionSummary } from './subscriptions/subscription-summary.js';
import { SubscriptionHistory } from './subscriptions/subscription-history.js';
import { SubscriptionCard } from './subscriptions/subscription-card.js';
import { SUBSCRIPTION_UI_TEXTS as T } from './subscriptions/subscription-texts.js';

/** Where the page sends a person to see all their subscriptions: the account, through sign-in when needed. */
function AccountLink({ signedIn, variant }: { signedIn: boolean; variant: 'primary' | 'outline' }) {
  return (
    <Link
      to={signedIn ? paths.dashboard : signInPathFor(paths.dashboard, 'signin')}
      className={buttonClasses(variant, 'lg', 'w-full sm:w-auto')}
    >
      {signedIn ? T.goToAccount : T.signIn}
    </Link>
  );
}

function InvalidLink({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="flex flex-col items-center gap-4 text-center" data-testid="subscription-link-invalid">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-700">
        <AlertIcon size={24} />
      </span>
      <h1 className="text-2xl font-bold text-stone-900">{T.invalidLink}</h1>
      <p className="text-stone-700">{T.invalidLinkDetail}</p>
      <AccountLink signedIn={signedIn} variant="primary" />
    </div>
  );
}

function Managed({ token, subscription, signedIn }: { token: string; subscription: SubscriptionView; signedIn: boolean }) {
  const cancel = useCancelSubscriptionLink(token);
  // The reminder's links open their dialog: "#skip", "#change" or "#cancel".
  const location = useLocation();
  const navigate = useNavigate();
  const initial = dialogOfHash(location.hash);
  const cancelled = subscription.status === 'cancelled';
  return (
    <div className="flex flex-col gap-6" data-subscription={subscription.id}>
      <h1 className="text-2xl font-bold text-stone-900 sm:text-3xl">{T.manageTitle}</h1>
      {cancelled && (
        <p
          role="status"
          className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-900"
          data-testid="subscription-is-cancelled"
        >
          {T.isCancelled}
        </p>
      )}
      <SubscriptionSummary subscription={subscription} headingLevel={2} />
      <SubscriptionCard subscription={subscription} target={{ token }} />
      <SubscriptionActions
        subscription={subscription}
        target={{ token }}
        layout="page"
        initial={initial}
        onDialogClosed={() => {
          if (initial) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
        }}
        onCancel={(reason) => cancel.mutateAsync({ reason })}
      />
      <SubscriptionHistory target={{ token }} items={subscription.items} />
      <div className="flex flex-col gap-3 border-t border-stone-200 pt-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-stone-700">{T.accountHint}</p>
        <AccountLink signedIn={signedIn} variant="outline" />
      </div>
    </div>
  );
}

/**
 * The page of an e-mail's manage link (/subscriptions/manage/:token): the subscription, and
 * skipping its next delivery, changing or cancelling it, without signing in. An unknown link says so, with a way to sign in instead.
 */
export default function SubscriptionManagePage() {
  const token = useParams().token ?? '';
  const link = useSubscriptionLink(token);
  const { user } = useSession();
  const signedIn = Boolean(user);

  let body;
  if (!token || (link.isError && isUnknownLink(link.error))) body = <InvalidLink signedIn={signedIn} />;
  else if (link.isError)
    body = (
      <div className="flex flex-col items-center gap-4 text-center">
        <p role="alert" className="w-full rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {T.linkLoadFailed}
        </p>
        <Button onClick={() => void link.refetch()}>{T.retry}</Button>
      </div>
    );
  else if (!link.data)
    body = (
      <p role="status" className="flex items-center justify-center gap-3 py-6 text-stone-700">
        <span
          aria-hidden="true"
          className="h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none"
        />
        {T.loading}
      </p>
    );
  else body = <Managed token={token} subscription={link.data} signedIn={signedIn} />;

  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <Card className="w-full max-w-2xl">{body}</Card>
    </Container>
  );
}
