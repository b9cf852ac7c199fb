import { queryOptions } from '@tanstack/react-query';
import type { CartLineInput, Quote } from '../../shared/schemas/checkout.js';
import { apiRequestWith } from '../lib/api-client.js';
import { freshUnlessFromServer } from '../lib/query-client.js';
import { queryKeys } from '../../shared/query-keys.js';
import { loadCheckoutSchemas } from '../lib/load-checkout-schemas.js';

export type QuoteRequest = {
  lines: (Required<Omit<CartLineInput, 'variantId' | 'everyWeeks'>> & Pick<CartLineInput, 'variantId' | 'everyWeeks'>)[];
  couponCode: string | null;
  shippingOptionId: string | null;
};

const loadQuoteSchema = () => loadCheckoutSchemas().then((m) => m.Quote);

/** The server prices the cart: current prices and stock, the coupon and its gift, shipping, tax and total. */
function getCartQuote(input: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
  return apiRequestWith('/api/cart/quote', loadQuoteSchema, { method: 'POST', body: input, signal });
}

export function getCartQuoteQueryOptions(input: QuoteRequest) {
  return queryOptions({
    queryKey: queryKeys.cartQuote(input.lines, input.couponCode, input.shippingOptionId),
    queryFn: ({ signal }) => getCartQuote(input, signal),
    // Prices and stock change: a page showing the cart always asks again, unless the quote is the
    // one the server priced for this very page a moment ago.
    staleTime: freshUnlessFromServer,
  });
}
