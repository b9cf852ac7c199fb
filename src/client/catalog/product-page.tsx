import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { formatCents } from '../../shared/money.js';
import type { Product, ProductOption, VariantView } from '../../shared/schemas/catalog.js';
import { lineTitle, sizeAndColor } from '../../shared/variants.js';
import { formatUnitPrice, unitPriceForReader } from '../../shared/unit-price.js';
import { DEFAULT_CART_COLOR, DEFAULT_CART_SIZE } from '../../shared/stored-cart.js';
import type { StockNotice } from '../../shared/schemas/inventory.js';
import { queryKeys } from '../../shared/query-keys.js';
import { useAddToCart, type AddableItem } from '../cart/use-add-to-cart.js';
import { useStockWatch } from '../lib/use-stock-watch.js';
import { VariantPicker } from './components/variant-picker.js';
import { ONCE, PurchaseChoice, purchaseFor, purchasePriceCents, type Purchase } from './components/purchase-choice.js';
import { addToCart as addToCartStore, useCart } from '../cart/cart-store.js';
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
import { useFeaturedProducts } from './api/get-featured-products.js';
import { ProductCard, productGridClasses } from './components/product-card.js';
import { getProductQueryOptions, isNotFound, useProduct } from '../lib/get-product.js';
import { StockLine, stockStateOf } from './components/stock-line.js';
import { NotifyMe } from './components/notify-me.js';
import { ProductGallery } from './components/product-gallery.js';
import { RelatedProducts } from './components/related-products.js';
import { FreeShippingLine } from '../ui/free-shipping-line.js';
import { HydrateWhenVisible } from '../lib/hydrate-when-visible.js';
import { SHOP_LOAD_ERROR } from './shop-page.js';
import type { BuyNowState } from '../cart/buy-now.js';
import { RatingLink } from '../reviews/rating-link.js';
import { ProductReviews } from '../reviews/reviews-section.js';

export default function ProductPage() {
  const { id = '' } = useParams();
  const { data, isPending, isError, error } = useProduct(id);

  if (isPending) return <ProductSkeleton />;
  if (isError) {
    return isNotFound(error) ? <ProductNotFound /> : <ProductLoadError />;
  }
  // Keyed by id so the quantity resets when moving to another product.
  return (
    <ProductDetail
      key={data.product.id}
      product={data.product}
      stock={data.stock}
      options={data.options}
      variants={data.variants}
      // Its stars with every star's count (an answer cached before reviews has the product's alone).
      rating={data.rating ?? data.product.rating}
      stockStamp={data.stockStamp}
    />
  );
}

/**
 * The variant shown: the one the address names (`?variant=`, drawn by the server too, so a shared
 * link shows that version's price and picture before any script runs: decision 0043), else the
 * first that can be bought, else the first; an id that is not one of this product's variants is
 * the default. A product answered without variants (a page cached before them) is its own one variant.
 */
function useChosenVariant(product: Product, stock: StockNotice, variants: readonly VariantView[]) {
  const [params, setParams] = useSearchParams();
  const wanted = params.get('variant');
  // The shopper's choice shows at once (a radio button must be checked as the key or tap lands);
  // the address follows a moment later. A link to another variant (the address changing to one
  // not chosen here) wins over an earlier choice.
  const [picked, setPicked] = useState<string | null>(null);
  const [seenWanted, setSeenWanted] = useState(wanted);
  if (wanted !== seenWanted) {
    setSeenWanted(wanted);
    if (wanted !== picked) setPicked(null);
  }
  const byId = (id: string | null) => (id ? variants.find((v) => v.id === id) : undefined);
  const chosen =
    byId(picked) ??
    byId(wanted) ??
    variants.find((v) => v.available > 0) ??
    variants[0] ??
    ({
      id: product.soleVariantId ?? `var_${product.id}`,
      options: [],
      label: '',
      sku: product.sku,
      priceCents: product.priceCents,
      compareAtCents: null,
      image: null,
      available: product.inventory,
      stock,
    } satisfies VariantView);
  const choose = (v: VariantView) => {
    setPicked(v.id);
    setParams(
      (p) => {
        p.set('variant', v.id);
        return p;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  return { chosen, choose };
}

/** What the cart takes of the chosen variant: its title, price, picture, stock, and size and colour when an option names them. */
function cartItemOf(product: Product, options: readonly ProductOption[], v: VariantView): AddableItem & { size: string; color: string } {
  const { size, color } = sizeAndColor(
    options.map((o) => o.name),
    v.options,
    { size: DEFAULT_CART_SIZE, color: DEFAULT_CART_COLOR },
  );
  return {
    id: product.id,
    variantId: v.id,
    name: lineTitle(product.name, v.label),
    priceCents: v.priceCents,
    images: v.image ? [v.image] : product.images.slice(0, 1),
    inventory: v.available,
    size,
    color,
  };
}

/**
 * Every unit is in other shoppers' checkouts: ask again once the first may be back (a second
 * after, for the server's short cache), so the page offers it without a reload.
 */
function useRefreshWhenReservationsEnd(productId: string, reservedUntil: string | null, kept: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!kept || !reservedUntil) return;
    const wait = Date.parse(reservedUntil) - Date.now() + 1500;
    // A checkout keeps units 10 minutes at most; anything else is a clock gone wrong.
    if (!Number.isFinite(wait) || wait > 11 * 60_000) return;
    const t = setTimeout(() => void queryClient.invalidateQueries({ queryKey: queryKeys.product(productId) }), Math.max(0, wait));
    return () => clearTimeout(t);
  }, [queryClient, productId, reservedUntil, kept]);
}

/**
 * Add to Cart with the stock as it is now: the page may have been open a while, and the cart never
 * takes more than can be bought (the toast says how many it took). The page shows the answer too.
 */
function useAddFreshToCart(item: AddableItem & { size: string; color: string }) {
  const queryClient = useQueryClient();
  const addToCart = useAddToCart();
  return async (quantity: number) => {
    let fresh = item;
    try {
      const data = await queryClient.fetchQuery({ ...getProductQueryOptions(item.id), staleTime: 0 });
      const variant = data.variants.find((v) => v.id === item.variantId);
      fresh = { ...item, inventory: variant ? variant.available : data.variants.length ? 0 : data.product.inventory };
    } catch {
      // Offline or gone: the cart takes what the page knew; the cart page checks again before checkout.
    }
    addToCart(fresh, quantity);
  };
}

function ProductDetail({
  product,
  stock: productStock,
  options,
  variants,
  rating,
  stockStamp,
}: {
  product: Product;
  stock: StockNotice;
  options: readonly ProductOption[];
  variants: readonly VariantView[];
  rating: { average: number; count: number } | undefined;
  /** The stock's stamp this data came with: the stock watch starts from it. */
  stockStamp: string | undefined;
}) {
  const navigate = useNavigate();
  const { chosen, choose } = useChosenVariant(product, productStock, variants);
  // Subscribe and save (issue [4/8]): once, or every N weeks, as the chosen variant's plan offers.
  const [wantedPurchase, setPurchase] = useState<Purchase>(ONCE);
  const plan = chosen.subscription ?? null;
  const purchase = purchaseFor(wantedPurchase, plan);
  const item = {
    ...cartItemOf(product, options, chosen),
    ...(purchase.mode === 'subscribe' ? { everyWeeks: purchase.everyWeeks } : {}),
  };
  const addToCart = useAddFreshToCart(item);
  const [adding, setAdding] = useState(false);
  const { data: categories } = useCategories();
  const [picked, setQuantity] = useState(1);
  // What the page says of stock is the chosen variant's.
  const stock = chosen.stock;
  const shown = { inventory: chosen.available };
  // Never more than can be bought: the stock may fall while the page is open (see useAddFreshToCart).
  const quantity = Math.min(picked, Math.max(1, shown.inventory));
  const stockState = stockStateOf(shown, stock);
  const inStock = stockState === 'in-stock';
  const stockLineId = useId();
  const sku = chosen.sku ?? (options.length ? null : product.sku);
  const onSale = chosen.compareAtCents !== null && chosen.compareAtCents > chosen.priceCents;
  const unitPrice = formatUnitPrice(chosen.priceCents, chosen.unitQuantity, chosen.unit);
  const pickerId = useId();
  useRefreshWhenReservationsEnd(product.id, stock.reservedUntil, stockState === 'reserved');
  // A hold or a release in another shopper's checkout shows here within a second.
  const queryClient = useQueryClient();
  useStockWatch([product.id], () => void queryClient.invalidateQueries({ queryKey: queryKeys.product(product.id) }), stockStamp);
  const category = categories?.find((c) => c.id === product.category);
  const buyButtonsId = useId();
  const add = () => {
    if (adding) return;
    setAdding(true);
    void addToCart(quantity).finally(() => setAdding(false));
  };

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
        <ProductGallery product={product} showImage={chosen.image} />

        <div className="flex flex-col gap-5">
          <div className="space-y-2">
            <h1 className="text-2xl font-bold leading-tight text-stone-900 sm:text-3xl">{product.name}</h1>
            <p className="flex flex-wrap items-baseline gap-x-3 text-2xl font-bold text-brand-700" data-variant-price="">
              {formatCents(chosen.priceCents)}
              {onSale && (
                <s className="text-lg font-medium text-stone-500">
                  <span className="sr-only">Was </span>
                  {formatCents(chosen.compareAtCents!)}
                </s>
              )}
              {unitPrice && <UnitPrice text={unitPrice} className="text-base font-medium text-stone-600" />}
            </p>
            <RatingLink rating={rating} />
          </div>

          {options.length > 0 && (
            <div id={pickerId}>
              <VariantPicker options={options} variants={variants} chosen={chosen} onChoose={choose} />
            </div>
          )}

          {plan && plan.intervals.length > 0 && (
            <PurchaseChoice plan={plan} priceCents={chosen.priceCents} purchase={purchase} onChange={setPurchase} />
          )}

          <StockLine id={stockLineId} product={shown} stock={stock} />

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
              <QuantityStepper value={quantity} max={shown.inventory} onChange={setQuantity} />
            </div>
          )}

          <div id={buyButtonsId} className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <Button
              size="lg"
              className="sm:flex-1"
              disabled={!inStock}
              aria-describedby={inStock ? undefined : stockLineId}
              aria-busy={adding}
              onClick={add}
            >
              <CartIcon size={20} />
              Add to Cart
            </Button>
            <Button
              size="lg"
              variant="outline"
              className="sm:flex-1"
              // Nothing to buy: the stock line above says why (sold out, or in other checkouts).
              disabled={!inStock}
              aria-describedby={inStock ? undefined : stockLineId}
              onClick={() => {
                // Buy Now goes straight to checkout with this product; the server prices it like any cart.
                addToCartStore({
                  product: item,
                  quantity,
                  inventory: item.inventory,
                  size: item.size,
                  color: item.color,
                  everyWeeks: item.everyWeeks,
                });
                // The checkout says so when the cart holds more than this product (it pays for the whole cart).
                const state: BuyNowState = { buyNow: { productId: product.id, name: item.name, quantity } };
                void navigate(paths.checkout, { state });
              }}
            >
              Buy Now
            </Button>
            <Link to={paths.products} className={buttonClasses('outline', 'lg', 'sm:flex-1')}>
              Continue Shopping
            </Link>
          </div>
          {stockState === 'out-of-stock' && (
            <NotifyMe
              productId={product.id}
              variantId={options.length ? chosen.id : undefined}
              variantLabel={options.length ? chosen.label : undefined}
            />
          )}
          <div>
            <Button variant="ghost" onClick={goBack}>
              <ArrowLeftIcon size={18} />
              Back
            </Button>
          </div>

          {(sku || product.brand) && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 border-t border-stone-200 pt-4 text-sm">
              {product.brand && (
                <>
                  <dt className="font-medium text-stone-800">Brand</dt>
                  <dd className="text-stone-700">{product.brand}</dd>
                </>
              )}
              {sku && (
                <>
                  <dt className="font-medium text-stone-800">SKU</dt>
                  <dd className="text-stone-700" data-variant-sku="">
                    {sku}
                  </dd>
                </>
              )}
            </dl>
          )}
        </div>
      </div>
      {inStock && (
        <StickyBuyBar
          productName={product.name}
          variantLabel={chosen.label}
          priceCents={purchasePriceCents(chosen.priceCents, purchase, plan)}
          unitPrice={unitPrice}
          watchIds={options.length > 0 ? [buyButtonsId, pickerId] : [buyButtonsId]}
          adding={adding}
          onAdd={add}
        />
      )}
      {/* Under the product, past a phone's first screen: hydrated as they come near (or as the link to the reviews is followed). */}
      <HydrateWhenVisible selector="section#reviews" part={ProductReviews} props={{ productId: product.id }} />
      <HydrateWhenVisible selector='section[aria-labelledby="related-title"]' part={RelatedProducts} props={{ productId: product.id }} />
    </Container>
  );
}

/** "$0.94 / oz" beside a price; a screen reader hears "$0.94 per oz". */
function UnitPrice({ text, className }: { text: string; className: string }) {
  return (
    <span className={className} data-unit-price="">
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{unitPriceForReader(text)}</span>
    </span>
  );
}

/**
 * On a phone, the price and Add to Cart along the bottom of the screen while the page's own buttons
 * are out of view (below the photo and text at first, or scrolled past), as Dawn's sticky bar does;
 * gone when those buttons, the variant picker (the bar would cover it: decision 0043) or the footer
 * are in view. The chosen version is named in full on a line of its own. It repeats the page's own
 * button for a thumb, so it is left out of the keyboard order and the accessibility tree, where that
 * button is.
 */
function StickyBuyBar({
  productName,
  variantLabel,
  priceCents,
  unitPrice,
  watchIds,
  adding,
  onAdd,
}: {
  productName: string;
  variantLabel: string;
  priceCents: number;
  unitPrice: string | null;
  watchIds: readonly string[];
  adding: boolean;
  onAdd: () => void;
}) {
  // Hidden until the observer has said where things are: drawn at first, it would cover the picker on a phone's first screen.
  const [covered, setCovered] = useState(true);
  const watched = watchIds.join(' ');
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const targets = [...watched.split(' ').map((id) => document.getElementById(id)), document.querySelector('body footer')].filter(
      (el): el is Element => el !== null,
    );
    if (targets.length === 0) return;
    const inView = new Map<Element, boolean>();
    const observer = new IntersectionObserver((entries) => {
      for (const e of entries) inView.set(e.target, e.isIntersecting);
      setCovered([...inView.values()].some(Boolean));
    });
    for (const el of targets) observer.observe(el);
    return () => observer.disconnect();
  }, [watched]);
  return (
    <div
      aria-hidden="true"
      data-sticky-buy-bar=""
      className={`fixed inset-x-0 bottom-0 z-30 border-t border-stone-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] backdrop-blur sm:hidden ${covered ? 'hidden' : 'flex'} items-center gap-3`}
    >
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-stone-900">{productName}</p>
        {variantLabel && (
          <p className="break-words text-sm text-stone-700" data-sticky-variant="">
            {variantLabel}
          </p>
        )}
        <p className="flex flex-wrap items-baseline gap-x-2 font-bold text-brand-700">
          {formatCents(priceCents)}
          {unitPrice && <span className="text-xs font-medium text-stone-600">{unitPrice}</span>}
        </p>
      </div>
      <Button tabIndex={-1} aria-busy={adding} onClick={onAdd} className="shrink-0">
        <CartIcon size={18} />
        Add to Cart
      </Button>
    </div>
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

/** The unknown product page's words (decision 0033). */
export const PRODUCT_NOT_FOUND_MESSAGES = {
  title: 'Product Not Found',
  text: 'We couldn’t find this product. It may no longer be sold, or the link may be mistyped. Search the shop, or have a look at these:',
  others: 'Popular Products',
} as const;

function ProductNotFound() {
  const navigate = useNavigate();
  const searchId = useId();
  const { data: featured } = useFeaturedProducts();
  return (
    <Container className="flex flex-col items-center gap-6 py-16 text-center">
      <h1 className="text-3xl font-bold text-stone-900">{PRODUCT_NOT_FOUND_MESSAGES.title}</h1>
      <p className="max-w-xl text-stone-700">{PRODUCT_NOT_FOUND_MESSAGES.text}</p>
      {/* A plain GET form: it searches before the page's script has started too. */}
      <form
        role="search"
        action={paths.products}
        method="get"
        className="flex w-full max-w-md gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const text = String(new FormData(e.currentTarget).get('search') ?? '').trim();
          void navigate(text ? `${paths.products}?${new URLSearchParams({ search: text }).toString()}` : paths.products);
        }}
      >
        <label htmlFor={searchId} className="sr-only">
          Search products
        </label>
        <input
          id={searchId}
          name="search"
          type="search"
          maxLength={100}
          placeholder="Search products..."
          className="h-11 min-w-0 flex-1 rounded-md border border-stone-400 bg-white px-3 text-base text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        <Button type="submit">Search</Button>
      </form>
      <Link to={paths.products} className={buttonClasses('outline', 'lg')}>
        Return to Shop
      </Link>
      {featured && featured.length > 0 && (
        <section aria-labelledby="not-found-others" className="mt-6 w-full text-left">
          <h2 id="not-found-others" className="mb-4 text-2xl font-bold text-stone-900">
            {PRODUCT_NOT_FOUND_MESSAGES.others}
          </h2>
          <div className={productGridClasses}>
            {featured.map((p) => (
              <ProductCard key={p.id} product={p} headingLevel="h3" />
            ))}
          </div>
        </section>
      )}
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
