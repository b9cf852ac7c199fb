import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AdminOrderInput, OrderStatusInput } from './admin/orders.js';
import { AdminOrderForm } from './admin/orders.js';
import { cancelWithRefundForm } from './admin/order-money.js';
import { CancelRefund, notShippableMessage, OWNER_ORDER_MESSAGES, REFUNDED_NOT_SHIPPABLE, RecordPaymentInput } from './owner-orders.js';

const firstMessage = (r: z.ZodSafeParseResult<unknown>) => r.error?.issues[0]?.message;

const body = { user_id: 'guest', shipping_address: 'Somewhere 1', status: 'pending' as const };

describe('orders the owner types in: every message of the schemas', () => {
  it('product lines: product, whole quantity, 1 to 999, at most 50 lines; no price from the browser', () => {
    const line = (l: unknown) => firstMessage(AdminOrderInput.safeParse({ ...body, lines: [l] }));
    expect(line({ productId: '', quantity: 1 })).toBe(OWNER_ORDER_MESSAGES.productRequired);
    expect(line({ quantity: 1 })).toBe(OWNER_ORDER_MESSAGES.productRequired);
    expect(line({ productId: 'p', quantity: 1.5 })).toBe(OWNER_ORDER_MESSAGES.quantityRequired);
    expect(line({ productId: 'p', quantity: Number.NaN })).toBe(OWNER_ORDER_MESSAGES.quantityRequired);
    expect(line({ productId: 'p', quantity: 0 })).toBe(OWNER_ORDER_MESSAGES.quantityMin);
    expect(line({ productId: 'p', quantity: 1000 })).toBe(OWNER_ORDER_MESSAGES.quantityMax);
    expect(AdminOrderInput.safeParse({ ...body, lines: [{ productId: 'p', quantity: 1, priceCents: 1 }] }).success).toBe(false);
    const many = Array.from({ length: 51 }, (_, i) => ({ productId: `p${i}`, quantity: 1 }));
    expect(firstMessage(AdminOrderInput.safeParse({ ...body, lines: many }))).toBe(OWNER_ORDER_MESSAGES.tooManyLines);
  });

  it('discount and shipping: numbers of whole cents, not negative, not past the ceiling', () => {
    const money = (k: 'discountCents' | 'shippingCents', v: unknown) => firstMessage(AdminOrderInput.safeParse({ ...body, [k]: v }));
    expect(money('discountCents', 'x')).toBe(OWNER_ORDER_MESSAGES.discountNumber);
    expect(money('discountCents', 10.5)).toBe(OWNER_ORDER_MESSAGES.discountWhole);
    expect(money('discountCents', -1)).toBe(OWNER_ORDER_MESSAGES.discountNegative);
    expect(money('discountCents', 100_000_000)).toBe(OWNER_ORDER_MESSAGES.discountTooLarge);
    expect(money('shippingCents', 'x')).toBe(OWNER_ORDER_MESSAGES.shippingNumber);
    expect(money('shippingCents', 0.5)).toBe(OWNER_ORDER_MESSAGES.shippingWhole);
    expect(money('shippingCents', -1)).toBe(OWNER_ORDER_MESSAGES.shippingNegative);
    expect(money('shippingCents', 100_000_000)).toBe(OWNER_ORDER_MESSAGES.shippingTooLarge);
  });

  it('the form: a third decimal of discount is refused, not rounded; lines go instead of the total', () => {
    const form = {
      user_id: 'guest',
      textAddress: null,
      shipping_address: { name: 'A', address: 'B', city: 'C', state: 'TX', zip: '73301', country: 'US' },
      total_amount: '12.00',
      status: 'pending' as const,
      note: '',
      elapsedMs: 2000,
      website: '',
      lines: [{ productId: 'p', quantity: '2' }],
      discountCents: '1.555',
      shippingCents: '',
    };
    const refused = AdminOrderForm.safeParse(form);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['discountCents'], message: OWNER_ORDER_MESSAGES.discountWhole });
    const ok = AdminOrderForm.safeParse({ ...form, discountCents: '1.50', notify: false, email: 'a@example.com' });
    expect(ok.data).toMatchObject({ lines: [{ productId: 'p', quantity: 2 }], discountCents: 150, notify: false, email: 'a@example.com' });
    expect(ok.data?.total_amount).toBeUndefined();
    expect(firstMessage(AdminOrderForm.safeParse({ ...form, lines: [{ productId: 'p', quantity: 'two' }], discountCents: '' }))).toBe(
      OWNER_ORDER_MESSAGES.quantityRequired,
    );
  });

  it('a recorded payment: the method, a note of at most 500 characters', () => {
    expect(firstMessage(RecordPaymentInput.safeParse({ method: 'cheque' }))).toBe(OWNER_ORDER_MESSAGES.methodRequired);
    expect(firstMessage(RecordPaymentInput.safeParse({}))).toBe(OWNER_ORDER_MESSAGES.methodRequired);
    expect(firstMessage(RecordPaymentInput.safeParse({ method: 'cash', note: 'x'.repeat(501) }))).toBe(OWNER_ORDER_MESSAGES.noteTooLong);
    expect(RecordPaymentInput.parse({ method: 'card_phone', note: ' ' })).toEqual({ method: 'card_phone', note: undefined });
  });

  it('a status change: notify is a boolean; a refund only with a cancel, in whole cents above zero', () => {
    expect(firstMessage(OrderStatusInput.safeParse({ status: 'shipped', notify: 'no' }))).toBe('notify must be true or false');
    expect(firstMessage(OrderStatusInput.safeParse({ status: 'shipped', refund: { amountCents: 100 } }))).toBe(
      OWNER_ORDER_MESSAGES.refundOnlyOnCancel,
    );
    expect(firstMessage(CancelRefund.safeParse({ amountCents: 0 }))).toBe('Enter an amount greater than $0.00');
    expect(firstMessage(CancelRefund.safeParse({ amountCents: 1.5 }))).toBe('Refund amount must be in whole cents (at most 2 decimals)');
    expect(firstMessage(CancelRefund.safeParse({ amountCents: 100_000_000 }))).toBe('Refund amount cannot exceed $999,999.99');
    expect(firstMessage(CancelRefund.safeParse({ amountCents: 1, reason: 'x'.repeat(501) }))).toBe('A reason cannot exceed 500 characters');
  });

  it('the cancel dialog: at most what is left, and no refund when not asked', () => {
    const schema = cancelWithRefundForm([], 1000);
    const values = { returnLines: [], notify: true, refunding: true, refund: { amountCents: '10.01', reason: '' } };
    expect(schema.safeParse(values).error?.issues[0]).toMatchObject({
      path: ['refund', 'amountCents'],
      message: 'At most $10.00 is left to refund',
    });
    expect(schema.safeParse({ ...values, refund: { amountCents: '9.999', reason: '' } }).error?.issues[0]?.message).toBe(
      'Refund amount must be in whole cents (at most 2 decimals)',
    );
    expect(schema.parse({ ...values, refunding: false, notify: false })).toEqual({ status: 'cancelled', returnLines: [], notify: false });
  });

  it('a refunded order is not called unpaid', () => {
    expect(notShippableMessage('refunded', 'unpaid text')).toBe(REFUNDED_NOT_SHIPPABLE);
    expect(notShippableMessage('unpaid', 'unpaid text')).toBe('unpaid text');
  });
});
