import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { COUPON_MESSAGES } from '../../shared/coupons.js';
import { giftOf } from '../../shared/stored-cart.js';
import { Button } from '../ui/button.js';
import { fieldAria } from '../ui/form-controls.js';
import { toast } from '../ui/toast.js';
import { getCartQuoteQueryOptions } from './get-cart-quote.js';
import { applyCoupon, getCart, removeCoupon, setCouponError, useCart } from './cart-store.js';
import { lazyResolver } from '../lib/lazy-resolver.js';
import { afterZod } from '../lib/load-zod.js';
import { quoteRequestOf } from './use-cart-quote.js';
import { hasUsedCoupon } from './used-coupons.js';

const resolver = lazyResolver(afterZod(() => import('./coupon-form-resolver.js').then((m) => m.couponCodeResolver)));

const inputCls =
  'h-10 min-w-0 flex-1 rounded-md border border-stone-400 bg-white px-3 text-base uppercase placeholder:normal-case disabled:bg-stone-100 disabled:text-stone-700 focus-visible:outline-2 focus-visible:outline-brand-600';

/** Coupon code field: the server checks the code against the cart and answers the discount or the reason. */
export function CouponForm() {
  const { appliedCouponCode, couponError } = useCart();
  const queryClient = useQueryClient();
  const id = useId();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver, defaultValues: { couponCode: '' } });

  // Fetch the field's schema while the shopper types, so applying does not wait for it.
  useEffect(() => {
    void resolver.preload().catch(() => undefined);
  }, []);

  async function apply({ couponCode: code }: { couponCode: string }) {
    if (hasUsedCoupon(code)) return setCouponError(COUPON_MESSAGES.alreadyUsed);
    try {
      const request = { ...quoteRequestOf(getCart(), null), couponCode: code };
      const quote = await queryClient.fetchQuery({ ...getCartQuoteQueryOptions(request), retry: false });
      if (quote.coupon) {
        applyCoupon(quote.coupon.code, quote.discountCents, giftOf(quote));
        reset();
        toast({ title: 'Coupon Applied!', description: `${quote.coupon.code} has been applied to your order` });
      } else {
        setCouponError(quote.couponError ?? COUPON_MESSAGES.invalid);
      }
    } catch {
      setCouponError(COUPON_MESSAGES.generic);
    }
  }

  // The field's own check (an empty code) first, else the cart's answer for the last code tried.
  const message = errors.couponCode?.message ?? couponError;
  const errorId = `${id}-error`;
  const shared = {
    id,
    autoComplete: 'off',
    autoCapitalize: 'characters',
    spellCheck: false,
    maxLength: 50,
    ...fieldAria(message ?? undefined, errorId),
  };
  return (
    <form
      onSubmit={(e) => void handleSubmit(apply)(e).catch(() => setCouponError(COUPON_MESSAGES.generic))}
      noValidate
      className="flex flex-col gap-2"
    >
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        Coupon code
      </label>
      <div className="flex gap-2">
        {appliedCouponCode !== null ? (
          <input {...shared} name="coupon" value={appliedCouponCode} readOnly disabled className={inputCls} />
        ) : (
          <input {...shared} {...register('couponCode')} disabled={isSubmitting} className={inputCls} />
        )}
        {/* Two buttons, not one that changes: React would reuse Remove's element as the submit
            button during its own click, and the click would then submit the emptied form. */}
        {appliedCouponCode ? (
          <Button
            key="remove"
            variant="outline"
            onClick={(e) => {
              e.preventDefault();
              removeCoupon();
            }}
          >
            Remove
          </Button>
        ) : (
          <Button key="apply" type="submit" disabled={isSubmitting}>
            Apply
          </Button>
        )}
      </div>
      {message && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </form>
  );
}
