import { z } from 'zod';
import { formatCents, MAX_ORDER_TOTAL_CENTS } from '../money.js';
import { tooLong } from './limits.js';

/*
 * Orders the owner handles by hand (issue [4/6]): an order typed in with product lines, the payment
 * the owner records or asks for with a link, a cancel that refunds in the same step, and whether a
 * status change e-mails the customer. Imports nothing of admin.ts, which builds on it.
 */

/** The most lines an order typed in by the owner may carry. */
export const OWNER_ORDER_MAX_LINES = 50;
/** The most units of one line. */
export const OWNER_ORDER_MAX_QUANTITY = 999;

export const OWNER_ORDER_MESSAGES = {
  productRequired: 'Choose a product for every line',
  quantityRequired: 'Quantity must be a whole number',
  quantityMin: 'Quantity must be at least 1',
  quantityMax: `Quantity cannot exceed ${OWNER_ORDER_MAX_QUANTITY}`,
  tooManyLines: `An order can have at most ${OWNER_ORDER_MAX_LINES} lines`,
  discountNumber: 'Discount must be a number',
  discountWhole: 'Discount must be in whole cents (at most 2 decimals)',
  discountNegative: 'Discount cannot be negative',
  discountTooLarge: 'Discount cannot exceed $999,999.99',
  shippingNumber: 'Shipping must be a number',
  shippingWhole: 'Shipping must be in whole cents (at most 2 decimals)',
  shippingNegative: 'Shipping cannot be negative',
  shippingTooLarge: 'Shipping cannot exceed $999,999.99',
  linesOrTotal: 'Add at least one product, or enter a total amount',
  linesAndTotal: 'An order with products takes its total from them: leave the total amount empty',
  moneyWithoutLines: 'A discount or shipping goes with product lines: add a product, or put it in the total amount',
  productGone: (id: string) => `The product ${id} is not in the catalogue (any more): remove its line`,
  discountOverSubtotal: (subtotalCents: number) =>
    `The discount cannot be more than the products' subtotal of ${formatCents(subtotalCents)}`,
  newOrderCancelled: 'A new order with products cannot start cancelled: choose another status',
  productsFixed: 'The products of an order are set when it is created: cancel it and create a new one to change them',
  orderTooLarge: 'This order would be over $999,999.99: take some units off',
  notEnoughStock: (short: string[]) => `Not enough stock for this order: ${short.join('; ')}. Lower the quantity or restock first.`,
  methodRequired: 'Choose how the customer paid: cash, bank transfer or card on the phone',
  noteTooLong: 'A note cannot exceed 500 characters',
  alreadyPaid: 'This order is already paid.',
  notOwnerEntered: 'This order was placed through checkout: its payment comes from the card page, not by hand.',
  cancelledNotPayable: 'This order is cancelled: reopen it before taking a payment for it.',
  nothingToPay: 'This order comes to $0.00: there is nothing to pay by card. Record the payment instead.',
  noEmailForLink: 'This order has no e-mail address to send the link to: add the customer or an e-mail in Edit first.',
  refundOnlyOnCancel: 'A refund goes with a status change only when the order is being cancelled. Use Refund on the order instead.',
  refundNotPaid: 'Only a paid order can be refunded: this one has no payment to give back.',
  correctNotRecorded:
    'Only a payment recorded by hand (cash, bank transfer or card on the phone) can have its method corrected: a payment taken through the card page stays as the provider recorded it.',
  correctSameMethod: (name: string) => `This payment is already recorded as ${name}: choose the method it was really paid by.`,
} as const;

/** Refunded in full: it was paid, so "not paid yet" would be untrue (a reopened, refunded order). */
export const REFUNDED_NOT_SHIPPABLE =
  'This order was refunded in full: it cannot be marked shipped or given a label. Take the payment again as a new order if it should still ship.';

/**
 * Why an order may not be shipped, from its payment as it is: refunded in full, or not paid (yet).
 * `unpaid`: the not-paid text (ADMIN_MESSAGES.unpaidNotShippable, passed in: admin.ts builds on this file).
 */
export function notShippableMessage(paymentStatus: string, unpaid: string): string {
  return paymentStatus === 'refunded' ? REFUNDED_NOT_SHIPPABLE : unpaid;
}

/** How the owner took the money for an order typed in by hand. */
export const RECORDED_PAYMENT_METHODS = ['cash', 'bank_transfer', 'card_phone'] as const;
export type RecordedPaymentMethod = (typeof RECORDED_PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_NAMES: Record<string, string> = {
  cash: 'cash',
  bank_transfer: 'bank transfer',
  card_phone: 'card on the phone',
  test: 'the test card page',
  stripe: 'Stripe',
};

/** One product line of an order the owner types in: the product and how many (its price is the catalogue's). */
export const OwnerOrderLine = z
  .object({
    productId: z
      .string({ message: OWNER_ORDER_MESSAGES.productRequired })
      .trim()
      .min(1, OWNER_ORDER_MESSAGES.productRequired)
      .max(100, tooLong('Product id', 100)),
    /** The version sold; absent: the product's first variant. */
    variantId: z.string().trim().min(1, OWNER_ORDER_MESSAGES.productRequired).max(120, tooLong('Variant id', 120)).optional(),
    quantity: z
      .number({ message: OWNER_ORDER_MESSAGES.quantityRequired })
      .int(OWNER_ORDER_MESSAGES.quantityRequired)
      .min(1, OWNER_ORDER_MESSAGES.quantityMin)
      .max(OWNER_ORDER_MAX_QUANTITY, OWNER_ORDER_MESSAGES.quantityMax),
  })
  .strict();
export type OwnerOrderLine = z.output<typeof OwnerOrderLine>;

const cents = (m: { number: string; whole: string; negative: string; tooLarge: string }) =>
  z.number({ message: m.number }).int(m.whole).min(0, m.negative).max(MAX_ORDER_TOTAL_CENTS, m.tooLarge);

/** The fields an order typed in with products adds to the admin order body (AdminOrderInput). */
export const OwnerOrderLineFields = {
  lines: z.array(OwnerOrderLine).max(OWNER_ORDER_MAX_LINES, OWNER_ORDER_MESSAGES.tooManyLines).optional(),
  discountCents: cents({
    number: OWNER_ORDER_MESSAGES.discountNumber,
    whole: OWNER_ORDER_MESSAGES.discountWhole,
    negative: OWNER_ORDER_MESSAGES.discountNegative,
    tooLarge: OWNER_ORDER_MESSAGES.discountTooLarge,
  }).optional(),
  shippingCents: cents({
    number: OWNER_ORDER_MESSAGES.shippingNumber,
    whole: OWNER_ORDER_MESSAGES.shippingWhole,
    negative: OWNER_ORDER_MESSAGES.shippingNegative,
    tooLarge: OWNER_ORDER_MESSAGES.shippingTooLarge,
  }).optional(),
  /** A status change e-mails the customer unless this is false (the edit form's "Notify the customer"). */
  notify: z.boolean({ message: 'notify must be true or false' }).optional(),
};

/** POST /api/admin/orders/:id/payments: the owner took the money themselves. */
export const RecordPaymentInput = z
  .object({
    method: z.enum(RECORDED_PAYMENT_METHODS, { message: OWNER_ORDER_MESSAGES.methodRequired }),
    note: z
      .string()
      .trim()
      .max(500, OWNER_ORDER_MESSAGES.noteTooLong)
      .optional()
      .transform((v) => v || undefined),
  })
  .strict();
export type RecordPaymentInput = z.output<typeof RecordPaymentInput>;

/** PATCH /api/admin/orders/:id/payments: the method of a payment the owner recorded, corrected (audited). */
export const CorrectPaymentMethodInput = z
  .object({
    method: z.enum(RECORDED_PAYMENT_METHODS, { message: OWNER_ORDER_MESSAGES.methodRequired }),
    note: RecordPaymentInput.shape.note,
  })
  .strict();
export type CorrectPaymentMethodInput = z.output<typeof CorrectPaymentMethodInput>;

/** A payment the owner recorded by hand (its method may be corrected), as against one a provider took. */
export function isRecordedPaymentMethod(provider: string | null | undefined): provider is RecordedPaymentMethod {
  return (RECORDED_PAYMENT_METHODS as readonly string[]).includes(provider ?? '');
}

/** The refund that goes with a cancellation (PATCH /api/admin/orders/:id/status with status `cancelled`). */
export const CancelRefund = z
  .object({
    amountCents: z
      .number({ message: 'Enter an amount greater than $0.00' })
      .int('Refund amount must be in whole cents (at most 2 decimals)')
      .min(1, 'Enter an amount greater than $0.00')
      .max(MAX_ORDER_TOTAL_CENTS, 'Refund amount cannot exceed $999,999.99'),
    reason: z
      .string()
      .trim()
      .max(500, 'A reason cannot exceed 500 characters')
      .optional()
      .transform((v) => v || undefined),
  })
  .strict();

/** The answer of POST /api/admin/orders/:id/payment-link. */
export const PaymentLinkView = z.object({ url: z.string(), expiresAt: z.string(), amountCents: z.number().int(), sentTo: z.string() });
export type PaymentLinkView = z.infer<typeof PaymentLinkView>;

/** How long a payment link sent by e-mail stays payable (Stripe's longest checkout session is 24 hours). */
export const PAYMENT_LINK_TTL_MS = 23 * 60 * 60_000;
