import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { cancelOrderForm, refundForm } from './admin/order-money.js';
import { CouponForm } from './admin/coupons.js';
import { EmailTemplateForm, IntegrationSettingsForm, TestEmailForm } from './admin/content.js';
import { LoyaltyPointsForm } from './admin/users.js';
import { ProductEditForm, ProductForm, StockAdjustmentForm } from './admin/products.js';
import { INVENTORY_MESSAGES } from './inventory.js';
import { ADMIN_MESSAGES } from './admin/messages.js';
import { LOYALTY_MESSAGES } from './admin/users.js';

/** The first message at each top-level field, as the forms show them. */
function messages(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
  return found;
}

describe('admin form schemas: the body schema decides, with its messages', () => {
  const integrations = {
    power_automate_endpoint: '',
    power_automate_enabled: false,
    shipstation_enabled: true,
    shipstation_api_version: 'v2' as const,
    shipstation_api_key: '',
    remove_shipstation_api_key: false,
    shipstation_api_secret: '',
    remove_shipstation_api_secret: false,
  };

  it('integrations: an empty secret keeps the saved one, a removed one is null, a typed one is trimmed', () => {
    expect(IntegrationSettingsForm.parse(integrations)).toMatchObject({
      shipstation_api_key: undefined,
      shipstation_api_secret: undefined,
    });
    expect(
      IntegrationSettingsForm.parse({ ...integrations, shipstation_api_key: '  k-1 ', remove_shipstation_api_secret: true }),
    ).toMatchObject({ shipstation_api_key: 'k-1', shipstation_api_secret: null });
    expect(messages(IntegrationSettingsForm.safeParse({ ...integrations, power_automate_endpoint: 'ftp://x' }))).toEqual({
      power_automate_endpoint: 'Please enter a full link starting with https://',
    });
    expect(messages(IntegrationSettingsForm.safeParse({ ...integrations, shipstation_api_key: 'k'.repeat(201) }))).toHaveProperty(
      'shipstation_api_key',
    );
  });

  it('e-mail template: variables from one line, an empty text version is none, messages at the fields', () => {
    const draft = {
      id: 'order-ready',
      name: 'Ready',
      subject: 'Hi {{name}}',
      html: '<p>Hi</p>',
      text: '  ',
      variables: 'name, total name',
    };
    expect(EmailTemplateForm.parse(draft)).toMatchObject({ variables: ['name', 'total'], text: null });
    expect(messages(EmailTemplateForm.safeParse({ ...draft, id: 'Bad ID', name: ' ', html: '', variables: 'ok, 9lives' }))).toEqual({
      id: 'Template ID can only contain lowercase letters, numbers, and hyphens',
      name: 'Name is required',
      html: 'HTML is required',
      variables: 'Variable names are letters, digits and _',
    });
  });

  it('test send: the address trimmed, or the spec text', () => {
    expect(TestEmailForm.parse({ templateId: 'welcome', testEmail: ' a@b.co ' })).toEqual({ templateId: 'welcome', testEmail: 'a@b.co' });
    expect(messages(TestEmailForm.safeParse({ templateId: 'welcome', testEmail: '' }))).toEqual({
      testEmail: 'Please enter a valid email address',
    });
  });

  it('loyalty points: a whole number, never negative (refused, not clamped, as on the server)', () => {
    expect(messages(LoyaltyPointsForm.safeParse({ loyaltyPoints: '-40' }))).toEqual({ loyaltyPoints: LOYALTY_MESSAGES.negative });
    for (const typed of ['', '1.5', 'lots']) {
      expect(messages(LoyaltyPointsForm.safeParse({ loyaltyPoints: typed }))).toEqual({
        loyaltyPoints: 'Loyalty points must be a whole number.',
      });
    }
  });

  it('refund: dollars to cents, above zero and at most what is left; each line returns at most what it has out', () => {
    const lines = [
      { productId: 'cloth', variantId: 'var_cloth', name: 'Cloth', ordered: 3, out: 3, returned: 0 },
      { productId: 'mop', variantId: 'var_mop', name: 'Mop', ordered: 1, out: 0, returned: 1 },
    ];
    const form = refundForm(1250, lines);
    const none = [
      { productId: 'cloth', quantity: '0' },
      { productId: 'mop', quantity: '' },
    ];
    expect(form.parse({ amountCents: '12.50', reason: '  ', returnLines: [{ productId: 'cloth', quantity: '1' }, none[1]] })).toEqual({
      amountCents: 1250,
      reason: undefined,
      returnLines: [
        { productId: 'cloth', quantity: 1 },
        { productId: 'mop', quantity: 0 },
      ],
    });
    for (const typed of ['', '0', '-1']) {
      expect(messages(form.safeParse({ amountCents: typed, reason: '', returnLines: none }))).toEqual({
        amountCents: 'Enter an amount greater than $0.00',
      });
    }
    expect(messages(form.safeParse({ amountCents: '12.51', reason: '', returnLines: none }))).toEqual({
      amountCents: 'At most $12.50 is left to refund',
    });
    // A third decimal is refused, never rounded into another amount; trailing zeros are the same amount.
    for (const typed of ['10.555', '0.001', '1.2345']) {
      expect(messages(form.safeParse({ amountCents: typed, reason: '', returnLines: none })), typed).toEqual({
        amountCents: 'Refund amount must be in whole cents (at most 2 decimals)',
      });
    }
    expect(form.parse({ amountCents: '10.550', reason: '', returnLines: none }).amountCents).toBe(1055);
    expect(form.parse({ amountCents: '0.29', reason: '', returnLines: none }).amountCents).toBe(29);
    const tooMany = form.safeParse({
      amountCents: '1',
      reason: '',
      returnLines: [
        { productId: 'cloth', quantity: '4' },
        { productId: 'mop', quantity: '1' },
      ],
    });
    expect(tooMany.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['returnLines.0.quantity', "Cloth: only 3 of this order's units can be returned (asked 4)."],
      ['returnLines.1.quantity', "Mop: none of this order's units are out of stock to return."],
    ]);
    expect(messages(form.safeParse({ amountCents: '1', reason: '', returnLines: [{ productId: 'cloth', quantity: '1.5' }] }))).toEqual({
      returnLines: 'Quantity to return must be a whole number',
    });
  });

  it('cancel: the chosen lines with the cancelled status', () => {
    const form = cancelOrderForm([{ productId: 'cloth', variantId: 'var_cloth', name: 'Cloth', ordered: 3, out: 2, returned: 1 }]);
    expect(form.parse({ returnLines: [{ productId: 'cloth', quantity: '2' }] })).toEqual({
      status: 'cancelled',
      returnLines: [{ productId: 'cloth', quantity: 2 }],
    });
    expect(messages(form.safeParse({ returnLines: [{ productId: 'cloth', quantity: '3' }] }))).toEqual({
      returnLines: "Cloth: only 2 of this order's units can be returned (asked 3).",
    });
  });

  const product = {
    name: 'Cloth',
    description: 'Soft',
    priceCents: '4.50',
    inventory: '12',
    lowStockThreshold: '',
    category: '',
    featured: false,
    sku: '',
    brand: '',
    weightLbs: '',
    dimensions: { length: '', width: '', height: '' },
    images: [],
  };

  it('product: a new one carries its opening stock, an edited one never a stock figure', () => {
    expect(ProductForm.parse(product)).toMatchObject({ priceCents: 450, inventory: 12, lowStockThreshold: undefined });
    expect(ProductForm.parse({ ...product, lowStockThreshold: '3' })).toMatchObject({ lowStockThreshold: 3 });
    expect(messages(ProductForm.safeParse({ ...product, inventory: '' }))).toEqual({ inventory: 'Inventory must be a number' });
    const edited = ProductEditForm.parse({ ...product, inventory: '99', lowStockThreshold: '5' });
    expect(edited).not.toHaveProperty('inventory');
    expect(edited).toMatchObject({ priceCents: 450, lowStockThreshold: 5 });
    expect(messages(ProductEditForm.safeParse({ ...product, lowStockThreshold: '-1' }))).toEqual({
      lowStockThreshold: 'Low-stock threshold cannot be negative',
    });
  });

  it('stock adjustment: the quantity as typed; an empty one gets its reason’s message', () => {
    expect(StockAdjustmentForm.parse({ reason: 'received', quantity: '5', note: ' ' })).toEqual({
      reason: 'received',
      quantity: 5,
      note: undefined,
    });
    expect(StockAdjustmentForm.parse({ reason: 'correction', quantity: '-2', note: 'Miscount' })).toMatchObject({ quantity: -2 });
    expect(StockAdjustmentForm.parse({ reason: 'counted', quantity: '0', note: '' })).toMatchObject({ quantity: 0 });
    expect(messages(StockAdjustmentForm.safeParse({ reason: 'received', quantity: '', note: '' }))).toEqual({
      quantity: INVENTORY_MESSAGES.quantityNeeded,
    });
    expect(messages(StockAdjustmentForm.safeParse({ reason: 'damaged', quantity: '-1', note: '' }))).toEqual({
      quantity: INVENTORY_MESSAGES.quantityNeeded,
    });
    expect(messages(StockAdjustmentForm.safeParse({ reason: 'correction', quantity: '', note: '' }))).toEqual({
      quantity: INVENTORY_MESSAGES.correctionNeeded,
    });
    expect(messages(StockAdjustmentForm.safeParse({ reason: 'counted', quantity: '', note: '' }))).toEqual({
      quantity: INVENTORY_MESSAGES.countNeeded,
    });
    expect(messages(StockAdjustmentForm.safeParse({ reason: 'counted', quantity: '2.5', note: '' }))).toEqual({
      quantity: 'Quantity must be a whole number',
    });
  });

  it('coupon: a "valid until" before "valid from" is refused at "valid until"; a fixed amount has at most 2 decimals', () => {
    const coupon = {
      code: 'SPRING',
      description: '',
      discountType: 'percentage' as const,
      discountValue: '10',
      minOrderCents: '',
      maxUses: '',
      validFrom: '2026-12-01T10:00',
      validUntil: '2026-12-01T09:00',
      isActive: true,
      freeProductId: 'none',
      syncStripe: false,
    };
    expect(messages(CouponForm.safeParse(coupon))).toEqual({ validUntil: ADMIN_MESSAGES.couponUntilBeforeFrom });
    expect(CouponForm.safeParse({ ...coupon, validUntil: '2026-12-02T09:00' }).success).toBe(true);
    expect(messages(CouponForm.safeParse({ ...coupon, validUntil: '', discountType: 'fixed', discountValue: '5.555' }))).toEqual({
      discountValue: 'Discount value must be a whole percentage, or an amount in whole cents (at most 2 decimals)',
    });
  });
});
