import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { COUPON_MESSAGES, normalizeCouponCode } from '../../shared/coupons.js';
import { Button } from '../ui/button.js';
import { toast } from '../ui/toast.js';
import { getCartQuoteQueryOptions } from '../lib/get-cart-quote.js';
import { applyCoupon, getCart, removeCoupon, setCouponError, useCart } from '../lib/cart-store.js';
import { quoteRequestOf } from '../lib/use-cart-quote.js';
import { hasUsedCoupon } from '../lib/used-coupons.js';

/** Coupon code field: the server checks the code against the cart and answers the discount or the reason. */
export function CouponForm() {
  const { appliedCouponCode, couponError } = useCart();
  const queryClient = useQueryClient();
  const id = useId();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);

  async function apply(e: FormEvent) {
    e.preventDefault();
    const code = normalizeCouponCode(draft);
    if (!code) return setCouponError(COUPON_MESSAGES.invalidInput);
    if (hasUsedCoupon(code)) return setCouponError(COUPON_MESSAGES.alreadyUsed);
    setBusy(true);
    try {
      const request = { ...quoteRequestOf(getCart(), null), couponCode: code };
      const quote = await queryClient.fetchQuery({ ...getCartQuoteQueryOptions(request), retry: false });
      if (quote.coupon) {
        applyCoupon(quote.coupon.code, quote.discountCents, quote.coupon.freeProduct);
        setDraft('');
        toast({ title: 'Coupon Applied!', description: `${quote.coupon.code} has been applied to your order` });
      } else {
        setCouponError(quote.couponError ?? COUPON_MESSAGES.invalid);
      }
    } catch {
      setCouponError(COUPON_MESSAGES.generic);
    } finally {
      setBusy(false);
    }
  }

  const errorId = `${id}-error`;
  return (
    <form onSubmit={(e) => void apply(e)} noValidate className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        Coupon code
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          name="coupon"
          value={appliedCouponCode ?? draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          disabled={appliedCouponCode !== null || busy}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={50}
          aria-invalid={couponError ? true : undefined}
          aria-describedby={couponError ? errorId : undefined}
          className="h-10 min-w-0 flex-1 rounded-md border border-stone-400 bg-white px-3 text-base uppercase placeholder:normal-case disabled:bg-stone-100 disabled:text-stone-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        {appliedCouponCode ? (
          <Button variant="outline" onClick={() => removeCoupon()}>
            Remove
          </Button>
        ) : (
          <Button type="submit" disabled={busy}>
            Apply
          </Button>
        )}
      </div>
      {couponError && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {couponError}
        </p>
      )}
    </form>
  );
}
