import { CART_STOCK_MESSAGES } from '../../shared/checkout-text.js';
import type { StockShortfall } from './stock-fit.js';
import { Alert } from '../ui/alert.js';

/** What the cart lowered (or removed) to follow stock, product by product: the cart and the checkout say it alike. */
export function StockChangedNotice({ changed }: { changed: readonly StockShortfall[] }) {
  return (
    <div className="mb-6">
      <Alert title={CART_STOCK_MESSAGES.cartUpdatedTitle}>
        <ul className="flex flex-col gap-1">
          {changed.map((c) => (
            <li key={c.variantId ?? c.productId}>
              {c.available > 0 ? CART_STOCK_MESSAGES.lowered(c.name, c.available) : CART_STOCK_MESSAGES.removed(c.name)}
            </li>
          ))}
        </ul>
      </Alert>
    </div>
  );
}
