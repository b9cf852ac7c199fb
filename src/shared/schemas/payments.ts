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
