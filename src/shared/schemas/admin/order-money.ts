import { z } from 'zod';
import { formatCents, MAX_ORDER_TOTAL_CENTS } from '../../money.js';
import { ORDER_STOCK_MESSAGES, ReturnLines, type OrderStockLine, type ReturnLine } from '../inventory.js';
import { ADMIN_MESSAGES } from './messages.js';
import { OrderStatusInput } from './orders.js';
import { dollarsToCents, textToNumber, tooLarge } from './fields.js';

// Money and stock going back: refunds, and cancelling with returns (src/server/orders/refunds.ts).

/** A refund's amount missing, unreadable or not above zero (the refund dialog's own text). */
const REFUND_AMOUNT_REQUIRED = 'Enter an amount greater than $0.00';

/** POST /api/admin/orders/:id/refunds: an amount in cents (what remains of the payment at most), why, and whether the units return to stock. */
export const RefundInput = z
  .object({
    amountCents: z
      .number({ message: REFUND_AMOUNT_REQUIRED })
      .int('Refund amount must be in whole cents (at most 2 decimals)')
      .min(1, REFUND_AMOUNT_REQUIRED)
      .max(MAX_ORDER_TOTAL_CENTS, tooLarge('Refund amount')),
    reason: z
      .string()
      .trim()
      .max(500, 'A reason cannot exceed 500 characters')
      .optional()
      .transform((v) => v || undefined),
    /** Every unit still out of stock for the order goes back (the old all-or-nothing box). */
    restock: z.boolean({ message: 'restock must be true or false' }).optional(),
    /** The units the owner chose to return, line by line (nothing when absent). */
    returnLines: ReturnLines.optional(),
  })
  .strict();
export type RefundInput = z.output<typeof RefundInput>;

/** The texts of cancel, refund, restock and delete (src/server/orders/refunds.ts). */
export const ORDER_MONEY_MESSAGES = {
  orderNotFound: ADMIN_MESSAGES.orderNotFound,
  paidNotDeletable: ADMIN_MESSAGES.paidOrderNotDeletable,
  notPaid: 'Only a paid order can be refunded: this one has no payment to give back.',
  nothingLeft: 'This order has been refunded in full: nothing is left to refund.',
  /** The refund dialog's check of the same rule, before asking. */
  atMostLeft: (left: number) => `At most ${formatCents(left)} is left to refund`,
  tooMuch: (asked: number, left: number, paid: number) =>
    `A refund of ${formatCents(asked)} is more than what is left to refund: ${formatCents(left)} of the ${formatCents(paid)} paid.`,
  noPayment: 'Stripe has no payment for this order to refund.',
  stripeNotConfigured: 'This order was paid with Stripe, but Stripe is not configured: set STRIPE_SECRET_KEY to refund it.',
  providerFailed: (message: string) => `The payment provider refused the refund: ${message}`,
  providerNoAnswer:
    'Stripe did not answer, so this refund may or may not have gone through. It stays pending and its amount is held back: use Retry on the pending refund (Stripe makes it at most once).',
  refundNotFound: 'Refund not found',
  refundSettled: 'This refund is already settled: only a pending refund can be retried.',
  retryTooLate:
    'This refund was first asked more than 23 hours ago, past the window in which Stripe recognises a retry: check the payment in the Stripe dashboard before refunding again.',
  notEnoughToReopen: (name: string, wanted: number, left: number, status: string) =>
    `Not enough stock to move this cancelled order to ${status}: it needs ${wanted} × ${name}, and ${left} ${left === 1 ? 'is' : 'are'} left. Restock the product first.`,
} as const;

/** The "Return to stock" quantities as typed, one per line of the order ('' is none). */
const ReturnLinesFields = z.array(z.object({ productId: z.string(), quantity: z.string() }));

function returnLinesBody(lines: z.infer<typeof ReturnLinesFields>): ReturnLine[] {
  return lines.map((l) => ({ productId: l.productId, quantity: textToNumber(l.quantity, 0) }));
}

/** No line returns more than the order has out of stock: the server's rule and words, checked before sending. */
function returnAtMostOut(lines: readonly OrderStockLine[]) {
  return (v: { returnLines?: ReturnLine[] | undefined }, ctx: z.RefinementCtx) => {
    (v.returnLines ?? []).forEach((l, i) => {
      const line = lines.find((x) => x.productId === l.productId);
      if (!line || l.quantity <= line.out) return;
      ctx.addIssue({
        code: 'custom',
        path: ['returnLines', i, 'quantity'],
        message: ORDER_STOCK_MESSAGES.notOut(line.name, l.quantity, line.out),
      });
    });
  };
}

/**
 * The refund dialog: the amount in dollars, at most what is left of the payment (`leftCents`, the
 * rule the server applies too), and the units of each line to return to stock with it (at most
 * what the line has out, `lines`).
 */
export function refundForm(leftCents: number, lines: readonly OrderStockLine[] = []) {
  return z
    .object({ amountCents: z.string(), reason: z.string(), returnLines: ReturnLinesFields })
    .transform((v): z.input<typeof RefundInput> => ({
      amountCents: dollarsToCents(v.amountCents, NaN),
      reason: v.reason,
      returnLines: returnLinesBody(v.returnLines),
    }))
    .pipe(RefundInput)
    .refine((v) => v.amountCents <= leftCents, { message: ORDER_MONEY_MESSAGES.atMostLeft(leftCents), path: ['amountCents'] })
    .superRefine(returnAtMostOut(lines));
}
export type RefundForm = z.input<ReturnType<typeof refundForm>>;

/** Cancelling a paid order: the units of each line to return to stock (at most what the line has out). */
export function cancelOrderForm(lines: readonly OrderStockLine[]) {
  return z
    .object({ returnLines: ReturnLinesFields })
    .transform((v): z.input<typeof OrderStatusInput> => ({ status: 'cancelled', returnLines: returnLinesBody(v.returnLines) }))
    .pipe(OrderStatusInput)
    .superRefine(returnAtMostOut(lines));
}
export type CancelOrderForm = z.input<ReturnType<typeof cancelOrderForm>>;

/**
 * Cancelling an order, one dialog (orders/cancel-order.ts): the units to return, whether the
 * customer is e-mailed, and for a paid order the refund that goes with it (`refunding`), at most
 * what is left of the payment (`leftCents`).
 */
export function cancelWithRefundForm(lines: readonly OrderStockLine[], leftCents: number) {
  return z
    .object({
      returnLines: ReturnLinesFields,
      notify: z.boolean(),
      refunding: z.boolean(),
      refund: z.object({ amountCents: z.string(), reason: z.string() }),
    })
    .transform((v): z.input<typeof OrderStatusInput> => ({
      status: 'cancelled',
      returnLines: returnLinesBody(v.returnLines),
      notify: v.notify,
      ...(v.refunding ? { refund: { amountCents: dollarsToCents(v.refund.amountCents, NaN), reason: v.refund.reason } } : {}),
    }))
    .pipe(OrderStatusInput)
    .superRefine(returnAtMostOut(lines))
    .refine((v) => !v.refund || v.refund.amountCents <= leftCents, {
      message: ORDER_MONEY_MESSAGES.atMostLeft(leftCents),
      path: ['refund', 'amountCents'],
    });
}
export type CancelWithRefundForm = z.input<ReturnType<typeof cancelWithRefundForm>>;
