import { describe, expect, it } from 'vitest';
import { BEING_PREPARED_LABEL, isToShipOrder, orderNumberLabel, orderNumberOf } from './order-words.js';
import { orderReferenceOf } from './schemas/orders.js';
import { deliveryEstimateText, deliveryLine } from './delivery.js';
import { loyaltyRuleText } from './shop-facts.js';

describe('order number: one spelling wherever a customer reads it', () => {
  it('is the id’s last 8 characters, upper-cased as on the receipt, with #', () => {
    expect(orderNumberOf('order_1732700000000_ax3n0ewv')).toBe('AX3N0EWV');
    expect(orderNumberLabel('order_1732700000000_ax3n0ewv')).toBe('#AX3N0EWV');
    // Already upper-case or digits: unchanged.
    expect(orderNumberLabel('order_X_15LUVMN4')).toBe('#15LUVMN4');
  });
  it('prefixes the spec’s brand code (the order reference) to the same number', () => {
    expect(orderReferenceOf('order_1732700000000_ax3n0ewv')).toBe('ECAX3N0EWV');
  });
});

describe('paid and being prepared: the owner’s "To ship" rule', () => {
  it('is a paid (or partly refunded) order that is completed or processing', () => {
    expect(isToShipOrder({ status: 'completed', paymentStatus: 'paid' })).toBe(true);
    expect(isToShipOrder({ status: 'processing', paymentStatus: 'partially_refunded' })).toBe(true);
    expect(isToShipOrder({ status: 'completed', paymentStatus: 'refunded' })).toBe(false);
    expect(isToShipOrder({ status: 'processing', paymentStatus: 'unpaid' })).toBe(false);
    expect(isToShipOrder({ status: 'shipped', paymentStatus: 'paid' })).toBe(false);
    expect(isToShipOrder({ status: 'pending', paymentStatus: 'paid' })).toBe(false);
    expect(BEING_PREPARED_LABEL).toBe('Paid, being prepared');
  });
});

describe('delivery estimate', () => {
  it('reads a bare range as business days and keeps worded estimates', () => {
    expect(deliveryEstimateText('5-7')).toBe('5-7 business days');
    expect(deliveryEstimateText(' 3 ')).toBe('3 business days');
    expect(deliveryEstimateText('Next business day')).toBe('Next business day');
    expect(deliveryLine({ method: 'Standard Shipping', estimatedDays: '5-7' })).toBe('Standard Shipping, 5-7 business days');
  });
});

describe('loyalty rule in words', () => {
  it('says the points go by the order total, from the rule’s own constants', () => {
    expect(loyaltyRuleText()).toBe(
      'Signed-in customers earn 10 points for every order whose total (what you pay, after any discount and with shipping and tax) is $50.00 or more, and 3 points for smaller orders. Every 300 points automatically gives you a 15% off coupon, valid for 90 days.',
    );
  });
});
