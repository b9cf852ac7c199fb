import { z } from 'zod';

/**
 * Whether the shop takes real money, as the server is configured (src/server/config.ts): the
 * back office shows it on every page while it does not (GET /api/admin/payment-mode).
 */
export const PaymentModeResponse = z.object({
  /** Where checkouts pay: Stripe Checkout, or the built-in test card page at /pay/:id. */
  provider: z.enum(['stripe', 'test']),
  /** No card is charged: the test card page, or Stripe with a test-mode key. */
  testPayments: z.boolean(),
});
export type PaymentModeResponse = z.infer<typeof PaymentModeResponse>;

/** What the back office's banner and the server's startup log say while payments are not real. */
export const TEST_PAYMENT_TEXTS = {
  title: 'Test payments: no money is taken',
  test: 'Checkouts go to the shop’s built-in test card page. No card is charged, yet orders are marked paid: an order marked paid here was not paid.',
  stripe: 'Stripe runs with a test-mode key. No card is charged, yet orders are marked paid: an order marked paid here was not paid.',
  howToEnd: 'To take real payments, set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to your live Stripe keys and restart the shop.',
} as const;

export function testPaymentsExplanation(provider: PaymentModeResponse['provider']): string {
  return TEST_PAYMENT_TEXTS[provider];
}

/**
 * The owner's switch for Stripe Checkout's own unticked "offers" box (`consent_collection.promotions`),
 * a `settings` row ('true' or 'false'; off when missing). A tick there is recorded as the shop's
 * marketing consent (issue [7/8]); Stripe shows the box only where it offers it (US shops, US shoppers).
 */
export const STRIPE_PROMOTIONS_CONSENT_KEY = 'stripe_promotions_consent';

export const STRIPE_PROMOTIONS_CONSENT_TEXTS = {
  label: "Ask for offers consent on Stripe's payment page",
  hint: 'Stripe shows its own unticked box; a tick is recorded as consent for offers and reminders. Not available in every country.',
  notStripe: 'Checkouts do not go to Stripe on this server, so this has no effect.',
} as const;

/** Why a payment that arrived could not be taken for its order (server: payments/stray-payments.ts). */
export const StrayPaymentReason = z.enum(['order_paid', 'order_cancelled', 'session_ended', 'session_replaced', 'amount_changed']);
export type StrayPaymentReason = z.infer<typeof StrayPaymentReason>;

export const StrayPaymentStatus = z.enum(['refunding', 'refunded', 'failed', 'settled']);
export type StrayPaymentStatus = z.infer<typeof StrayPaymentStatus>;

/** A payment that arrived for a checkout or payment link the shop had ended: never the order's, refunded. */
export const StrayPaymentView = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNumber: z.string(),
  sessionId: z.string(),
  provider: z.string(),
  amountCents: z.number().int(),
  reason: StrayPaymentReason,
  status: StrayPaymentStatus,
  providerRefundId: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
  settledBy: z.string().nullable(),
});
export type StrayPaymentView = z.infer<typeof StrayPaymentView>;

export const StrayPaymentList = z.object({
  items: z.array(StrayPaymentView),
  /** Those still the owner's to look at (a refund that failed or has not answered yet). */
  openCount: z.number().int(),
});
export type StrayPaymentList = z.infer<typeof StrayPaymentList>;

/** The owner settled a failed one by hand (refunded it another way, or kept it with the customer's word). */
export const SettleStrayPaymentInput = z
  .object({ note: z.string().trim().min(1, 'Say how it was settled').max(500, 'A note can be at most 500 characters') })
  .strict();
export type SettleStrayPaymentInput = z.infer<typeof SettleStrayPaymentInput>;

export const STRAY_PAYMENT_TEXTS = {
  reasons: {
    order_paid: 'the order had already been paid',
    order_cancelled: 'the order had been cancelled',
    session_ended: 'its checkout or payment link had ended',
    session_replaced: 'a newer checkout or payment link had replaced it',
    amount_changed: "the order's total had changed",
  } satisfies Record<StrayPaymentReason, string>,
  /** The owner's words, on the order and the dashboard. */
  headline: (amount: string, reason: StrayPaymentReason) =>
    `A card payment of ${amount} arrived after ${STRAY_PAYMENT_TEXTS.reasons[reason]}: it was not taken for the order.`,
  status: {
    refunding: 'Refund asked of the provider: waiting for its answer.',
    refunded: 'Refunded to the customer automatically.',
    failed: 'The automatic refund failed: refund it in Stripe, then mark it settled.',
    settled: 'Settled by hand.',
  } satisfies Record<StrayPaymentStatus, string>,
  dashboardTitle: 'Payments that need you',
  retry: 'Try the refund again',
  settle: 'Mark settled',
  notFound: 'No such stray payment',
  notOpen: 'This payment is already refunded or settled',
  underWay: 'A refund of this payment is under way: look again in a minute',
  /** What the payer reads on coming back from the card page. */
  payer: (amount: string, orderNumber: string) =>
    `Your payment of ${amount} arrived after order #${orderNumber} no longer needed it, so it was not taken: it is being refunded to your card in full. Nothing more is needed from you.`,
} as const;
