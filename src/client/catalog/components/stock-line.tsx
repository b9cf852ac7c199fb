import type { Product } from '../../../shared/schemas/catalog.js';
import type { StockNotice } from '../../../shared/schemas/inventory.js';
import { useHydrated } from '../../lib/use-hydrated.js';
import { STOCK_LINE } from '../stock-text.js';
import { LowStockBadge } from './stock-badge.js';

export type StockState = 'in-stock' | 'reserved' | 'out-of-stock';

/** In stock (something can be bought), kept (all of it is in other checkouts) or sold out. */
export function stockStateOf(product: Pick<Product, 'inventory'>, stock: StockNotice): StockState {
  if (product.inventory > 0) return 'in-stock';
  return stock.reserved > 0 ? 'reserved' : 'out-of-stock';
}

/** The shopper's clock, as hours and minutes in their own locale ("14:32", "2:32 PM"). */
function localTime(iso: string): string | null {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
}

/**
 * What can be bought now: "In stock (N available)" with "Only N left" at or below the product's
 * own low-stock line, what other checkouts keep and when the first may be back, or "Out of stock".
 * The time is the shopper's local time, so it is written once the page is live (the server's
 * HTML, shared by every visitor, cannot know their time zone).
 */
export function StockLine({ id, product, stock }: { id: string; product: Pick<Product, 'inventory'>; stock: StockNotice }) {
  const hydrated = useHydrated();
  const state = stockStateOf(product, stock);
  const text =
    state === 'in-stock'
      ? STOCK_LINE.inStock(product.inventory)
      : state === 'reserved'
        ? STOCK_LINE.reserved(stock.reserved, hydrated && stock.reservedUntil ? localTime(stock.reservedUntil) : null)
        : STOCK_LINE.outOfStock;
  const tone = state === 'in-stock' ? 'text-brand-700' : state === 'reserved' ? 'text-amber-900' : 'text-red-700';
  return (
    <div className="flex flex-wrap items-center gap-3">
      <p id={id} className={`text-sm font-medium ${tone}`}>
        {text}
      </p>
      <LowStockBadge inventory={product.inventory} threshold={stock.lowStockThreshold} />
    </div>
  );
}
