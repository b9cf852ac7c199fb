import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { SubscriptionView } from '../../../shared/subscriptions.js';
import { CARD_RETURN_PARAMS, CARD_UPDATE_TEXTS as T, cardText } from '../../../shared/subscription-card.js';
import { ApiError } from '../../lib/api-client.js';
import { useSession } from '../../lib/get-session.js';
import { Button } from '../../ui/button.js';
import { useCardUpdateOutcome, useStartCardUpdate, type CardTarget } from './api/update-card.js';

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none"
    />
  );
}

/** What became of the card update the customer is back from: saved (the card), still on its way, or nothing saved and why. */
function ReturnNotice({ target, setupId }: { target: CardTarget; setupId: string }) {
  const { data, isError, gaveUp } = useCardUpdateOutcome(target, setupId);
  if (isError) return null;
  if (!data || (data.outcome === 'waiting' && !gaveUp))
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-stone-700" data-testid="subscription-card-notice">
        <Spinner />
        {T.waiting}
      </p>
    );
  if (data.outcome === 'updated' && data.card)
    return (
      <p
        role="status"
        className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm font-medium text-green-900"
        data-testid="subscription-card-notice"
      >
        {T.updated(data.card)}
      </p>
    );
  return (
    <p
      role="status"
      className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="subscription-card-notice"
    >
      {data.message ?? T.stillWaiting}
    </p>
  );
}

/**
 * The card a subscription's renewals charge ("Visa ending 4242", or "No card on file") and its
 * "Update card" button, on the dashboard's Subscriptions card and on an e-mail link's page. The
 * button asks the server for the card page (the provider's, in setup mode: nothing is charged) and
 * goes there; an admin acting as the customer sees the card but no button (the server refuses too).
 * Back from the page (the address names this subscription and the update), it says what became of it.
 */
export function SubscriptionCard({ subscription, target }: { subscription: SubscriptionView; target: CardTarget }) {
  const { impersonatorEmail } = useSession();
  const start = useStartCardUpdate(target);
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // The update this page came back from, kept once read: the address forgets it below, so a reload asks nothing again.
  const [returnedFrom] = useState(() =>
    params.get(CARD_RETURN_PARAMS.subscription) === subscription.id ? params.get(CARD_RETURN_PARAMS.setup) : null,
  );
  const cleared = useRef(false);
  useEffect(() => {
    if (!returnedFrom || cleared.current) return;
    cleared.current = true;
    const rest = new URLSearchParams(params);
    rest.delete(CARD_RETURN_PARAMS.subscription);
    rest.delete(CARD_RETURN_PARAMS.setup);
    const search = rest.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
  }, [returnedFrom, params, location.pathname, location.hash, navigate]);
  const canUpdate = subscription.status !== 'cancelled' && !impersonatorEmail;
  const busy = start.isPending || start.isSuccess;
  const failed = start.error ? (start.error instanceof ApiError && start.error.status < 500 ? start.error.message : T.failed) : null;
  const name = `${T.button}: ${subscription.terms}`;

  return (
    <div className="flex flex-col gap-2" data-testid="subscription-card">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg bg-stone-50 px-3 py-2 text-sm">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="text-stone-600">{T.label}</span>
          <span className="font-semibold text-stone-900" data-testid="subscription-card-text">
            {subscription.card ? cardText(subscription.card) : subscription.cardOnFile ? T.cardKept : T.noCard}
          </span>
        </div>
        {canUpdate && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => start.mutate()}
            disabled={busy}
            aria-busy={busy}
            aria-label={busy ? T.opening : name}
          >
            {busy && <Spinner />}
            {busy ? T.opening : T.button}
          </Button>
        )}
      </div>
      {canUpdate && <p className="text-xs text-stone-600">{T.hint}</p>}
      {failed && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="subscription-card-error">
          {failed}
        </p>
      )}
      {returnedFrom && <ReturnNotice target={target} setupId={returnedFrom} />}
    </div>
  );
}
