import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { Quote, QuoteLine } from '../../shared/schemas/checkout.js';
import { giftOf, quotedLine } from '../../shared/stored-cart.js';
import { getCartQuoteQueryOptions, type QuoteRequest } from './get-cart-quote.js';
import { applyCoupon, removeCoupon, useCart, type Cart, type LineKey } from './cart-store.js';
import { useStockWatch } from '../lib/use-stock-watch.js';

/** Quantity clicks settle for this long before the server is asked for a new quote. */
const QUOTE_DEBOUNCE_MS = 300;

/** A cart line as the server reads it, for a quote and for the checkout alike: always with its variant. */
export function cartLineRequest(l: Cart['items'][number]): QuoteRequest['lines'][number] {
  return {
    productId: l.product.id,
    ...(l.product.variantId ? { variantId: l.product.variantId } : {}),
    quantity: l.quantity,
    size: l.size,
    color: l.color,
    ...(l.everyWeeks !== undefined ? { everyWeeks: l.everyWeeks } : {}),
  };
}

export function quoteRequestOf(cart: Cart, shippingOptionId: string | null): QuoteRequest {
  return {
    lines: cart.items.map(cartLineRequest),
    couponCode: cart.appliedCouponCode,
    shippingOptionId,
  };
}

function useDebouncedJson<T>(value: T, ms: number): T {
  const json = JSON.stringify(value);
  const [settled, setSettled] = useState(json);
  useEffect(() => {
    const t = setTimeout(() => setSettled(json), ms);
    return () => clearTimeout(t);
  }, [json, ms]);
  // The first value is used at once; later changes wait for the pause.
  return useMemo(() => JSON.parse(settled) as T, [settled]);
}

type CartQuote = {
  cart: Cart;
  quote: Quote | undefined;
  /** True while the quote shown is not yet the server's answer for the cart as it is now. */
  updating: boolean;
  error: unknown;
  /** The server's line for a cart line (by variant, size and colour). */
  lineFor: (key: LineKey) => QuoteLine | undefined;
  /** The free gift the coupon adds, if any. */
  giftLine: QuoteLine | undefined;
};

/**
 * The cart with the server's prices. Keeps the stored coupon in step with the server: the
 * discount and gift follow the quote, and a coupon the cart no longer qualifies for is dropped
 * with the server's reason kept in couponError.
 */
export function useCartQuote(shippingOptionId: string | null = null): CartQuote {
  const cart = useCart();
  const request = quoteRequestOf(cart, shippingOptionId);
  const requestJson = JSON.stringify(request);
  const debounced = useDebouncedJson(request, QUOTE_DEBOUNCE_MS);
  const query = useQuery({
    ...getCartQuoteQueryOptions(debounced),
    enabled: debounced.lines.length > 0,
    placeholderData: keepPreviousData,
  });
  const quote = query.data;
  const current = !query.isPlaceholderData && JSON.stringify(debounced) === requestJson;

  const { appliedCouponCode, appliedCouponDiscountCents, freeProduct } = cart;
  useEffect(() => {
    if (!quote || !current || !appliedCouponCode) return;
    if (quote.coupon) {
      const gift = giftOf(quote);
      if (quote.discountCents !== appliedCouponDiscountCents || gift?.id !== freeProduct?.id) {
        applyCoupon(quote.coupon.code, quote.discountCents, gift);
      }
    } else if (quote.couponError) {
      removeCoupon(quote.couponError);
    }
  }, [quote, current, appliedCouponCode, appliedCouponDiscountCents, freeProduct]);

  // A line short for units other shoppers' checkouts hold is asked about again as soon as they are
  // given back (or lapse), so it becomes payable without the shopper doing anything.
  const heldProducts = quote ? quote.lines.filter((l) => l.insufficientStock && (l.held ?? 0) > 0).map((l) => l.productId) : [];
  useStockWatch(heldProducts, () => void query.refetch());

  return {
    cart,
    quote: cart.items.length > 0 ? quote : undefined,
    updating: cart.items.length > 0 && (!current || query.isFetching),
    error: query.error,
    lineFor: (key) => (quote ? quotedLine(quote.lines, key.productId, key.variantId, key.size, key.color, key.everyWeeks) : undefined),
    giftLine: quote?.lines.find((l) => l.isFreeGift),
  };
}
