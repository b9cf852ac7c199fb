import { z } from 'zod';
import { pageOf, pageQuery } from './paging.js';

/**
 * The owner's view of stock holds (issue [2/8], decision 0042): what unpaid checkouts hold now, per
 * product and variant, and ending one. Texts the back office shows and the tests read.
 */
export const HOLDS_MESSAGES = {
  title: 'Held in checkouts',
  intro: 'Units in unpaid checkouts. Ending a hold ends that checkout: it can no longer be paid, and a payment arriving later is refunded.',
  empty: 'No checkout holds stock right now.',
  endButton: 'End hold',
  confirm: (orderNumber: string, units: number) =>
    `End the hold of checkout ${orderNumber}? Its ${units} ${units === 1 ? 'unit goes' : 'units go'} back on sale and the checkout can no longer be paid.`,
  ended: (orderNumber: string) => `Checkout ${orderNumber} ended: its units are back on sale.`,
  notFound: 'No unpaid checkout of that order holds stock.',
  alreadyEnded: 'That checkout has already ended or been paid: it holds nothing now.',
  keeping: 'Kept from others',
  soft: 'Others may buy',
  guest: 'E-mail not given',
} as const;

/** GET /api/admin/holds: a page of the holds, by product and variant, oldest first within each. */
export const HoldsQuery = pageQuery(25).omit({ search: true });
export type HoldsQuery = z.infer<typeof HoldsQuery>;

/** One checkout's hold of one variant. */
export const HoldView = z.object({
  orderId: z.string(),
  orderNumber: z.string(),
  productId: z.string(),
  variantId: z.string(),
  /** 'Concentrated All-Purpose Cleaner — Lavender, 32 oz' (the line's title). */
  title: z.string(),
  units: z.number().int(),
  /** When the checkout took the hold. */
  since: z.string(),
  /** Until when the units are kept from other shoppers (past: others may buy them). */
  firmUntil: z.string(),
  /** When the checkout's hold ends. */
  expiresAt: z.string(),
  /** The shopper's e-mail as given at checkout. */
  email: z.string().nullable(),
});
export type HoldView = z.infer<typeof HoldView>;

export const HoldsPage = pageOf(HoldView);
export type HoldsPage = z.infer<typeof HoldsPage>;

/** POST /api/admin/holds/:orderId/end: the checkout ended, with the units it held. */
export const EndHoldResult = z.object({ orderId: z.string(), orderNumber: z.string(), units: z.number().int() });
export type EndHoldResult = z.infer<typeof EndHoldResult>;
