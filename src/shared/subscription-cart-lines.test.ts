import { describe, expect, it } from 'vitest';
import { cartCookieLine } from './cart-cookie.js';
import { CartCookieValue, CartLineInput } from './schemas/checkout.js';
import { cartFromQuote, isStoredCart, quotedLine } from './stored-cart.js';
import { mergeCarts, plainWithoutBoughtLines, withoutBoughtLines } from './cart-merge.js';
import type { QuoteLine } from './schemas/checkout.js';

/**
 * A cart line's identity is its product, variant (size, colour) and interval (issue [4/8]): a
 * subscription line and a one-time line of one variant are two lines everywhere the cart goes.
 */
const q = (o: Partial<QuoteLine>): QuoteLine => ({
  productId: 'p1',
  variantId: 'var_p1',
  name: 'Powder',
  productName: 'Powder',
  variantLabel: '',
  image: null,
  priceCents: 2000,
  quantity: 1,
  inventory: 10,
  size: 'One Size',
  color: 'Default',
  lineTotalCents: 2000,
  isFreeGift: false,
  missing: false,
  insufficientStock: false,
  everyWeeks: null,
  planDiscountPercent: null,
  ...o,
});

describe('the cart cookie', () => {
  it('writes the interval as a 6th element (with the variant before it), and one-time lines as it always did', () => {
    expect(cartCookieLine('p1', 2, 'One Size', 'Default')).toEqual(['p1', 2, 'One Size', 'Default']);
    expect(cartCookieLine('p1', 2, 'One Size', 'Default', 'var_x')).toEqual(['p1', 2, 'One Size', 'Default', 'var_x']);
    expect(cartCookieLine('p1', 2, 'One Size', 'Default', undefined, 4)).toEqual(['p1', 2, 'One Size', 'Default', 'var_p1', 4]);
    expect(cartCookieLine('p1', 2, 'One Size', 'Default', 'var_x', 4)).toEqual(['p1', 2, 'One Size', 'Default', 'var_x', 4]);
  });

  it('reads old cookies and new ones; an interval out of range is not a cookie the shop wrote', () => {
    const ok = (l: unknown[]) => CartCookieValue.safeParse({ l: [l], c: null }).success;
    expect(ok(['p1', 1, 'One Size', 'Default'])).toBe(true);
    expect(ok(['p1', 1, 'One Size', 'Default', 'var_x'])).toBe(true);
    expect(ok(['p1', 1, 'One Size', 'Default', 'var_p1', 4])).toBe(true);
    expect(ok(['p1', 1, 'One Size', 'Default', 'var_p1', 0])).toBe(false);
    expect(ok(['p1', 1, 'One Size', 'Default', 'var_p1', 53])).toBe(false);
    expect(ok(['p1', 1, 'One Size', 'Default', 'var_p1', 4, 'more'])).toBe(false);
  });
});

describe('a cart line with an interval', () => {
  it('the line schema takes whole weeks from 1 to 52', () => {
    const parse = (everyWeeks: unknown) => CartLineInput.safeParse({ productId: 'p1', quantity: 1, everyWeeks }).success;
    expect([1, 4, 52].map(parse)).toEqual([true, true, true]);
    expect([0, 53, 2.5, '4', null].map(parse)).toEqual([false, false, false, false, false]);
  });

  it('finds its own quote line, never the one-time line of the same variant', () => {
    const once = q({});
    const every4 = q({ everyWeeks: 4, planDiscountPercent: 10, priceCents: 1800 });
    expect(quotedLine([once, every4], 'p1', undefined, 'One Size', 'Default', 4)).toBe(every4);
    expect(quotedLine([every4, once], 'p1', undefined, 'One Size', 'Default')).toBe(once);
    expect(quotedLine([once], 'p1', undefined, 'One Size', 'Default', 4)).toBeUndefined();
  });

  it('the page cart keeps the interval and the subscription price', () => {
    const cart = cartFromQuote(
      {
        lines: [
          { productId: 'p1', quantity: 1, size: 'One Size', color: 'Default' },
          { productId: 'p1', quantity: 2, size: 'One Size', color: 'Default', everyWeeks: 4 },
        ],
        couponCode: null,
      },
      { lines: [q({}), q({ everyWeeks: 4, priceCents: 1800, quantity: 2 })], coupon: null, discountCents: 0 },
    );
    expect(cart.items.map((l) => [l.everyWeeks, l.quantity, l.product.priceCents])).toEqual([
      [undefined, 1, 2000],
      [4, 2, 1800],
    ]);
    expect(isStoredCart(JSON.parse(JSON.stringify(cart)))).toBe(true);
    expect(isStoredCart({ ...cart, items: [{ ...cart.items[1], everyWeeks: 'four' }] })).toBe(false);
  });

  it('the sign-in merge adds quantities of the same interval only', () => {
    const base = { productId: 'p1', size: 'One Size', color: 'Default' };
    const merged = mergeCarts(
      {
        lines: [
          { ...base, quantity: 1 },
          { ...base, quantity: 1, everyWeeks: 4 },
        ],
        couponCode: null,
      },
      {
        lines: [
          { ...base, quantity: 2, everyWeeks: 4 },
          { ...base, quantity: 1, everyWeeks: 8 },
        ],
        couponCode: null,
      },
    );
    expect(merged.lines.map((l) => [l.everyWeeks, l.quantity])).toEqual([
      [undefined, 1],
      [4, 3],
      [8, 1],
    ]);
  });

  it('a paid order takes out the lines it bought, of the same interval', () => {
    const base = { productId: 'p1', size: 'One Size', color: 'Default' };
    const bought = { items: [{ ...base, quantity: 2, isFreeGift: false, everyWeeks: 4 }], couponCode: null };
    const plain = plainWithoutBoughtLines(
      {
        lines: [
          { ...base, quantity: 1 },
          { ...base, quantity: 2, everyWeeks: 4 },
        ],
        couponCode: null,
      },
      bought,
    );
    expect(plain.lines).toEqual([{ ...base, quantity: 1 }]);
    const stored = withoutBoughtLines(
      {
        items: [
          { product: { id: 'p1', name: 'Powder', priceCents: 2000, images: [] }, quantity: 1, size: 'One Size', color: 'Default' },
          {
            product: { id: 'p1', name: 'Powder', priceCents: 1800, images: [] },
            quantity: 3,
            size: 'One Size',
            color: 'Default',
            everyWeeks: 4,
          },
        ],
        appliedCouponCode: null,
        appliedCouponDiscountCents: 0,
        couponError: null,
        freeProduct: null,
      },
      bought,
    );
    expect(stored.items.map((l) => [l.everyWeeks, l.quantity])).toEqual([
      [undefined, 1],
      [4, 1],
    ]);
  });
});
