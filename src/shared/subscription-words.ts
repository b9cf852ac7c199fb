import { formatCents } from './money.js';
import { cardBrandName } from './card-words.js';

/**
 * Subscribe and save (issue [4/8], decision 0058): the words, limits and arithmetic the shop, the
 * server and the e-mails share, so a line reads the same wherever it is shown and the price the
 * shopper is told is the one the renewal charges. No zod here: the product, cart and checkout pages
 * import these without loading it (shared/subscriptions.ts adds the schemas and re-exports all this).
 */

/** Intervals a plan may offer, in whole weeks. */
export const SUBSCRIPTION_LIMITS = {
  minWeeks: 1,
  maxWeeks: 52,
  maxIntervals: 8,
  reminderDays: 3,
  defaultSkipAfterDays: 14,
  /** The most of one item a delivery may bring (the customer's Change). */
  maxQuantity: 99,
  /** How far ahead a customer may move their next delivery or pause to. */
  maxDaysAhead: 365,
} as const;

/** Failed renewal charges are tried again this many days after the first failure, in turn. */
export const RENEWAL_RETRY_DAYS = [1, 3, 7] as const;

export const SUBSCRIPTION_MESSAGES = {
  intervalNotOffered: 'This product is not offered at that interval: choose one of the intervals listed.',
  planOff: 'Subscribe and save is no longer offered for this product: buy it once, or choose another.',
  consentMissing: 'Tick the box to agree to the subscription terms before you pay.',
  accountExists: 'An account already uses this e-mail address: sign in to subscribe.',
  discountRange: 'The discount must be between 0% and 100%.',
  intervalsRequired: 'List at least one interval, in whole weeks from 1 to 52.',
  laterFrom: 'The later discount starts from delivery 2 or later.',
  variantOff: 'This version is switched off: switch it on before offering a subscription for it.',
  notFound: 'Subscription not found',
  alreadyCancelled: 'This subscription is already cancelled.',
  /** Skip and Change on a subscription that no longer renews. */
  notRenewing: 'This subscription is cancelled: there is no delivery to skip or change.',
  /** Skip while its delivery's charge is under way (a second later it is paid, or failed and skippable). */
  chargingNow: 'Your next delivery is being charged right now, so it can no longer be skipped. Reload the page in a minute to see it.',
  /** Skip asked for a delivery that is no longer the next (another tab skipped it, or it was sent). */
  staleDelivery: 'Your next delivery is no longer the one on this page: nothing was skipped. Check its date and try again.',
  staleDeliverNow: 'Your next delivery is no longer the one on this page: nothing was ordered. Check its date and try again.',
  /** A skip of an order that was paid meanwhile (by its payment link). */
  alreadyPaid: 'This delivery is already paid and on its way: it can no longer be skipped.',
  quantityRange: `Choose a quantity from 1 to ${SUBSCRIPTION_LIMITS.maxQuantity}.`,
  itemUnknown: 'That item is not part of this subscription.',
  swapUnknown: 'Choose another version of the same product, one that is still sold.',
  swapDuplicate: 'That version is already part of this subscription: change its quantity instead.',
  nothingToChange: 'Choose a new interval, quantity or date to change.',
  dateRange: `Choose a date from tomorrow to ${SUBSCRIPTION_LIMITS.maxDaysAhead} days from now.`,
  dateFormat: 'Choose a date (YYYY-MM-DD).',
  /** Pause on a paused subscription, resume on one that is not. */
  alreadyPaused: 'This subscription is already paused.',
  notPaused: 'This subscription is not paused.',
  cancelWhileImpersonating:
    'An admin acting as the customer cannot cancel their subscription: cancel it from the Subscriptions tab of the back office, where it is recorded.',
  pausedNoSkip: 'This subscription is paused: there is no delivery to skip until it resumes.',
  /** "Deliver now" while a delivery is already being ordered. */
  deliveryUnderWay: 'A delivery is already on its way or being charged: look for it under My Orders.',
  pausedNoDeliver: 'This subscription is paused: resume it to have a delivery sent.',
  /** The reason the skipped-delivery e-mail gives when the customer skipped it. */
  skippedByCustomer: 'you asked us to skip it.',
  /** Skip-one-item or a one-time extra once the next delivery's order is made (charging or waiting for payment). */
  deliveryFixed:
    'Your next delivery is already being charged or waiting for payment, so its items can no longer change. Try again once it is paid.',
  lastItem: 'This is the only item left in your next delivery: to skip them all, skip the delivery instead.',
  extraUnknown: 'Choose a product version that is on sale to add to your next delivery.',
  extraShort: 'There is not enough of this in stock for your next delivery: choose fewer, or another.',
  extraTooMany: 'Your next delivery already carries 10 one-time items: remove one first.',
  extraNotFound: 'That one-time item is not part of your next delivery.',
  /** Reactivate on a subscription that still renews. */
  notCancelled: 'This subscription is not cancelled: there is nothing to reactivate.',
  cardUpdatesTooMany: 'Too many card updates for this subscription in the last hour. Please wait a while and try again.',
  reactivateConsent: 'Tick the box to agree to the subscription terms before you reactivate it.',
  reactivateNoCard: 'There is no card on file for this subscription: subscribe again from the product page.',
  reactivateWhileImpersonating:
    'An admin acting as the customer cannot reactivate their subscription: the customer must agree to its terms themselves.',
  /** Update card ([5/8]): the customer enters a card themselves, on the provider's page. */
  cardWhileImpersonating:
    'An admin acting as the customer cannot change their card: the customer must enter it themselves, from their account or an e-mail’s link.',
  cardCancelled: 'This subscription is cancelled: there is no card to update.',
  cardNotOnline: 'The card of this subscription cannot be changed online: reply to any of our e-mails and we will help.',
  cardUpdateNotFound: 'That card update is not part of this subscription.',
  cardPageFailed: 'The card page could not be opened. Please try again in a moment.',
} as const;

/** A plan's discounts: the first delivery's on, and optionally another from the Nth delivery. */
export type PlanDiscounts = { discountPercent: number; laterDiscountPercent: number | null; laterFromDelivery: number | null };

/** The discount (%) of the `delivery`th delivery (the first order is delivery 1). */
export function discountForDelivery(plan: PlanDiscounts, delivery: number): number {
  if (plan.laterDiscountPercent !== null && plan.laterFromDelivery !== null && delivery >= plan.laterFromDelivery)
    return plan.laterDiscountPercent;
  return plan.discountPercent;
}

/** A unit's price less a discount, rounded to the nearest cent (half a cent up). */
export function discountedCents(priceCents: number, discountPercent: number): number {
  return Math.round((priceCents * (100 - discountPercent)) / 100);
}

/** "every week", "every 4 weeks". */
export function everyWeeksText(weeks: number): string {
  return weeks === 1 ? 'Every week' : `Every ${weeks} weeks`;
}

/** What a subscription line says in the cart, checkout, confirmation and e-mails: "Every 4 weeks · 10% off". */
export function subscriptionLineText(everyWeeks: number, discountPercent: number): string {
  return discountPercent > 0 ? `${everyWeeksText(everyWeeks)} · ${discountPercent}% off` : everyWeeksText(everyWeeks);
}

/** The product page's choice: "Subscribe and save 10%" (no discount: "Subscribe"). */
export function subscribeChoiceText(discountPercent: number): string {
  return discountPercent > 0 ? `Subscribe and save ${discountPercent}%` : 'Subscribe';
}

export const ONE_TIME_PURCHASE = 'One-time purchase';

/** A date as the terms and e-mails write it: "December 27, 2026" (UTC, the shop's renewal clock). */
export function renewalDateText(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** When a cycle falls due: `from` plus whole weeks (the schedule is anchored, so dates never drift). */
export function addWeeks(fromIso: string, weeks: number): string {
  return new Date(new Date(fromIso).getTime() + weeks * 7 * 86_400_000).toISOString();
}

/** A calendar day (YYYY-MM-DD) at the time of day of `timeOf` (ISO): a moved delivery keeps its hour. */
export function onDay(day: string, timeOf: string): string {
  return `${day}T${timeOf.slice(11)}`;
}

/** The calendar day (UTC, YYYY-MM-DD) of an ISO time. */
export function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

/** Whether a day is one a customer may choose: from tomorrow to `maxDaysAhead` days on (UTC days). */
export function isChoosableDay(day: string, now: Date): boolean {
  const first = dayOf(new Date(now.getTime() + 86_400_000).toISOString());
  const last = dayOf(new Date(now.getTime() + SUBSCRIPTION_LIMITS.maxDaysAhead * 86_400_000).toISOString());
  return day >= first && day <= last;
}

/** "1st", "2nd", "3rd", "4th", "11th", "21st". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** The product page's note of a plan's later discount: "15% off from the 4th delivery". */
export function laterDiscountText(discountPercent: number, fromDelivery: number): string {
  return `${discountPercent}% off from the ${ordinal(fromDelivery)} delivery`;
}

/** The shopper's words of Subscribe and save (product page, cart, checkout); the terms themselves are subscriptionTerms. */
export const SUBSCRIPTION_TEXTS = {
  deliverEvery: 'Deliver every',
  perDelivery: 'per delivery',
  termsTitle: 'Subscription terms',
  agree: 'I agree to these subscription terms',
  switchToOneTime: 'Buy once instead',
  /** The confirmation page of an order that started subscriptions. */
  started:
    'Your subscription has started. Its terms and a link to cancel it are in your confirmation e-mail; you can also manage or cancel it online at any time.',
  manageLink: 'Manage your subscriptions',
  /** Where the customer's subscriptions are: the dashboard's Subscriptions card (the e-mail links to it too). */
  accountPath: '/dashboard#subscriptions',
} as const;

/** A priced line as the terms read it: a quote's or a checkout's line (`priceCents` is the first delivery's, less the plan's discount). */
export type TermsLine = {
  name: string;
  quantity: number;
  everyWeeks?: number | null;
  planDiscountPercent?: number | null;
  /** The unit's price bought once (absent: `priceCents`, a line priced before subscriptions). */
  oneTimePriceCents?: number;
  priceCents: number;
  /** The plan's later discount, if it has one. */
  planLater?: { discountPercent: number; fromDelivery: number } | null;
  isFreeGift?: boolean;
};

/** One subscription the checkout starts: the lines of one interval, and what the terms say of it. */
export type TermsGroup = { everyWeeks: number; firstRenewalAt: string; paragraphs: string[] };

function deliveryCharge(lines: readonly TermsLine[], delivery: number): { cents: number; percent: number | null } {
  let cents = 0;
  const percents = new Set<number>();
  for (const l of lines) {
    const percent = discountForDelivery(
      {
        discountPercent: l.planDiscountPercent ?? 0,
        laterDiscountPercent: l.planLater?.discountPercent ?? null,
        laterFromDelivery: l.planLater?.fromDelivery ?? null,
      },
      delivery,
    );
    percents.add(percent);
    cents += discountedCents(l.oneTimePriceCents ?? l.priceCents, percent) * l.quantity;
  }
  return { cents, percent: percents.size === 1 ? [...percents][0]! : null };
}

const lessText = (percent: number | null) =>
  percent === null
    ? "today's prices less each product's subscription discount"
    : percent > 0
      ? `today's prices less ${percent}%`
      : "today's prices";

/**
 * The subscription terms shown next to Pay and kept with the consent (subscription_consents.text is
 * subscriptionTermsText of the same lines): one block per interval and discount (each becomes a
 * subscription, renewed as one order: subscriptions/start.ts groups the order's lines the same way),
 * saying what is charged each delivery (today's prices less the discount, and the later discount
 * from its delivery), how often, that it continues until cancelled, the first renewal date
 * (`nowIso` plus the interval, the date the subscription's schedule starts from), and how to
 * cancel online. Lines without an interval (one-time, free gifts) are not part of it.
 */
export function subscriptionTerms(lines: readonly TermsLine[], nowIso: string): { groups: TermsGroup[]; closing: string } {
  const byTerms = new Map<string, { everyWeeks: number; percent: number; lines: TermsLine[] }>();
  for (const l of lines) {
    if (l.everyWeeks == null || l.isFreeGift) continue;
    const key = JSON.stringify([
      l.everyWeeks,
      l.planDiscountPercent ?? 0,
      l.planLater?.discountPercent ?? null,
      l.planLater?.fromDelivery ?? null,
    ]);
    const group = byTerms.get(key) ?? { everyWeeks: l.everyWeeks, percent: l.planDiscountPercent ?? 0, lines: [] };
    group.lines.push(l);
    byTerms.set(key, group);
  }
  const groups = [...byTerms.values()]
    .sort((a, b) => a.everyWeeks - b.everyWeeks || a.percent - b.percent)
    .map(({ everyWeeks, lines: group }): TermsGroup => {
      const every = everyWeeksText(everyWeeks);
      const first = deliveryCharge(group, 1);
      const laterFrom = [...new Set(group.flatMap((l) => (l.planLater ? [l.planLater.fromDelivery] : [])))].sort((a, b) => a - b);
      const later = laterFrom.map((d) => {
        const c = deliveryCharge(group, d);
        return ` From the ${ordinal(d)} delivery: ${formatCents(c.cents)} (${lessText(c.percent)}).`;
      });
      const firstRenewalAt = addWeeks(nowIso, everyWeeks);
      return {
        everyWeeks,
        firstRenewalAt,
        paragraphs: [
          `${every}: ${group.map((l) => `${l.name} × ${l.quantity}`).join(', ')}.`,
          `We charge ${formatCents(first.cents)} for each delivery (${lessText(first.percent)}), plus shipping and tax as on each order, to the card you pay with now.${later.join('')}`,
          `It continues ${every.toLowerCase()} until you cancel. First renewal: ${renewalDateText(firstRenewalAt)}.`,
        ],
      };
    });
  return { groups, closing: 'Cancel any time online from your account or the link in your confirmation e-mail.' };
}

/** The terms as one text (a paragraph a line): what the checkout shows and what the consent keeps. */
export function subscriptionTermsText(lines: readonly TermsLine[], nowIso: string): string {
  const { groups, closing } = subscriptionTerms(lines, nowIso);
  return groups.length === 0 ? '' : [...groups.flatMap((g) => g.paragraphs), closing].join('\n');
}

/**
 * The terms a customer agrees to again when they reactivate a cancelled subscription (shown next to
 * the box on the page, and kept on the subscription's timeline beside the first consent): the same
 * sentences as at checkout, for what it brings now, its card and its first delivery.
 */
export function reactivationTermsText(s: {
  items: readonly { name: string; quantity: number; unitPriceCents: number | null }[];
  discountPercent: number;
  everyWeeks: number;
  firstDeliveryAt: string;
  card: { brand: string; last4: string } | null;
}): string {
  const every = everyWeeksText(s.everyWeeks);
  const cents = s.items.reduce((sum, i) => sum + (i.unitPriceCents ?? 0) * i.quantity, 0);
  const card = s.card ? `the ${cardBrandName(s.card.brand)} card ending ${s.card.last4}` : 'the card on file';
  return [
    `${every}: ${s.items.map((i) => `${i.name} × ${i.quantity}`).join(', ')}.`,
    `We charge ${formatCents(cents)} for each delivery (${lessText(s.discountPercent)}), plus shipping and tax as on each order, to ${card}.`,
    `It continues ${every.toLowerCase()} until you cancel. First delivery: ${renewalDateText(s.firstDeliveryAt)}.`,
    'Cancel any time online from your account or the link in your e-mails.',
  ].join('\n');
}
