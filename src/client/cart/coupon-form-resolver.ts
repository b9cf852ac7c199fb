/**
 * The coupon field's resolver, loaded (after zod) when the field appears: the cart page itself
 * does not wait for zod. zod-config must run before any schema is created, hence the first import.
 */
import '../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { CouponCodeForm } from '../../shared/schemas/cart-forms.js';

export const couponCodeResolver = zodResolver(CouponCodeForm);
