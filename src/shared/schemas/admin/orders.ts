import { z } from 'zod';
import { MAX_ORDER_TOTAL_CENTS } from '../../money.js';
import { ORDER_STATUSES, OrderStatus } from '../orders.js';
import { ReturnLines } from '../inventory.js';
import { checkPeriod, PeriodFields, REPORT_MESSAGES } from '../reports.js';
import { OrderSearchText } from '../order-search.js';
import { CancelRefund, OWNER_ORDER_MESSAGES, OwnerOrderLineFields } from '../owner-orders.js';
import { tooLong } from '../limits.js';
import { ShippingAddressInput } from '../checkout.js';
import { dollarsToCents, page, pageSize, textToNumber, tooLarge } from './fields.js';

// The Orders tab: its list, status moves, notes, overview and the owner's order form. Refunds and
// cancelling with returns are in ./order-money.ts.

/** Why a status move or a label is refused (orders/status-rules.ts: the one table of allowed moves). */
export const ORDER_STATE_MESSAGES = {
  cancelledNotShippable:
    'This order is cancelled: it cannot be marked shipped or given a label. Reopen it (set it to processing) first if it should still ship.',
  cancelledNotDelivered: 'This order is cancelled: it cannot be marked delivered. Reopen it (set it to processing) first if it did ship.',
  paidNotPending:
    'This order is paid, so it cannot go back to pending (waiting for payment). Set it to processing, or cancel it to give the payment back.',
  refundedNotReopened:
    'This order was refunded in full: there is nothing left to prepare or deliver. Take the payment again as a new order if it should still ship.',
  unpaidNotPrepared: 'This order is not paid yet: it cannot be prepared or delivered until the payment arrives.',
  labelledNotBack: (status: string) =>
    `This order has a shipping label: void the label first to move it back to ${status} (the label would otherwise still be used).`,
  labelBusyNoMove: 'A label for this order is being bought or voided right now. Wait a moment and reload the order.',
  /** A full refund of an order that had not shipped: the timeline's cause of its cancel. */
  cancelledByFullRefund: 'Refunded in full before it shipped, so it was cancelled',
} as const;

/**
 * The order list's payment filter. Without one the list shows placed orders (paid, refunded in
 * part or in full, and orders the owner entered); unpaid checkouts appear only under `unpaid`
 * (every order not paid, the owner's unpaid ones too) or `abandoned` (checkouts never paid,
 * whether their payment page is still open or ended); `all` shows every order.
 */
export const PAYMENT_FILTERS = ['paid', 'unpaid', 'refunded', 'partially_refunded', 'abandoned', 'all'] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];

/**
 * The order list's status filter: one of the spec's statuses, or `to_ship`, the pile the owner
 * works from: paid orders (refunded in part or not at all) that are completed (paid, nothing done
 * yet) or processing, not yet shipped.
 */
export const ORDER_STATUS_FILTERS = [...ORDER_STATUSES, 'to_ship'] as const;
export type OrderStatusFilter = (typeof ORDER_STATUS_FILTERS)[number];

const AdminOrderListFields = z
  .object({
    page,
    pageSize: pageSize(20),
    search: OrderSearchText,
    status: z.enum(ORDER_STATUS_FILTERS, { message: `status must be one of ${ORDER_STATUS_FILTERS.join(', ')}` }).optional(),
    payment: z.enum(PAYMENT_FILTERS, { message: `payment must be one of ${PAYMENT_FILTERS.join(', ')}` }).optional(),
    // Placed from one of the shop's days to another (schemas/reports.ts).
    ...PeriodFields,
  })
  .strict();
export const AdminOrderListQuery = AdminOrderListFields.superRefine(checkPeriod);

/** GET /api/admin/exports/orders.csv: the list's filters, and `lines=1` for one row per line item. */
export const AdminOrderExportQuery = AdminOrderListFields.omit({ page: true, pageSize: true })
  .extend({
    lines: z.enum(['0', '1'], { message: 'lines must be 0 or 1' }).optional(),
  })
  .superRefine(checkPeriod);

/**
 * A status change. Cancelling a paid order may say which units go back to stock; without it, an
 * order not yet shipped returns every unit and a shipped one none.
 */
export const OrderStatusInput = z
  .object({
    status: OrderStatus,
    returnLines: ReturnLines.optional(),
    /** false: the change is made without e-mailing the customer (recorded on the timeline). */
    notify: OwnerOrderLineFields.notify,
    /** Cancelling a paid order: the refund that goes with it, in the same request (orders/cancel-order.ts). */
    refund: CancelRefund.optional(),
  })
  .strict()
  .refine((v) => !v.refund || v.status === 'cancelled', { message: OWNER_ORDER_MESSAGES.refundOnlyOnCancel, path: ['refund'] });

/** A note the owner adds to an order's timeline. */
export const OrderNoteInput = z
  .object({
    text: z
      .string({ message: 'Note text is required' })
      .trim()
      .min(1, 'Note text is required')
      .max(2000, 'A note cannot exceed 2000 characters'),
  })
  .strict();

/**
 * The orders overview: how many of the shop's days back, today included (7–90, 30 by default), or
 * a period of the shop's days from one date to another (schemas/reports.ts), not both.
 */
const OVERVIEW_DAY_RANGE = { min: 7, max: 90, default: 30 } as const;
export const AdminOrdersOverviewQuery = z
  .object({
    days: z.coerce
      .number({ message: 'days must be a number' })
      .int('days must be a whole number')
      .min(OVERVIEW_DAY_RANGE.min, `days must be at least ${OVERVIEW_DAY_RANGE.min}`)
      .max(OVERVIEW_DAY_RANGE.max, `days cannot exceed ${OVERVIEW_DAY_RANGE.max}`)
      .optional(),
    ...PeriodFields,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.days !== undefined && (v.from || v.to)) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.daysAndDates, path: ['days'] });
    else checkPeriod(v, ctx);
  })
  .transform((v) => ({ ...v, days: v.days ?? OVERVIEW_DAY_RANGE.default }));

/** A structured shipping address, as labels need it: name, street, city, state, ZIP and country. */
export const AdminOrderAddress = z
  .object({
    name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(100, tooLong('Name', 100)),
    address: z.string({ message: 'Street is required' }).trim().min(1, 'Street is required').max(200, tooLong('Street', 200)),
    city: z.string({ message: 'City is required' }).trim().min(1, 'City is required').max(100, tooLong('City', 100)),
    // The checkout's own rules (a state it ships to, a US ZIP, the US): a label needs what a shopper must give.
    state: ShippingAddressInput.shape.state,
    zip: ShippingAddressInput.shape.zip,
    country: ShippingAddressInput.shape.country,
    /** The e-mail checkout keeps with the address (left as it was when absent). */
    email: z.string().trim().max(254, tooLong('Email', 254)).optional(),
  })
  .strict();
export type AdminOrderAddress = z.input<typeof AdminOrderAddress>;
const ADDRESS_TEXT = z
  .string({ message: 'Shipping address is required' })
  .trim()
  .min(1, 'Shipping address is required')
  .max(500, tooLong('Shipping address', 500));

/**
 * The admin order form: user_id and shipping_address required (a structured address, or free text
 * as before); total_amount (≥ 0, cents precision) is required to create an order and is only
 * taken on edit for orders without items (their figures are re-split 85/8/7). A note is added to
 * the order's timeline.
 */
export const AdminOrderInput = z
  .object({
    user_id: z.string({ message: 'User ID is required' }).trim().min(1, 'User ID is required').max(100, tooLong('User ID', 100)),
    shipping_address: z.unknown().transform((value, ctx): string | z.output<typeof AdminOrderAddress> => {
      // Text or an address object; the object's own messages ("City is required") reach the caller.
      const schema = value !== null && typeof value === 'object' ? AdminOrderAddress : ADDRESS_TEXT;
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      for (const issue of result.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] });
      return z.NEVER;
    }),
    total_amount: z
      .number({ message: 'Total amount must be a number' })
      .min(0, 'Total amount cannot be negative')
      .max(MAX_ORDER_TOTAL_CENTS / 100, tooLarge('Total amount'))
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Total amount can have at most 2 decimals')
      .optional(),
    note: z
      .string()
      .trim()
      .max(2000, 'A note cannot exceed 2000 characters')
      .optional()
      .transform((v) => v || undefined),
    status: OrderStatus.default('pending'),
    email: z
      .email({ message: 'Please enter a valid email address' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    elapsedMs: z.number().int().min(0, 'elapsedMs cannot be negative').optional(),
    website: z.string().max(200, tooLong('website', 200)).optional(),
    // Product lines priced from the catalogue, with a discount and shipping (owner-orders.ts).
    ...OwnerOrderLineFields,
  })
  .strict();
export type AdminOrderInput = z.input<typeof AdminOrderInput>;

/** Admin-created orders carry only a total: split 85% subtotal, 8% tax, 7% shipping. */
export function splitAdminTotal(totalCents: number): { subtotalCents: number; taxCents: number; shippingCents: number } {
  const subtotalCents = Math.round(totalCents * 0.85);
  const taxCents = Math.round(totalCents * 0.08);
  return { subtotalCents, taxCents, shippingCents: totalCents - subtotalCents - taxCents };
}

/**
 * Each body has a form-shaped twin beside it (…Form): what the back office's inputs hold (text,
 * dollars, local date-times) mapped onto the body, then parsed by the very schema the server uses.
 * A form adds no rule and no message of its own; a field's error comes from the body schema, at the
 * body key (each form names its fields after the body's keys so the errors land on the right input).
 */

/** The owner's order form: the address as fields (or an older order's free text), the total in dollars. */
export const AdminOrderForm = z
  .object({
    user_id: z.string(),
    /** An older order's free-text address: kept as it is while the address fields stay empty. */
    textAddress: z.string().nullable(),
    shipping_address: z.object({
      name: z.string(),
      address: z.string(),
      city: z.string(),
      state: z.string(),
      zip: z.string(),
      country: z.string(),
    }),
    /** Dollars; null when the total is not editable (an order with items). */
    total_amount: z.string().nullable(),
    status: OrderStatus,
    note: z.string(),
    elapsedMs: z.number(),
    website: z.string(),
    /** A new order's product lines (quantities as typed); with any, the total comes from them. */
    lines: z.array(z.object({ productId: z.string(), quantity: z.string() })).optional(),
    /** Dollars (named after the body's keys, as the refund form's amount), with lines only. */
    discountCents: z.string().optional(),
    shippingCents: z.string().optional(),
    /** A guest's e-mail ('' none). */
    email: z.string().optional(),
    /** Whether a status change e-mails the customer. */
    notify: z.boolean().optional(),
  })
  .transform((v): z.input<typeof AdminOrderInput> => {
    const a = v.shipping_address;
    const touched = [a.name, a.address, a.city, a.state, a.zip].some((t) => t.trim() !== '');
    const lines = v.lines ?? [];
    return {
      user_id: v.user_id,
      shipping_address: v.textAddress !== null && !touched ? v.textAddress : a,
      ...(lines.length > 0
        ? {
            lines: lines.map((l) => ({ productId: l.productId, quantity: textToNumber(l.quantity, NaN) })),
            discountCents: dollarsToCents(v.discountCents ?? '', undefined),
            shippingCents: dollarsToCents(v.shippingCents ?? '', undefined),
          }
        : v.total_amount === null
          ? {}
          : { total_amount: textToNumber(v.total_amount, NaN) }),
      status: v.status,
      note: v.note,
      elapsedMs: v.elapsedMs,
      website: v.website,
      ...(v.email !== undefined ? { email: v.email.trim() } : {}),
      ...(v.notify !== undefined ? { notify: v.notify } : {}),
    };
  })
  .pipe(AdminOrderInput);
export type AdminOrderForm = z.input<typeof AdminOrderForm>;
