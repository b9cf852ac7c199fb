import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatCents } from '../../shared/money.js';
import type { CartLine } from './stored-cart.js';
import { getProductQueryOptions } from '../catalog/api/get-product.js';
import { paths } from '../lib/paths.js';
import { pageTitle, useDocumentMeta } from '../seo/use-document-meta.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { CartIcon, TrashIcon } from '../ui/icons.js';
import { ProductImage } from '../ui/product-image.js';
import { QuantityStepper } from '../ui/quantity-stepper.js';
import { lineKey, removeFromCart, setCartQuantity, useCart } from './cart-store.js';

export default function CartPage() {
  useDocumentMeta({ title: pageTitle('Shopping Cart'), noindex: true });
  const cart = useCart();

  // Current stock bounds each line's quantity stepper.
  const stock = useQueries({
    queries: [...new Set(cart.items.map((l) => l.product.id))].map((id) => ({
      ...getProductQueryOptions(id),
      staleTime: 0,
    })),
    combine: (results) => {
      const map = new Map<string, number>();
      for (const r of results) if (r.data) map.set(r.data.product.id, r.data.product.inventory);
      return map;
    },
  });

  return (
    <Container className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'Cart' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Shopping Cart</h1>

      {cart.items.length === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-stone-300 px-4 py-16 text-center">
          <CartIcon size={40} className="text-stone-500" />
          <h2 className="text-xl font-semibold text-stone-900">Your cart is empty</h2>
          <Link to={paths.products} className={buttonClasses('primary', 'lg')}>
            Continue Shopping
          </Link>
        </div>
      ) : (
        <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
          <section aria-labelledby="cart-items-title">
            <h2 id="cart-items-title" className="sr-only">
              Items in your cart
            </h2>
            <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
              {cart.items.map((line) => (
                <CartLineRow
                  key={`${line.product.id}|${line.size}|${line.color}`}
                  line={line}
                  inventory={stock.get(line.product.id)}
                />
              ))}
            </ul>
          </section>

          <section aria-labelledby="cart-summary-title" className="h-fit rounded-xl border border-stone-200 bg-stone-50 p-6">
            <h2 id="cart-summary-title" className="mb-4 text-lg font-semibold text-stone-900">
              Order Summary
            </h2>
            <dl className="flex items-center justify-between text-base">
              <dt className="text-stone-700">Subtotal ({cart.itemCount} {cart.itemCount === 1 ? 'item' : 'items'})</dt>
              <dd className="font-bold text-stone-900">{formatCents(cart.totalCents)}</dd>
            </dl>
            <Link to={paths.products} className={buttonClasses('outline', 'md', 'mt-6 w-full')}>
              Continue Shopping
            </Link>
          </section>
        </div>
      )}
    </Container>
  );
}

function CartLineRow({ line, inventory }: { line: CartLine; inventory: number | undefined }) {
  const key = lineKey(line);
  const { product } = line;
  return (
    <li className="flex gap-4 p-4">
      <Link to={paths.product(product.id)} tabIndex={-1} aria-hidden="true" className="shrink-0">
        <ProductImage src={product.images[0]} alt="" width={96} height={96} className="h-20 w-20 rounded-lg object-cover sm:h-24 sm:w-24" />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h3 className="font-semibold text-stone-900">
            <Link to={paths.product(product.id)} className="rounded hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600">
              {product.name}
            </Link>
          </h3>
          <p className="text-sm text-stone-700">{formatCents(product.priceCents)} each</p>
        </div>
        <div className="flex items-center justify-between gap-4 sm:justify-end">
          <QuantityStepper
            size="sm"
            label={`Quantity of ${product.name}`}
            value={line.quantity}
            max={inventory !== undefined ? Math.max(1, inventory) : undefined}
            onChange={(q) => setCartQuantity(key, q, inventory)}
          />
          <p className="w-24 text-right font-semibold text-stone-900">{formatCents(product.priceCents * line.quantity)}</p>
          <button
            type="button"
            onClick={() => removeFromCart(key)}
            aria-label={`Remove ${product.name}`}
            className="rounded-md p-2 text-stone-600 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <TrashIcon size={18} />
          </button>
        </div>
      </div>
    </li>
  );
}
