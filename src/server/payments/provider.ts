/**
 * Payment providers as adapters (decision 0049): the built-in test card page, Stripe Checkout and
 * the owner's manual methods (cash, bank transfer, card on the phone) behind one interface, built
 * once for the app (payments/providers.ts, as the mailer is) and handed to every route, worker and
 * service in `AppDeps.payments`. Nothing outside payments/ names Stripe's SDK for money any more.
 *
 * Shaped after Medusa's AbstractPaymentProvider (initiate / retrieve / refund / webhook action) and
 * Vendure's PaymentMethodHandler (createPayment / createRefund), cut to what this shop does: the
 * order is priced and its session row written by the shop first (in the checkout's transaction),
 * then the provider opens its page for it; a payment is completed only by the provider's word (the
 * webhook, a POST to the test card page, or a lookup the shopper's browser asks for with a POST).
 *
 * Charging a saved payment method without the customer present (subscriptions, [4/8]) is one more
 * optional method, `chargeOffSession`: the test card page (with its kept test methods) and Stripe
 * (a PaymentIntent confirmed off-session) have it; a provider that cannot (manual) leaves it out,
 * and the caller asks `canChargeOffSession(provider)` before offering it.
 */
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../db/schema.js';
import type { CheckoutProvider } from '../../shared/payment-provider.js';
import type { RecordedPaymentMethod } from '../../shared/schemas/owner-orders.js';

/** Card providers a checkout or a payment link goes to ('test': the built-in card page). */
export type CardProviderName = CheckoutProvider;
/** What `orders.payment_provider` and `refunds.provider` store: a card provider, or a method the owner recorded. */
export type StoredProvider = CardProviderName | RecordedPaymentMethod;
/** The adapter behind a stored provider: the owner's recorded methods are all the manual one. */
export type ProviderName = CardProviderName | 'manual';

/**
 * What the provider says it took: the amount (cents) and its own payment's id (Stripe's payment
 * intent); with `saved`, the customer and payment method it kept for charges with the customer away
 * (a checkout with subscription lines, [4/8]; Stripe's cus_… and pm_…, or the test page's pm_test_…).
 * A saved method not yet known (Stripe's webhook names the payment, not its method) is null: it is
 * read from `reference` when first needed.
 */
export type ProviderPayment = {
  amountCents: number | null;
  reference: string | null;
  saved?: { customerRef: string | null; paymentMethodRef: string | null } | null;
};

export type OpenPaymentInput = {
  orderId: string;
  /** The shop's session for it, written with the order (payments/sessions.ts openPaymentSessionWrite). */
  sessionId: string;
  /** When the page stops taking payment. */
  expiresAt: Date;
  /** A payment link the owner sends: its own idempotency key (one per link); its payer comes back to /pay/:id/done. */
  link?: { idempotencyKey: string };
  /**
   * The order has subscription lines: the provider keeps the payment method for charges with the
   * customer away ([4/8]). Stripe also keeps it for an order whose lines say so (order_items.every_weeks),
   * asked or not; the test card page reads the lines when it is paid.
   */
  keepMethod?: boolean;
  /** The provider's customer already known (a subscription's customer_ref, Stripe's cus_…): the kept card is attached to it rather than to a new one. */
  customerRef?: string | null;
};

/** The page the payer goes to; `id` differs from the shop's session id when the provider names its own (Stripe's cs_…). */
export type OpenedPayment = { id: string; url: string };

/** What the provider knows of a session now: paid (with what it took), or not (yet). */
export type PaymentLookup = { paid: true; payment: ProviderPayment } | { paid: false };

export type RefundRequest = {
  orderId: string;
  /** The shop's refund (or stray payment) this is: in the provider's metadata and, for the manual one, its id. */
  refundId: string;
  /** The session that took the money, and the provider's payment when already known (asked from the session if not). */
  sessionId: string | null;
  reference?: string | null;
  /** Cents to give back; null: all of the payment. */
  amountCents: number | null;
  /** The provider's idempotency key: the same key never refunds twice. */
  idempotencyKey: string;
  metadata?: Record<string, string>;
};

/**
 * A refund the provider made, or recorded: its id in the provider's scheme (Stripe's re_…, the test
 * page's tre_…, a manual refund's man_…), the payment it came from, and whether the shop's people
 * give the money back by hand (a manual refund is settled when recorded: the owner pays it out).
 */
export type RefundOutcome = { providerRefundId: string; reference: string | null; byHand: boolean };

/**
 * A saved card charged with the customer away (subscriptions, [4/8]): who, which method, how much,
 * once. `paymentMethodRef` may be unknown yet (Stripe's webhook names the first payment, not its
 * method): the provider reads it from `paymentRef` and says which it used.
 */
export type OffSessionCharge = {
  orderId: string;
  amountCents: number;
  /** The provider's customer and saved method (Stripe's cus_… and pm_…; the test page's pm_test_…), saved when the customer was present. */
  customerRef: string | null;
  paymentMethodRef: string | null;
  /** The first payment's own id at the provider (Stripe's pi_…). */
  paymentRef: string | null;
  /** One per subscription, cycle and attempt: the same key never charges twice. */
  idempotencyKey: string;
};

/** Paid; or the bank wants the customer (3-D Secure: they are e-mailed a page); or refused. `paymentMethodRef`: the method used, to keep. */
export type OffSessionOutcome =
  | { status: 'paid'; payment: ProviderPayment; paymentMethodRef: string | null; card?: SavedCardFacts | null }
  | { status: 'needs_customer'; message: string }
  | { status: 'declined'; message: string };

/**
 * The words of an off-session charge that did not pay, the same for every provider (a renewal's
 * e-mail and the customer's page show them): Stripe's own message replaces `declined` where it gives one.
 */
export const OFF_SESSION_MESSAGES = {
  declined: 'Your card was declined.',
  needsCustomer: 'Your bank asks you to confirm this payment.',
  noSavedMethod: 'No card is kept for this subscription.',
} as const;

/** A provider's webhook, read and checked: what it says happened to which session. */
export type ProviderEvent =
  /** `offersConsent`: the payer ticked the provider's own offers box (Stripe's `consent.promotions` 'opt_in'). */
  | { type: 'paid'; sessionId: string; payment: ProviderPayment; offersConsent?: boolean }
  | { type: 'expired'; sessionId: string }
  /** A setup page (no payment) was completed: its card is read from the provider (lookUpCardSetup) and saved once. */
  | { type: 'card_saved'; sessionId: string }
  | { type: 'ignored' };

export type ProviderFailure = 'not_configured' | 'no_payment' | 'refused' | 'no_answer';

/**
 * A provider call that did not do what was asked: not configured here, no payment to act on, refused
 * (with the provider's own message, safe to show the owner), or no answer (it may have happened:
 * ask again with the same idempotency key).
 */
export class PaymentProviderError extends Error {
  constructor(
    readonly kind: ProviderFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** A new id for the shop's session of this provider (cs_test_… for the card page; Stripe's page replaces cs_live_…). */
  newSessionId(): string;
  /** Opens the page the payer pays on, for a session already written. Manual: none (the owner records the money). */
  openPayment?(db: Kysely<Database>, input: OpenPaymentInput): Promise<OpenedPayment>;
  /** Asks the provider about a session (the shopper is back before the webhook). The test page's own record is the truth: never paid here. */
  lookUpPayment(sessionId: string): Promise<PaymentLookup>;
  /** Gives money back (or records that the owner does). Throws PaymentProviderError. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Stops the provider's page of a session the shop ended from taking money: 'retry' when it could not be asked. */
  closePayment(sessionId: string): Promise<'closed' | 'retry'>;
  /** Reads and checks a webhook's raw body; absent for a provider that sends none. Throws PaymentProviderError('refused') for a bad signature. */
  parseWebhook?(rawBody: Buffer, signature: string): ProviderEvent;
  /**
   * [4/8]: charges a saved payment method with the customer away, once per idempotency key (the same
   * key answers the first answer again). Absent where the provider cannot. Throws
   * PaymentProviderError: 'no_answer' (it may have happened: ask again with the same key),
   * 'not_configured', or 'refused' when the provider refused the request itself (not the card).
   */
  chargeOffSession?(charge: OffSessionCharge): Promise<OffSessionOutcome>;
  /** [5/8]: the method, customer and card (brand, last four) a first payment saved (Stripe's webhook names only the payment). */
  savedCardOfPayment?(paymentRef: string): Promise<{ paymentMethod: string | null; customer: string | null; card: SavedCardFacts | null }>;
  /**
   * [5/8]: opens a page where the customer saves a card for later charges and pays nothing (Stripe
   * Checkout in setup mode for the customer, made first when there is none; the test card page in
   * setup mode). Absent where the provider cannot. Throws PaymentProviderError.
   */
  openCardSetup?(input: CardSetupInput): Promise<OpenedCardSetup>;
  /** The card a setup page saved, once the provider says it is complete (null: not yet, or never). The test page's own record is the truth: absent. */
  lookUpCardSetup?(providerSessionId: string): Promise<SavedCard | null>;
}

/** What a customer knows of a card: its brand as people write it ("Visa") and the last four digits (never a number). */
export type SavedCardFacts = { brand: string; last4: string };

/** A card saved on a setup page: the method to charge later, the provider's customer it is attached to, and its facts. */
export type SavedCard = SavedCardFacts & { paymentMethodRef: string; customerRef: string | null };

export type CardSetupInput = {
  /** The shop's id for the page (subscriptions' card update): the idempotency key and the test page's address. */
  setupId: string;
  /** The provider's customer the card is for; null: the provider makes one (Stripe) for this e-mail. */
  customerRef: string | null;
  email: string;
  /** Where the provider sends the customer back: saved, or left. */
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  metadata: Record<string, string>;
};

/** The setup page opened: the provider's id for it (Stripe's cs_…), its address, and the customer the card will belong to. */
export type OpenedCardSetup = { id: string; url: string; customerRef: string | null };

/** A setup page as the test card page shows it: whose, and open, or closed with why. */
export type CardSetupPageState = { email: string; terms: string; closed: string | null; backHref: string };

/**
 * What the shop does with a provider's word about a setup page (subscriptions' card update, wired
 * by app.ts, so payments imports no subscriptions code): the test card page reads its state, saves
 * its card or is left; Stripe's webhook says one is complete.
 */
export type CardSetupOutcomes = {
  state(setupId: string, now?: Date): Promise<CardSetupPageState | null>;
  /** The test card page kept this card: saved once, while the page is open (else why not). Where the customer goes next. */
  saved(setupId: string, card: SavedCard, now?: Date): Promise<{ saved: true; returnUrl: string } | { saved: false; message: string }>;
  /** The customer left the test card page: it ends; where they go back to. */
  left(setupId: string, now?: Date): Promise<string>;
  /** A provider's setup page (its own id) is complete: its card is asked of the provider and saved once. */
  completed(providerSessionId: string, log: Log): Promise<void>;
};

/** The providers of one app, built once (payments/providers.ts). */
export type PaymentProviders = {
  /** Where checkouts and payment links go: Stripe when its key is set, else the test card page. */
  readonly card: PaymentProvider & Required<Pick<PaymentProvider, 'openPayment'>> & { readonly name: CardProviderName };
  /** The adapter for what an order or refund stores ('stripe', 'test', 'cash', …). */
  of(stored: string | null): PaymentProvider;
  /** Stripe's client, for the coupons the shop mirrors there (coupons/admin-coupons.ts); null without a key. */
  readonly stripeClient: Stripe | null;
};

/** Whether the provider can charge a saved method with the customer away ([4/8] asks before it offers renewals). */
export function canChargeOffSession(
  provider: PaymentProvider,
): provider is PaymentProvider & Required<Pick<PaymentProvider, 'chargeOffSession'>> {
  return typeof provider.chargeOffSession === 'function';
}

type Log = { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void };

/**
 * What the shop does when a provider says a session was paid, ended or declined: checkout's
 * fulfilment (checkout/payment-outcomes.ts, wired by app.ts), so payments' routes complete payments
 * without importing checkout. `paid` decides again under the order's lock and may refuse.
 */
export type PaymentOutcomes = {
  /**
   * `now`: the caller's clock (a renewal run on the schedule's clock); the time of the call when absent.
   * `offersConsent`: the payer said yes to offers on the provider's page, recorded once the payment is the order's.
   */
  paid(
    sessionId: string,
    ctx: { paid?: ProviderPayment | null; log: Log; now?: Date; offersConsent?: boolean },
  ): Promise<{ fulfilled: boolean; refused?: string }>;
  ended(sessionId: string, reason: 'cancelled' | 'expired'): Promise<void>;
  declined(sessionId: string): Promise<void>;
};
