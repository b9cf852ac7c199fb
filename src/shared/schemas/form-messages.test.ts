import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CouponForm } from './admin/coupons.js';
import { FaqForm } from './admin/content.js';
import { LoyaltyPointsForm } from './admin/users.js';
import { ProductForm } from './admin/products.js';
import { ShippingOptionForm } from './admin/shipping.js';
import { ADMIN_MESSAGES } from './admin/messages.js';
import { AdminOrderAddress } from './admin/orders.js';
import { CategoryInput } from './admin/categories.js';
import { CouponInput } from './admin/coupons.js';
import { LOYALTY_MESSAGES, LOYALTY_POINTS_TOO_MANY, UserPatchInput } from './admin/users.js';
import { ProductInput } from './admin/products.js';
import { AboutContentInput, ContactInput, EmailTemplateInput, HomepageContentInput } from './content.js';
import { CheckoutForm } from './checkout.js';
import { fieldMaxLength, maxLengthOf, maxLengths } from './limits.js';

/** The first message at each field (dotted path), as the forms show them. */
function messages(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[issue.path.join('.')] ??= issue.message;
  return found;
}
const long = (n: number) => 'x'.repeat(n);

describe('each limit says its own sentence (issue 28)', () => {
  const product = {
    name: 'Cloth',
    description: 'Soft',
    priceCents: '4.99',
    inventory: '5',
    lowStockThreshold: '',
    category: '',
    featured: false,
    sku: '',
    brand: '',
    weightLbs: '',
    dimensions: { length: '', width: '', height: '' },
    images: [],
  };

  it('product: a 5,000-character name is too long, not missing; description, SKU and brand name their limits', () => {
    expect(messages(ProductForm.safeParse({ ...product, name: long(5000) }))).toEqual({ name: 'Name cannot exceed 200 characters' });
    expect(messages(ProductForm.safeParse({ ...product, name: '' }))).toEqual({ name: 'Name is required' });
    expect(messages(ProductForm.safeParse({ ...product, description: long(5001) }))).toEqual({
      description: 'Description cannot exceed 5,000 characters',
    });
    expect(messages(ProductForm.safeParse({ ...product, sku: long(101), brand: long(101) }))).toEqual({
      sku: 'SKU cannot exceed 100 characters',
      brand: 'Brand cannot exceed 100 characters',
    });
    expect(messages(ProductInput.safeParse({ name: 'A', description: 'B', priceCents: 1, inventory: 2_000_000 }))).toEqual({
      inventory: 'Inventory cannot exceed 1,000,000',
    });
  });

  const option = { name: 'Courier', description: '', priceCents: '9.50', estimatedDays: '', enabled: true, minimumOrderCents: '' };
  it('shipping option: name, estimated days and description', () => {
    expect(messages(ShippingOptionForm.safeParse({ ...option, name: long(5000) }))).toEqual({ name: 'Name cannot exceed 100 characters' });
    expect(messages(ShippingOptionForm.safeParse({ ...option, estimatedDays: long(51), description: long(501) }))).toEqual({
      estimatedDays: 'Estimated days cannot exceed 50 characters',
      description: 'Description cannot exceed 500 characters',
    });
    expect(messages(ShippingOptionForm.safeParse({ ...option, minimumOrderCents: '10.555' }))).toEqual({
      minimumOrderCents: 'Minimum order must be in whole cents (at most 2 decimals)',
    });
  });

  const coupon = {
    code: 'SPRING',
    description: '',
    discountType: 'percentage' as const,
    discountValue: '10',
    minOrderCents: '',
    maxUses: '',
    validFrom: '',
    validUntil: '',
    isActive: true,
    freeProductId: 'none',
    syncStripe: false,
  };
  it('coupon: code letters, digits and dashes (upper-cased), its length, and the description', () => {
    for (const code of ['SPRING 10', 'SAVE_5', 'ÉTÉ', '10%']) {
      expect(messages(CouponForm.safeParse({ ...coupon, code }))).toEqual({ code: ADMIN_MESSAGES.couponCodeChars });
    }
    expect(CouponForm.parse({ ...coupon, code: ' spring-10 ' }).code).toBe('SPRING-10');
    expect(messages(CouponForm.safeParse({ ...coupon, code: long(5000) }))).toEqual({ code: 'Code cannot exceed 50 characters' });
    expect(messages(CouponForm.safeParse({ ...coupon, code: '' }))).toEqual({ code: 'Code is required' });
    expect(messages(CouponForm.safeParse({ ...coupon, description: long(501) }))).toEqual({
      description: 'Description cannot exceed 500 characters',
    });
  });

  it('FAQ question, About title, homepage, order address, category, template and contact fields', () => {
    expect(messages(FaqForm.safeParse({ question: long(5000), answer: 'A', category: '__none__', newCategory: '' }))).toEqual({
      question: 'Question cannot exceed 500 characters',
    });
    expect(messages(AboutContentInput.safeParse({ about_title: long(5000), about_mission_quote: long(501) }))).toEqual({
      about_title: 'Title cannot exceed 200 characters',
      about_mission_quote: 'Mission quote cannot exceed 500 characters',
    });
    const home = {
      homepage_hero_title: 'T',
      homepage_hero_subtitle: long(301),
      homepage_hero_description: 'D',
      homepage_about_title: 'A',
      homepage_about_description: 'B',
    };
    expect(messages(HomepageContentInput.safeParse(home))).toEqual({
      homepage_hero_subtitle: 'Hero subtitle cannot exceed 300 characters',
    });
    expect(messages(AdminOrderAddress.safeParse({ name: long(5000), address: 'A', city: 'C', state: 'ID', zip: '83702' }))).toEqual({
      name: 'Name cannot exceed 100 characters',
    });
    expect(messages(CategoryInput.safeParse({ id: 'cat', name: 'Cat', description: long(501) }))).toEqual({
      description: 'Description cannot exceed 500 characters',
    });
    expect(messages(EmailTemplateInput.safeParse({ id: 'abc', name: 'N', subject: long(201), html: 'x' }))).toEqual({
      subject: 'Subject cannot exceed 200 characters',
    });
    expect(messages(ContactInput.safeParse({ name: 'A', email: 'a@b.co', subject: 'S', message: long(5001) }))).toEqual({
      message: 'Message cannot exceed 5,000 characters',
    });
  });

  it('loyalty points: a huge number is too big; "1e3", decimals and words are not whole numbers; digits (and a minus) are', () => {
    for (const typed of ['99999999999999999999999', '1000001']) {
      expect(messages(LoyaltyPointsForm.safeParse({ loyaltyPoints: typed }))).toEqual({ loyaltyPoints: LOYALTY_POINTS_TOO_MANY });
    }
    for (const typed of ['1e3', '1E3', '0x10', '12.5', '', 'lots', '1 000']) {
      expect(messages(LoyaltyPointsForm.safeParse({ loyaltyPoints: typed })), typed).toEqual({
        loyaltyPoints: 'Loyalty points must be a whole number.',
      });
    }
    expect(LoyaltyPointsForm.parse({ loyaltyPoints: ' 1000 ' })).toEqual({ loyaltyPoints: 1000 });
    expect(messages(LoyaltyPointsForm.safeParse({ loyaltyPoints: '-5' }))).toEqual({ loyaltyPoints: LOYALTY_MESSAGES.negative });
    expect(messages(UserPatchInput.safeParse({ loyaltyPoints: 1e21 }))).toEqual({ loyaltyPoints: LOYALTY_POINTS_TOO_MANY });
  });
});

describe('inputs take their maxLength from the schema', () => {
  it('reads through trim, optional, nullish, transform and pipe', () => {
    expect(maxLengths(ProductInput)).toMatchObject({ name: 200, description: 5000, sku: 100, brand: 100, priceCents: undefined });
    expect(maxLengths(CouponInput)).toMatchObject({ code: 50, description: 500 });
    expect(maxLengthOf(AboutContentInput.shape.about_title)).toBe(200);
    expect(fieldMaxLength(CheckoutForm, 'firstName')).toBe(50);
    expect(fieldMaxLength(CheckoutForm, 'address')).toBe(200);
    expect(fieldMaxLength(ShippingOptionForm, 'estimatedDays')).toBe(50);
    expect(fieldMaxLength(ShippingOptionForm, 'nothing')).toBeUndefined();
  });
});
