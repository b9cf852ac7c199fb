import { addWeeks, renewalDateText, SUBSCRIPTION_STATUS_TEXT, type SubscriptionView } from '../../../shared/subscriptions.js';
import { formatCents } from '../../../shared/money.js';

/**
 * The customer's words for their subscriptions (the dashboard's card, the page of an e-mail's
 * manage link, the cancel dialog), in one place so the pages and the browser journey share them.
 */
export const SUBSCRIPTION_UI_TEXTS = {
  cardTitle: 'Subscriptions',
  manageTitle: 'Your subscription',
  empty: 'You have no subscriptions. Look for Subscribe and save on refills.',
  loading: 'Loading your subscription...',
  loadFailed: "We couldn't load your subscriptions. Please try again later.",
  linkLoadFailed: "We couldn't load this subscription. Please try again.",
  cancelButton: 'Cancel subscription',
  keepButton: 'Keep subscription',
  close: 'Done',
  cancelling: 'Cancelling...',
  dialogTitle: 'Cancel this subscription?',
  dialogNote: 'It ends now: no further deliveries are charged or sent. You can subscribe again any time.',
  reasonLabel: 'Reason (optional)',
  reasonHint: 'Tell us why, if you like: it helps us improve.',
  cancelled: 'Subscription cancelled',
  cancelFailed: 'We could not cancel the subscription. Please try again.',
  isCancelled: 'This subscription is cancelled.',
  invalidLink: 'This link is not valid',
  invalidLinkDetail: 'It may be incomplete or mistyped. Sign in to see and cancel your subscriptions in your account.',
  signIn: 'Sign In',
  goToAccount: 'Go to My Account',
  retry: 'Try Again',
  accountHint: 'All your subscriptions are in your account.',
  skipButton: 'Skip next delivery',
  skipTitle: 'Skip your next delivery?',
  skipConfirm: 'Skip delivery',
  skipping: 'Skipping...',
  keepDelivery: 'Keep delivery',
  skipFailed: 'We could not skip the delivery. Please try again.',
  changeButton: 'Change',
  changeTitle: 'Change your subscription',
  intervalLabel: 'Deliver every',
  intervalOff: 'The interval can no longer be changed: subscribe and save is no longer offered at other intervals for this product.',
  quantityLabel: 'Quantity',
  versionLabel: 'Version',
  saveChange: 'Save changes',
  saving: 'Saving...',
  keepAsIs: 'Keep as is',
  changeFailed: 'We could not change the subscription. Please try again.',
  changed: 'Subscription updated',
  nextDeliveryLabel: 'Next delivery on',
  pauseButton: 'Pause',
  pauseTitle: 'Pause your subscription?',
  pauseUntilLabel: 'Pause until',
  pauseNote:
    'Nothing is charged or sent until then. Deliveries start again on the day you choose, and we remind you three days before. You can resume sooner at any time.',
  pauseConfirm: 'Pause subscription',
  pausing: 'Pausing...',
  keepGoing: 'Keep deliveries',
  resumeButton: 'Resume',
  resumeTitle: 'Resume your subscription?',
  resumeNote: 'Your deliveries start again on the day you choose; then they come at your interval as before.',
  resumeConfirm: 'Resume deliveries',
  resuming: 'Resuming...',
  stayPaused: 'Stay paused',
  actionFailed: 'That did not work. Please try again.',
  deliverNowButton: 'Deliver now',
  deliverNowTitle: 'Send your next delivery now?',
  deliverNowConfirm: 'Order and send now',
  delivering: 'Ordering...',
  notNow: 'Not now',
  addressButton: 'Change address',
  addressTitle: 'Where should it ship?',
  addressEverywhere: 'Use this address for all my subscriptions and my account',
  addressSaved: 'Address updated',
  addressFailed: 'We could not change the address. Please try again.',
  nextDeliveryButton: 'Edit next delivery',
  nextDeliveryTitle: 'Your next delivery',
  nextDeliveryNote: 'Changes here apply to your next delivery only; the ones after it stay as they are.',
  leaveOut: 'Leave out this time',
  bringBack: 'Bring back',
  leftOut: 'Left out next time',
  oneTimeHeading: 'One-time items',
  oneTimeNone: 'No one-time items yet.',
  oneTimeTag: 'Next delivery only',
  removeExtra: 'Remove',
  addExtraHeading: 'Add a one-time item',
  searchLabel: 'Find a product',
  searchPlaceholder: 'Glass cleaner, mop head…',
  searching: 'Searching...',
  noResults: 'No products match. Try another word.',
  versionOf: 'Version',
  addExtraButton: 'Add to next delivery',
  adding: 'Adding...',
  extraAdded: 'Added to your next delivery',
  done: 'Done',
  reactivateButton: 'Reactivate',
  reactivateTitle: 'Reactivate your subscription?',
  reactivateNote: 'It renews again with the same items, interval and discount, charged to the card on file. Please read the terms:',
  reactivateConsent: 'I agree to these terms',
  reactivateConsentMissing: 'Tick the box to agree to the subscription terms before you reactivate it.',
  reactivateConfirm: 'Reactivate subscription',
  reactivating: 'Reactivating...',
  keepCancelled: 'Keep cancelled',
  historyButton: 'History',
  historyHide: 'Hide history',
  historyTitle: 'History',
  historyLoading: 'Loading history...',
  historyEmpty: 'Nothing has happened yet.',
  historyFailed: "We couldn't load the history. Please try again.",
  eachDelivery: 'Next delivery total',
} as const;

/** "$13.49 each" beside an item: its price per unit on the next delivery (none: no longer sold). */
export function unitPriceText(cents: number | null): string {
  return cents === null ? 'no longer sold' : `${formatCents(cents)} each`;
}

/** The next delivery's total as the summary shows it. */
export function deliveryTotalText(cents: number): string {
  return `${formatCents(cents)} with shipping and tax`;
}

/** The toast after reactivating. */
export function reactivatedToast(nextIso: string | null): string {
  return nextIso ? `Subscription reactivated. Your next delivery comes on ${renewalDateText(nextIso)}.` : 'Subscription reactivated.';
}

/** "Robin Refill, 12 Fern Way, Portland, OR 97201". */
export function addressLine(a: NonNullable<SubscriptionView['address']>): string {
  return [a.name, a.address, a.city, `${a.state} ${a.zip}`.trim()].filter(Boolean).join(', ');
}

/** What Deliver now does, before the click. */
export function deliverNowNote(everyWeeks: number): string {
  return `Running low? We charge your saved card today's price less your discount and send your next delivery now. After it, deliveries come ${intervalOption(everyWeeks).toLowerCase()} from today.`;
}

/** The toast after Deliver now: the order on its way, or why it waits. */
export function deliveredToast(d: { status: string; orderNumber: string | null }): string {
  if (d.status === 'paid')
    return d.orderNumber ? `Delivery ordered: order #${d.orderNumber} is on its way.` : 'Delivery ordered: it is on its way.';
  if (d.status === 'waiting_stock') return 'It is out of stock right now: nothing was charged, and we send it as soon as it is back.';
  if (d.status === 'retrying' || d.status === 'needs_customer')
    return 'Your card could not be charged: we have e-mailed you a link to pay for this delivery.';
  return 'Your delivery is being ordered: we e-mail you when it is on its way.';
}

/** The toast after a pause. */
export function pausedToast(resumeIso: string | null): string {
  return resumeIso ? `Subscription paused until ${renewalDateText(resumeIso)}.` : 'Subscription paused.';
}

/** The toast after a resume. */
export function resumedToast(nextIso: string | null): string {
  return nextIso ? `Subscription resumed. Your next delivery comes on ${renewalDateText(nextIso)}.` : 'Subscription resumed.';
}

/** A UTC calendar day (YYYY-MM-DD) `days` from `now`, for a date field's default, min and max. */
export function dayFromNow(days: number, now = new Date()): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** "Every 4 weeks" as an option of the interval list. */
export function intervalOption(weeks: number): string {
  return weeks === 1 ? 'Every week' : `Every ${weeks} weeks`;
}

/** What skipping the next delivery does, in the dialog: this date skipped, nothing charged, the next one on its date. */
export function skipNote(nextIso: string, everyWeeks: number): string {
  return `Your delivery of ${renewalDateText(nextIso)} is skipped: nothing is charged or sent for it. The next one comes on ${renewalDateText(addWeeks(nextIso, everyWeeks))}.`;
}

/** The toast after a skip: when the next delivery now comes. */
export function skippedToast(nextIso: string | null): string {
  return nextIso ? `Delivery skipped. Your next one comes on ${renewalDateText(nextIso)}.` : 'Delivery skipped.';
}

/** When a change takes effect, in the change dialog (the day field shows the next delivery's date). */
export const CHANGE_NOTE =
  'Your next delivery brings the new quantities, and the new interval counts from it. Each delivery is charged at that day’s price less your discount, and we e-mail you the new terms.';

/** The longest reason the server keeps (CancelSubscriptionInput). */
export const CANCEL_REASON_MAX = 500;

/** Badge colours by status: active green, paused grey, a failing payment amber, cancelled red. */
export const SUBSCRIPTION_STATUS_TONE: Record<SubscriptionView['status'], string> = {
  active: 'bg-green-100 text-green-900',
  paused: 'bg-stone-200 text-stone-800',
  payment_failing: 'bg-amber-100 text-amber-900',
  cancelled: 'bg-red-100 text-red-900',
};

export function statusText(status: SubscriptionView['status']): string {
  return SUBSCRIPTION_STATUS_TEXT[status];
}

/** "2 deliveries so far" ("1 delivery so far", "No deliveries yet"). */
export function deliveriesText(deliveries: number): string {
  if (deliveries <= 0) return 'No deliveries yet';
  return `${deliveries} ${deliveries === 1 ? 'delivery' : 'deliveries'} so far`;
}

/** The facts under a subscription's items, as label and value: the next delivery (none once cancelled), the deliveries, the cancellation date. */
export function subscriptionFacts(
  sub: Pick<SubscriptionView, 'status' | 'nextRenewalAt' | 'deliveries' | 'cancelledAt'> &
    Partial<Pick<SubscriptionView, 'address' | 'nextDeliveryTotalCents'>>,
): {
  label: string;
  value: string;
  testId: string;
}[] {
  const facts: { label: string; value: string; testId: string }[] = [];
  if (sub.status !== 'cancelled' && sub.nextRenewalAt)
    facts.push({
      label: sub.status === 'paused' ? 'Deliveries resume on' : 'Next delivery',
      value: renewalDateText(sub.nextRenewalAt),
      testId: 'subscription-next',
    });
  if (sub.status !== 'cancelled' && sub.nextDeliveryTotalCents != null)
    facts.push({
      label: SUBSCRIPTION_UI_TEXTS.eachDelivery,
      value: deliveryTotalText(sub.nextDeliveryTotalCents),
      testId: 'subscription-total',
    });
  facts.push({ label: 'Deliveries', value: deliveriesText(sub.deliveries), testId: 'subscription-deliveries' });
  if (sub.status !== 'cancelled' && sub.address)
    facts.push({ label: 'Ships to', value: addressLine(sub.address), testId: 'subscription-address' });
  if (sub.status === 'cancelled' && sub.cancelledAt)
    facts.push({ label: 'Cancelled on', value: renewalDateText(sub.cancelledAt), testId: 'subscription-cancelled-on' });
  return facts;
}

/** What a subscription is called in a button's or dialog's accessible name: "Laundry Powder × 1" or "Laundry Powder × 1 and 1 more". */
export function subscriptionName(sub: Pick<SubscriptionView, 'items'>): string {
  const [first, ...rest] = sub.items;
  if (!first) return 'subscription';
  const head = `${first.name} × ${first.quantity}`;
  return rest.length === 0 ? head : `${head} and ${rest.length} more`;
}

/** The cancel request's body: an empty or blank reason is left out (the server keeps none). */
export function cancelBody(reason: string | undefined): { reason?: string } {
  const trimmed = reason?.trim() ?? '';
  return trimmed ? { reason: trimmed } : {};
}

/** Puts the server's answer for one subscription in place of the list's copy (the rest unchanged, order kept). */
export function replaceSubscription(list: readonly SubscriptionView[], updated: SubscriptionView): SubscriptionView[] {
  return list.map((s) => (s.id === updated.id ? updated : s));
}

/** A price change the customer has been told of, on its item: "New price from March 28, 2026: $18.89 each (now $17.09)". */
export function priceNoticeText(n: { fromCents: number; toCents: number; effectiveFrom: string }): string {
  return `New price from ${renewalDateText(n.effectiveFrom)}: ${formatCents(n.toCents)} each (now ${formatCents(n.fromCents)})`;
}
