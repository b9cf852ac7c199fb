import { z } from 'zod';

export const DEFAULT_CART_SIZE = 'One Size';
export const DEFAULT_CART_COLOR = 'Default';

export const CartProduct = z.object({
  id: z.string(),
  name: z.string(),
  priceCents: z.number().int(),
  images: z.array(z.string()),
});
export type CartProduct = z.infer<typeof CartProduct>;

export const CartLine = z.object({
  product: CartProduct,
  quantity: z.number().int().min(1),
  size: z.string(),
  color: z.string(),
});
export type CartLine = z.infer<typeof CartLine>;

/** The cart as kept in the browser (localStorage key `cart`); itemCount and total are derived. */
export const StoredCart = z.object({
  items: z.array(CartLine),
  appliedCouponCode: z.string().nullable(),
  appliedCouponDiscountCents: z.number().int(),
  couponError: z.string().nullable(),
  freeProduct: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type StoredCart = z.infer<typeof StoredCart>;

export const EMPTY_CART: StoredCart = {
  items: [],
  appliedCouponCode: null,
  appliedCouponDiscountCents: 0,
  couponError: null,
  freeProduct: null,
};
