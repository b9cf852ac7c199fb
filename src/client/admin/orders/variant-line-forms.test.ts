import { describe, expect, it } from 'vitest';
import { cancelWithRefundForm, refundForm } from '../../../shared/schemas/admin/order-money.js';
import { ORDER_STOCK_MESSAGES, type OrderStockLine } from '../../../shared/schemas/inventory.js';
import { OwnerOrderForm, returnByVariant } from './variant-line-forms.js';

/** An order of two variants of one product, and a product without options. */
const LINES: OrderStockLine[] = [
  // The product's first variant: named by no variant id in the body (absent means it).
  { productId: 'bag', variantId: 'var_bag', name: 'Mesh Bag — Blue, Small', ordered: 2, out: 2, returned: 0 },
  { productId: 'bag', variantId: 'var_grey_large', name: 'Mesh Bag — Grey, Large', ordered: 1, out: 0, returned: 1 },
  { productId: 'cloth', variantId: 'var_cloth', name: 'Cloth', ordered: 3, out: 3, returned: 0 },
];
const returned = (quantities: string[]) => LINES.map((l, i) => ({ productId: l.productId, quantity: quantities[i]! }));

describe('return lines by variant (refund and cancel)', () => {
  it('sends each line back to its own variant', () => {
    const form = returnByVariant(LINES, (keyed) => refundForm(10_000, keyed));
    const body = form.parse({ amountCents: '5.00', reason: '', returnLines: returned(['1', '0', '2']) });
    expect(body.amountCents).toBe(500);
    expect(body.returnLines).toEqual([
      { productId: 'bag', quantity: 1 },
      { productId: 'bag', variantId: 'var_grey_large', quantity: 0 },
      { productId: 'cloth', quantity: 2 },
    ]);
  });

  it('holds each line to what that variant has out, in the shared words, at its own input', () => {
    const form = returnByVariant(LINES, (keyed) => cancelWithRefundForm(keyed, 10_000));
    const bad = form.safeParse({
      returnLines: returned(['2', '1', '0']),
      notify: true,
      refunding: false,
      refund: { amountCents: '', reason: '' },
    });
    expect(bad.success).toBe(false);
    // The first line may return its 2; the second (same product, another variant) has none out.
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['returnLines.1.quantity', ORDER_STOCK_MESSAGES.notOut('Mesh Bag — Grey, Large', 1, 0)],
    ]);
  });

  it('keeps the shared form’s other rules (the amount left to refund)', () => {
    const form = returnByVariant(LINES, (keyed) => refundForm(300, keyed));
    const bad = form.safeParse({ amountCents: '5.00', reason: '', returnLines: returned(['0', '0', '0']) });
    expect(bad.error!.issues.map((i) => i.path.join('.'))).toEqual(['amountCents']);
  });
});

describe('the Create Order form', () => {
  const values = {
    user_id: 'guest',
    textAddress: null,
    shipping_address: { name: 'Rita', address: '1 Elm St', city: 'Salem', state: 'OR', zip: '97301', country: 'US' },
    total_amount: '',
    status: 'pending' as const,
    note: '',
    elapsedMs: 2000,
    website: '',
    discountCents: '',
    shippingCents: '',
    email: 'rita@example.com',
    notify: true,
  };

  it('sends the variant of each line (none for a product’s first, which an absent one means)', () => {
    const body = OwnerOrderForm.parse({
      ...values,
      lines: [
        { productId: 'bag', variantId: 'var_grey_large', quantity: '2' },
        { productId: 'bag', variantId: 'var_bag', quantity: '1' },
        { productId: 'cloth', variantId: '', quantity: '1' },
        { productId: 'sponge', variantId: 'var_sponge', quantity: '1' },
      ],
    });
    expect(body.lines).toEqual([
      { productId: 'bag', variantId: 'var_grey_large', quantity: 2 },
      { productId: 'bag', quantity: 1 },
      { productId: 'cloth', quantity: 1 },
      { productId: 'sponge', quantity: 1 },
    ]);
  });

  it('speaks with the shared form’s words at the line’s quantity', () => {
    const bad = OwnerOrderForm.safeParse({ ...values, lines: [{ productId: 'bag', variantId: 'var_bag', quantity: '0' }] });
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['lines.0.quantity', 'Quantity must be at least 1']]);
  });
});
