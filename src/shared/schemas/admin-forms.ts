import { z } from 'zod';
import { toCents } from '../money.js';
import {
  AdminOrderInput,
  CouponInput,
  ORDER_MONEY_MESSAGES,
  OrderStatusInput,
  ProductInput,
  ProductUpdateInput,
  RefundInput,
  ShippingOptionInput,
  UserPatchInput,
} from './admin.js';
import { OrderStatus } from './orders.js';
import { ORDER_STOCK_MESSAGES, STOCK_REASONS, StockAdjustmentInput, type OrderStockLine, type ReturnLine } from './inventory.js';
import { EmailTemplateInput, FaqInput, IntegrationSettingsInput, TestEmailInput } from './content.js';

/**
 * Form-shaped versions of admin bodies: what the back office's inputs hold (text, dollars, local
 * date-times) mapped onto the body, then parsed by the very schema the server uses. They add no
 * rule and no message of their own; a field's error comes from the body schema, at the body key
 * (each form names its fields after the body's keys so the errors land on the right input).
 */

/** '' → `empty`, else the number typed (NaN for junk; the body schema answers NaN as it answers a missing number). */
function textToNumber<T>(text: string, empty: T): number | T {
  return text.trim() === '' ? empty : Number(text);
}

/**
 * Dollars typed as text → integer cents ('' → `empty`). An amount with more than two decimals
 * (10.555) is not rounded into a different amount: it stays a fraction of a cent, which the body
 * schema refuses with its "in whole cents (at most 2 decimals)" message.
 */
function dollarsToCents<T>(text: string, empty: T): number | T {
  const n = textToNumber(text, empty);
  if (typeof n !== 'number' || !Number.isFinite(n)) return n;
  const cents = n * 100;
  // 10.55 × 100 is 1055.0000000000002 in floating point: within a millionth of a cent is whole.
  return Math.abs(cents - toCents(n)) < 1e-6 ? toCents(n) : cents;
}

/** A datetime-local input's value (local time) → ISO, or null when empty or unreadable. */
function localToIso(text: string): string | null {
  if (!text) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The coupon dialog: discount value in percent or dollars, minimum order in dollars, dates as datetime-local text. */
export const CouponForm = z
  .object({
    code: z.string(),
    description: z.string(),
    discountType: z.enum(['percentage', 'fixed']),
    /** Percent, or dollars for a fixed coupon. */
    discountValue: z.string(),
    /** Dollars. */
    minOrderCents: z.string(),
    maxUses: z.string(),
    validFrom: z.string(),
    validUntil: z.string(),
    isActive: z.boolean(),
    /** A product id, or 'none'. */
    freeProductId: z.string(),
    syncStripe: z.boolean(),
  })
  .transform((v): z.input<typeof CouponInput> => ({
    code: v.code,
    description: v.description,
    discountType: v.discountType,
    discountValue: v.discountType === 'fixed' ? dollarsToCents(v.discountValue, NaN) : textToNumber(v.discountValue, NaN),
    minOrderCents: dollarsToCents(v.minOrderCents, null),
    maxUses: textToNumber(v.maxUses, null),
    validFrom: localToIso(v.validFrom) ?? new Date().toISOString(),
    validUntil: localToIso(v.validUntil),
    isActive: v.isActive,
    freeProductId: v.freeProductId,
    syncStripe: v.syncStripe,
  }))
  .pipe(CouponInput);
export type CouponForm = z.input<typeof CouponForm>;

/** The shipping-option dialog: price and minimum order in dollars. */
export const ShippingOptionForm = z
  .object({
    name: z.string(),
    description: z.string(),
    /** Dollars. */
    priceCents: z.string(),
    estimatedDays: z.string(),
    enabled: z.boolean(),
    /** Dollars. */
    minimumOrderCents: z.string(),
  })
  .transform((v): z.input<typeof ShippingOptionInput> => ({
    name: v.name,
    description: v.description,
    priceCents: dollarsToCents(v.priceCents, NaN),
    estimatedDays: v.estimatedDays,
    enabled: v.enabled,
    minimumOrderCents: dollarsToCents(v.minimumOrderCents, null),
  }))
  .pipe(ShippingOptionInput);
export type ShippingOptionForm = z.input<typeof ShippingOptionForm>;

/** The FAQ dialog's category choice besides an existing name: none, or a new one typed in `newCategory`. */
export const FAQ_CATEGORY_CHOICE = { none: '__none__', new: '__new__' } as const;

/** The FAQ dialog: the category is chosen from a list (or typed when new). */
export const FaqForm = z
  // The body's own field schemas, so every field's error shows at once (a pipe stops at the first stage that fails).
  .object({ question: FaqInput.shape.question, answer: FaqInput.shape.answer, category: z.string(), newCategory: z.string() })
  // The one rule of the form itself: choosing "New category…" means typing its name.
  .refine((v) => v.category !== FAQ_CATEGORY_CHOICE.new || v.newCategory.trim() !== '', {
    message: 'Category name is required',
    path: ['newCategory'],
  })
  .transform((v): z.input<typeof FaqInput> => ({
    question: v.question,
    answer: v.answer,
    category: v.category === FAQ_CATEGORY_CHOICE.new ? v.newCategory : v.category === FAQ_CATEGORY_CHOICE.none ? null : v.category,
  }))
  .pipe(FaqInput);
export type FaqForm = z.input<typeof FaqForm>;

/** The product dialog's fields, for a new product and an edited one alike (an edited one has no inventory field). */
const ProductFormFields = z.object({
  name: z.string(),
  description: z.string(),
  /** Dollars. */
  priceCents: z.string(),
  /** The opening stock of a new product; an edited product's stock changes by adjustment only. */
  inventory: z.string(),
  /** '' keeps the default (10) on a new product and the current one on an edited product. */
  lowStockThreshold: z.string(),
  /** A category id, or '' for none. */
  category: z.string(),
  featured: z.boolean(),
  sku: z.string(),
  brand: z.string(),
  weightLbs: z.string(),
  dimensions: z.object({ length: z.string(), width: z.string(), height: z.string() }),
  images: z.array(z.object({ url: z.string(), alt: z.string() })),
});
type ProductFormFields = z.infer<typeof ProductFormFields>;

/** Everything the product body holds besides its stock. */
function productBody(v: ProductFormFields) {
  return {
    name: v.name,
    description: v.description,
    priceCents: dollarsToCents(v.priceCents, NaN),
    lowStockThreshold: textToNumber(v.lowStockThreshold, undefined),
    category: v.category || null,
    featured: v.featured,
    sku: v.sku,
    brand: v.brand,
    weightLbs: textToNumber(v.weightLbs, null),
    // The server keeps dimensions only when all three are given.
    dimensions: {
      length: textToNumber(v.dimensions.length, null),
      width: textToNumber(v.dimensions.width, null),
      height: textToNumber(v.dimensions.height, null),
    },
    // The whole list, in the owner's order, each image with its alt text.
    images: v.images.map((im) => im.url),
    imageAlts: v.images.map((im) => im.alt),
  };
}

/** The product dialog for a new product: price in dollars, numbers as typed, its inventory the opening stock. */
export const ProductForm = ProductFormFields.transform((v): z.input<typeof ProductInput> => ({
  ...productBody(v),
  inventory: textToNumber(v.inventory, NaN),
})).pipe(ProductInput);
export type ProductForm = z.input<typeof ProductForm>;

/**
 * The product dialog for an edited product: never a stock figure (the server refuses one), since a
 * level read when the dialog opened would undo every sale made since; stock changes by adjustment.
 */
export const ProductEditForm = ProductFormFields.transform((v): z.input<typeof ProductUpdateInput> => productBody(v)).pipe(
  ProductUpdateInput,
);

/**
 * The Adjust stock form: the quantity as typed. An empty one reads as the one value its reason
 * refuses, so the message is the reason's own ("Enter how many units (1 or more)").
 */
export const StockAdjustmentForm = z
  .object({ reason: z.enum(STOCK_REASONS), quantity: z.string(), note: z.string() })
  .transform((v): z.input<typeof StockAdjustmentInput> => ({
    reason: v.reason,
    quantity: textToNumber(v.quantity, v.reason === 'counted' ? -1 : 0),
    note: v.note,
  }))
  .pipe(StockAdjustmentInput);
export type StockAdjustmentForm = z.input<typeof StockAdjustmentForm>;

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

/** A write-only secret's field: empty keeps the stored one, `remove` deletes it, else the typed value replaces it. */
function secretBody(typed: string, remove: boolean): string | null | undefined {
  return remove ? null : typed.trim() || undefined;
}

/** The integrations settings: switches as booleans; each ShipStation secret typed anew, kept, or removed. */
export const IntegrationSettingsForm = z
  .object({
    power_automate_endpoint: z.string(),
    power_automate_enabled: z.boolean(),
    shipstation_enabled: z.boolean(),
    shipstation_api_version: z.enum(['v1', 'v2']),
    /** A new key ('' keeps the saved one). */
    shipstation_api_key: z.string(),
    remove_shipstation_api_key: z.boolean(),
    /** A new secret ('' keeps the saved one). */
    shipstation_api_secret: z.string(),
    remove_shipstation_api_secret: z.boolean(),
  })
  .transform((v): z.input<typeof IntegrationSettingsInput> => ({
    power_automate_endpoint: v.power_automate_endpoint,
    power_automate_enabled: v.power_automate_enabled,
    shipstation_enabled: v.shipstation_enabled,
    shipstation_api_version: v.shipstation_api_version,
    shipstation_api_key: secretBody(v.shipstation_api_key, v.remove_shipstation_api_key),
    shipstation_api_secret: secretBody(v.shipstation_api_secret, v.remove_shipstation_api_secret),
  }))
  .pipe(IntegrationSettingsInput);
export type IntegrationSettingsForm = z.input<typeof IntegrationSettingsForm>;

/** Variable names as typed: separated by commas or spaces, each once. */
export function splitVariables(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

/** The template editor: the variables as one line of text, an empty plain-text version meaning none. */
export const EmailTemplateForm = z
  .object({ id: z.string(), name: z.string(), subject: z.string(), html: z.string(), text: z.string(), variables: z.string() })
  .transform((v): z.input<typeof EmailTemplateInput> => ({
    id: v.id.trim(),
    name: v.name,
    subject: v.subject,
    html: v.html,
    text: v.text.trim() ? v.text : null,
    variables: splitVariables(v.variables),
  }))
  .pipe(EmailTemplateInput);
export type EmailTemplateForm = z.input<typeof EmailTemplateForm>;

/** The test send: the address as typed (spaces around it dropped). */
export const TestEmailForm = z
  .object({ templateId: z.string(), testEmail: z.string() })
  .transform((v): z.input<typeof TestEmailInput> => ({ templateId: v.templateId, testEmail: v.testEmail.trim() }))
  .pipe(TestEmailInput);
export type TestEmailForm = z.input<typeof TestEmailForm>;

/**
 * A customer's loyalty points as typed: digits only (an optional minus, which the server clamps to
 * 0). Number('1e3') is 1000, but "1e3" is not how anyone writes a count of points, so it reads as
 * not a whole number rather than being taken as something the owner did not type.
 */
export const LoyaltyPointsForm = z
  .object({ loyaltyPoints: z.string() })
  .transform((v): z.input<typeof UserPatchInput> => ({
    loyaltyPoints: /^\s*-?\d+\s*$/.test(v.loyaltyPoints) ? Number(v.loyaltyPoints) : NaN,
  }))
  .pipe(UserPatchInput);
export type LoyaltyPointsForm = z.input<typeof LoyaltyPointsForm>;

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
