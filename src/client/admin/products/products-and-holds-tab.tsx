import ProductsTab from './products-tab.js';
import { HoldsPanel } from './holds-panel.js';
import { BackInStockPanel } from './back-in-stock-panel.js';

/** The Products tab: the catalogue, then what unpaid checkouts hold of it (decision 0042). */
export default function ProductsAndHoldsTab() {
  return (
    <div className="flex flex-col gap-6">
      <ProductsTab />
      <HoldsPanel />
      <BackInStockPanel />
    </div>
  );
}
