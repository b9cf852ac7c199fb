import { Fragment } from 'react';
import { formatCents } from '../../../shared/money.js';
import type { OrdersOverview } from '../api/admin-schemas.js';
import { td, th } from '../components/admin-ui.js';

/** What the table counts; the same rule as the server's salesByProduct (orders/overview.ts). */
const SALES_LEGEND =
  'Orders that took money, each line at the price it sold for, less the units that went back to stock with a refund or a cancel (as the stock history counts them). Order discounts, shipping and tax belong to no product: they are in the revenue above, not here.';

/** Units sold and net sales per product over the overview's period, best-selling first, with each version's under it. */
export function SalesByProduct({ products, span }: { products: OrdersOverview['products']; span: string }) {
  const headingId = 'sales-by-product-heading';
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-lg border border-stone-200 p-3">
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-stone-900">
        Sales by product, {span}
      </h3>
      {products.length === 0 ? (
        <p className="py-4 text-center text-sm text-stone-700">No products sold in this period.</p>
      ) : (
        // Scrolls when long, so it takes focus for keyboard scrolling.
        <div
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          role="region"
          aria-label="Sales by product table"
          className="max-h-96 overflow-y-auto rounded focus-visible:outline-2"
        >
          <table className="w-full border-collapse">
            <caption className="sr-only">Sales by product, {span}</caption>
            <thead className="sticky top-0 bg-stone-50">
              <tr>
                <th scope="col" className={th}>
                  Product
                </th>
                {/* The figures' headings may wrap on a phone, leaving the product its room. */}
                <th scope="col" className={`${th} text-right max-sm:whitespace-normal`}>
                  Units sold
                </th>
                <th scope="col" className={`${th} text-right max-sm:whitespace-normal`}>
                  Net sales
                </th>
              </tr>
            </thead>
            <tbody>
              {products.map((p) => (
                <Fragment key={p.productId}>
                  <tr className="border-t border-stone-200">
                    <th scope="row" className={`${td} break-words text-left font-normal`}>
                      {p.name}
                    </th>
                    <td className={`${td} text-right tabular-nums`}>{p.units.toLocaleString('en-US')}</td>
                    <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{formatCents(p.netSalesCents)}</td>
                  </tr>
                  {/* A product sold in more than one version: each version's own line under it. */}
                  {p.variants.length > 1 &&
                    p.variants.map((v) => (
                      <tr key={v.variantId} className="text-stone-700" data-testid="variant-sales-row">
                        <th scope="row" className={`${td} break-words pl-6 text-left text-xs font-normal`}>
                          <span className="sr-only">{p.name}, </span>
                          {v.label || 'Standard'}
                        </th>
                        <td className={`${td} text-right text-xs tabular-nums`}>{v.units.toLocaleString('en-US')}</td>
                        <td className={`${td} whitespace-nowrap text-right text-xs tabular-nums`}>{formatCents(v.netSalesCents)}</td>
                      </tr>
                    ))}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="mt-2 text-xs text-stone-600">{SALES_LEGEND}</p>
    </section>
  );
}
