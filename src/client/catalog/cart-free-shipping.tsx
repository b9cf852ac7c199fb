import { FreeShippingLine } from '../ui/free-shipping-line.js';
import { useCartQuote } from '../cart/use-cart-quote.js';

/**
 * The free-shipping line for the cart as the server prices it. Its own chunk for the product page
 * (in the storefront's first-load bundle): the quote's code loads only for a shopper whose cart
 * has something in it.
 */
export default function CartFreeShipping() {
  const { quote } = useCartQuote();
  return <FreeShippingLine subtotalCents={quote?.subtotalCents ?? null} />;
}
