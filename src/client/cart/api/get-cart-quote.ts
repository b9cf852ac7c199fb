import { queryOptions } from '@tanstack/react-query';
import type { CartLineInput, Quote } from '../../../shared/schemas/checkout.js';
import { apiRequest } from '../../lib/api-client.js';

export type QuoteRequest = {
  lines: Required<CartLineInput>[];
  couponCode: string | null;
  shippingOptionId: string | null;
};

/** The server prices the cart: current prices and stock, the coupon and its gift, shipping, tax and total. */
export function getCartQuote(input: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
  return apiRequest('/api/cart/quote', (s) => s.Quote, { method: 'POST', body: input, signal });
}

export function getCartQuoteQueryOptions(input: QuoteRequest) {
  return queryOptions({
    queryKey: ['cart-quote', input.lines, input.couponCode, input.shippingOptionId] as const,
    queryFn: ({ signal }) => getCartQuote(input, signal),
    // Prices and stock change: a page showing the cart always asks again.
    staleTime: 0,
  });
}
