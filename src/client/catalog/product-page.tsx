import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatCents } from '../../shared/money.js';
import type { Product } from '../../shared/schemas/catalog.js';
import { useAddToCart } from '../lib/use-add-to-cart.js';
import { addToCart as addToCartStore, useCart } from '../lib/cart-store.js';
import { toast } from '../ui/toast.js';
import { paths } from '../lib/paths.js';
import { paragraphs } from '../lib/text.js';
import { Alert } from '../ui/alert.js';
import { Breadcrumb, type BreadcrumbItem } from '../ui/breadcrumb.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { ArrowLeftIcon, CartIcon } from '../ui/icons.js';
import { QuantityStepper } from '../ui/quantity-stepper.js';
import { Skeleton } from '../ui/skeleton.js';
import { useCategories } from './api/get-categories.js';
import { isNotFound, useProduct } from '../lib/get-product.js';
import { LowStockBadge } from './components/stock-badge.js';
import { ProductGallery } from './components/product-gallery.js';
import { RelatedProducts } from './components/related-products.js';
import { FreeShippingLine } from '../ui/free-shipping-line.js';
import { SHOP_LOAD_ERROR } from './shop-page.js';

export default function ProductPage() {
  const { id = '' } = useParams();
  const { data: product, isPending, isError, error } = useProduct(id);

  if (isPending) return <ProductSkeleton />;
  if (isError) {
    return isNotFound(error) ? <ProductNotFound /> : <ProductLoadError />;
  }
  // Keyed by id so the quantity resets when moving to another product.
  return <ProductDetail key={product.id} product={product} />;
}

function ProductDetail({ product }: { product: Product }) {
  const navigate = useNavigate();
  const addToCart = useAddToCart();
  const { data: categories } = useCategories();
  const [quantity, setQuantity] = useState(1);
  const inStock = product.inventory > 0;
  const category = categories?.find((c) => c.id === product.category);

  const crumbs: BreadcrumbItem[] = [
    { label: 'Home', to: paths.home },
    { label: 'Shop', to: paths.products },
  ];
  if (category) crumbs.push({ label: category.name, to: paths.productsInCategory(category.id) });
  crumbs.push({ label: product.name });

  const goBack = () => {
    // React Router records the history index; 0 means this page opened the tab.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(paths.products);
  };

  return (
    <Container className="py-8">
      <Breadcrumb items={crumbs} />
      <div className="grid gap-8 md:grid-cols-2 md:gap-12">
        <ProductGallery product={product} />

        <div className="flex flex-col gap-5">
          <div className="space-y-2">
            <h1 className="text-2xl font-bold leading-tight text-stone-900 sm:text-3xl">{product.name}</h1>
            <p className="text-2xl font-bold text-brand-700">{formatCents(product.priceCents)}</p>
          </div>

          <div className="flex flex-wrap items-center gap-3">
            <p className={`text-sm font-medium ${inStock ? 'text-brand-700' : 'text-red-700'}`}>
              {inStock ? `In stock (${product.inventory} available)` : 'Out of stock'}
            </p>
            <LowStockBadge inventory={product.inventory} />
          </div>

          <ProductFreeShipping />

          <div className="space-y-3 leading-relaxed text-stone-700">
            {paragraphs(product.description).map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>

          {inStock && (
            <div className="flex items-center gap-3">
              <span className="text-sm font-medium text-stone-800" aria-hidden="true">
                Quantity
              </span>
              <QuantityStepper value={quantity} max={product.inventory} onChange={setQuantity} />
            </div>
          )}

          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <Button size="lg" className="sm:flex-1" disabled={!inStock} onClick={() => addToCart(product, quantity)}>
              <CartIcon size={20} />
              Add to Cart
            </Button>
            <Button
              size="lg"
              variant="outline"
              className="sm:flex-1"
              onClick={() => {
                // Buy Now goes straight to checkout with this product; the server prices it like any cart.
                if (!inStock) {
                  toast({
                    title: 'Checkout failed',
                    description: 'This product is not available for online purchase',
                    variant: 'destructive',
                  });
                  return;
                }
                addToCartStore({ product, quantity, inventory: product.inventory });
                void navigate(paths.checkout);
              }}
            >
              Buy Now
            </Button>
            <Link to={paths.products} className={buttonClasses('outline', 'lg', 'sm:flex-1')}>
              Continue Shopping
            </Link>
          </div>
          <div>
            <Button variant="ghost" onClick={goBack}>
              <ArrowLeftIcon size={18} />
              Back
            </Button>
          </div>

          {(product.sku || product.brand) && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 border-t border-stone-200 pt-4 text-sm">
              {product.brand && (
                <>
                  <dt className="font-medium text-stone-800">Brand</dt>
                  <dd className="text-stone-700">{product.brand}</dd>
                </>
              )}
              {product.sku && (
                <>
                  <dt className="font-medium text-stone-800">SKU</dt>
                  <dd className="text-stone-700">{product.sku}</dd>
                </>
              )}
            </dl>
          )}
        </div>
      </div>
      <RelatedProducts productId={product.id} />
    </Container>
  );
}

// The quote's code (4 KB) stays out of the first-load bundle: loaded once the cart has something in it.
const CartFreeShipping = lazy(() => import('./cart-free-shipping.js'));

/**
 * The cart's progress towards free shipping, from the server's quote of the cart; the shop's rule
 * (the same line, the same height) while the cart is empty or not priced yet, and in the shared HTML.
 */
function ProductFreeShipping() {
  const cart = useCart();
  const rule = <FreeShippingLine subtotalCents={null} />;
  if (cart.items.length === 0) return rule;
  return (
    <Suspense fallback={rule}>
      <CartFreeShipping />
    </Suspense>
  );
}

function ProductNotFound() {
  return (
    <Container className="flex flex-col items-center gap-4 py-20 text-center">
      <h1 className="text-3xl font-bold text-stone-900">Product Not Found</h1>
      <Link to={paths.products} className={buttonClasses('primary', 'lg')}>
        Return to Shop
      </Link>
    </Container>
  );
}

function ProductLoadError() {
  return (
    <Container className="py-8">
      <h1 className="sr-only">Product</h1>
      <Alert
        variant="destructive"
        title={SHOP_LOAD_ERROR}
        action={
          <Button variant="outline" onClick={() => window.location.reload()}>
            Retry
          </Button>
        }
      />
    </Container>
  );
}

function ProductSkeleton() {
  return (
    <Container className="py-8">
      <div role="status" aria-label="Loading product" className="grid gap-8 md:grid-cols-2 md:gap-12">
        <Skeleton className="aspect-square w-full rounded-2xl" />
        <div className="space-y-4">
          <Skeleton className="h-9 w-3/4" />
          <Skeleton className="h-8 w-1/4" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      </div>
    </Container>
  );
}
