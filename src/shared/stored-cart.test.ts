import { describe, expect, it } from 'vitest';
import { EMPTY_CART, giftOf, withoutCouponWhenEmpty, type CartLine, type StoredCart } from './stored-cart.js';
import { mergeCarts, withoutBoughtLines } from './cart-merge.js';

const line = (id: string, quantity: number, size = 'One Size', color = 'Default'): CartLine => ({
  product: { id, name: id, priceCents: 1000, images: [] },
  quantity,
  size,
  color,
});
const bought = (productId: string, quantity: number, size = 'One Size', color = 'Default', isFreeGift = false) => ({
  productId,
  quantity,
  size,
  color,
  isFreeGift,
});
const withCoupon = (items: CartLine[], code = 'WELCOME10'): StoredCart => ({
  ...EMPTY_CART,
  items,
  appliedCouponCode: code,
  appliedCouponDiscountCents: 150,
  freeProduct: { id: 'gift', name: 'Gift' },
});
const shape = (cart: StoredCart) => cart.items.map((l) => [l.product.id, l.size, l.color, l.quantity]);

describe('withoutBoughtLines', () => {
  it('takes out only what the order bought and keeps what was added since', () => {
    const cart = { ...EMPTY_CART, items: [line('a', 2), line('b', 1), line('c', 3)] };
    const next = withoutBoughtLines(cart, { items: [bought('a', 2), bought('b', 1)], couponCode: null });
    expect(shape(next)).toEqual([['c', 'One Size', 'Default', 3]]);
  });

  it('lowers a line by the quantity bought and tells sizes and colours apart', () => {
    const cart = { ...EMPTY_CART, items: [line('a', 5), line('a', 2, 'Large'), line('a', 1, 'One Size', 'Blue')] };
    const next = withoutBoughtLines(cart, { items: [bought('a', 3), bought('a', 2, 'Large')], couponCode: null });
    expect(shape(next)).toEqual([
      ['a', 'One Size', 'Default', 2],
      ['a', 'One Size', 'Blue', 1],
    ]);
  });

  it('never goes below zero when the cart was lowered after the checkout started', () => {
    const cart = { ...EMPTY_CART, items: [line('a', 1), line('b', 1)] };
    const next = withoutBoughtLines(cart, { items: [bought('a', 4)], couponCode: null });
    expect(shape(next)).toEqual([['b', 'One Size', 'Default', 1]]);
  });

  it('ignores the free gift line and drops the coupon the order used', () => {
    const cart = withCoupon([line('a', 1), line('gift', 1), line('b', 2)]);
    const next = withoutBoughtLines(cart, {
      items: [bought('a', 1), bought('gift', 1, 'One Size', 'Default', true)],
      couponCode: 'welcome10',
    });
    expect(shape(next)).toEqual([
      ['gift', 'One Size', 'Default', 1],
      ['b', 'One Size', 'Default', 2],
    ]);
    expect(next).toMatchObject({ appliedCouponCode: null, appliedCouponDiscountCents: 0, freeProduct: null });
  });

  it('keeps a coupon the order did not use while lines remain, and drops any coupon once the cart is empty', () => {
    const cart = withCoupon([line('a', 1), line('b', 1)], 'SAVE20');
    expect(withoutBoughtLines(cart, { items: [bought('a', 1)], couponCode: null }).appliedCouponCode).toBe('SAVE20');
    const emptied = withoutBoughtLines(cart, { items: [bought('a', 1), bought('b', 1)], couponCode: null });
    expect(emptied).toMatchObject({ items: [], appliedCouponCode: null, freeProduct: null, appliedCouponDiscountCents: 0 });
  });
});

describe('withoutCouponWhenEmpty', () => {
  it('drops the coupon, discount and gift of a cart with no lines, and leaves others alone', () => {
    expect(withoutCouponWhenEmpty(withCoupon([]))).toMatchObject({
      appliedCouponCode: null,
      appliedCouponDiscountCents: 0,
      freeProduct: null,
    });
    const kept = withCoupon([line('a', 1)]);
    expect(withoutCouponWhenEmpty(kept)).toBe(kept);
    expect(withoutCouponWhenEmpty(EMPTY_CART)).toBe(EMPTY_CART);
  });
});

describe('giftOf', () => {
  const quoteLine = (productId: string, isFreeGift: boolean) => ({
    productId,
    variantId: `var_${productId}`,
    productName: productId,
    variantLabel: '',
    name: productId,
    image: null,
    priceCents: 0,
    quantity: 1,
    inventory: 5,
    size: 'One Size',
    color: 'Default',
    lineTotalCents: 0,
    isFreeGift,
    missing: false,
    insufficientStock: false,
  });
  const coupon = { code: 'FREEGIFT', discountType: 'percentage' as const, discountValue: 0, freeProduct: { id: 'gift', name: 'Gift' } };
  it('is the gift only when the quote adds its line', () => {
    expect(giftOf({ coupon, lines: [quoteLine('a', false), quoteLine('gift', true)] })).toEqual({ id: 'gift', name: 'Gift' });
    expect(giftOf({ coupon, lines: [quoteLine('a', false)] })).toBeNull();
    expect(giftOf({ coupon: null, lines: [quoteLine('a', false)] })).toBeNull();
  });
});

describe('mergeCarts', () => {
  const l = (productId: string, quantity: number, size = 'One Size', color = 'Default') => ({ productId, quantity, size, color });
  it("adds the guest's quantities to the same product, size and colour, and appends new lines", () => {
    const merged = mergeCarts(
      { lines: [l('a', 2), l('b', 1)], couponCode: null },
      { lines: [l('a', 3), l('a', 1, 'Large'), l('c', 1)], couponCode: null },
    );
    expect(merged.lines).toEqual([l('a', 5), l('b', 1), l('a', 1, 'Large'), l('c', 1)]);
  });
  it("keeps the guest's coupon if any, else the account's; an empty cart keeps none", () => {
    expect(mergeCarts({ lines: [l('a', 1)], couponCode: 'SAVE5' }, { lines: [], couponCode: 'WELCOME10' }).couponCode).toBe('WELCOME10');
    expect(mergeCarts({ lines: [l('a', 1)], couponCode: 'SAVE5' }, { lines: [l('b', 1)], couponCode: null }).couponCode).toBe('SAVE5');
    expect(mergeCarts({ lines: [], couponCode: 'SAVE5' }, { lines: [], couponCode: 'WELCOME10' })).toEqual({ lines: [], couponCode: null });
  });
  it('stays within the bounds the server accepts', () => {
    const merged = mergeCarts(
      { lines: [l('a', 9)], couponCode: null },
      { lines: [l('a', 9), l('b', 1), l('c', 1)], couponCode: null },
      2,
      10,
    );
    expect(merged.lines).toEqual([l('a', 10), l('b', 1)]);
  });
});
