import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../lib/paths.js';
import { Alert } from '../ui/alert.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Button } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { useCategories } from './api/get-categories.js';
import { productsFilterFromSearchParams, useProducts } from './api/get-products.js';
import { CategoryTabs } from './components/category-tabs.js';
import { Pagination } from '../ui/pagination.js';
import { ProductCard, ProductCardSkeleton, productGridClasses } from './components/product-card.js';
import { SearchBox } from './components/search-box.js';
import { priceParam, type ProductsFilter } from '../../shared/products-filter.js';

export const SHOP_LOAD_ERROR = "We couldn't load the product data. Please try again.";

// An unknown category or a page past the last: rare, so loaded on demand (decision 0033).
const ShopNotThere = lazy(() => import('./components/shop-not-there.js'));
// The order and price form is a plain GET form that works before its script: it loads beside the
// first-load script (asked for at once, not awaited), which keeps that under its budget (decision 0033).
// The server's render waits for it; the browser hydrates it when it arrives.
const orderFilter = import('./components/shop-order-filter.js');
const ShopOrderFilter = lazy(() => orderFilter.then((m) => ({ default: m.ShopOrderFilter })));

/**
 * After Next/Previous or another category (a pager or footer link: the page itself stays, only the
 * query changes), the shopper is taken to the top of the list with focus on its heading, not left
 * at the bottom of the page where the link was.
 */
function useTopOfListOnMove(key: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  const last = useRef(key);
  useEffect(() => {
    if (last.current === key) return;
    last.current = key;
    window.scrollTo({ top: 0, left: 0 });
    heading.current?.focus({ preventScroll: true });
  }, [key]);
  return heading;
}

type ShopLinkInput = Partial<Pick<ProductsFilter, 'search' | 'category' | 'sort' | 'minPriceCents' | 'maxPriceCents'>> & { page?: number };

function shopHref({ search, category, sort, minPriceCents, maxPriceCents, page }: ShopLinkInput): string {
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  if (category) params.set('category', category);
  if (sort) params.set('sort', sort);
  if (minPriceCents !== undefined) params.set('minPrice', priceParam(minPriceCents));
  if (maxPriceCents !== undefined) params.set('maxPrice', priceParam(maxPriceCents));
  if (page && page > 1) params.set('page', String(page));
  const qs = params.toString();
  return qs ? `${paths.products}?${qs}` : paths.products;
}

export default function ShopPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const filter = productsFilterFromSearchParams(searchParams);
  const { search, category } = filter;
  // What a new search or category keeps: the order and the price range.
  const kept = { sort: filter.sort, minPriceCents: filter.minPriceCents, maxPriceCents: filter.maxPriceCents };

  const { data: categories } = useCategories();
  const { data, isPending, isError, isPlaceholderData } = useProducts(filter);
  const activeCategory = category === undefined ? undefined : categories?.find((c) => c.id === category);
  const unknownCategory = category !== undefined && categories !== undefined && activeCategory === undefined;
  const heading = useTopOfListOnMove(`${category ?? ''}|${filter.page}`);

  const onSearch = useCallback(
    (text: string) => void navigate(shopHref({ ...kept, search: text, category }), { replace: true }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- kept's parts are listed
    [navigate, category, kept.sort, kept.minPriceCents, kept.maxPriceCents],
  );

  return (
    <Container className="py-8">
      <Breadcrumb
        items={[
          { label: 'Home', to: paths.home },
          ...(activeCategory ? [{ label: 'Shop', to: paths.products }, { label: activeCategory.name }] : [{ label: 'Shop' }]),
        ]}
      />
      <h1 ref={heading} tabIndex={-1} className="mb-6 text-3xl font-bold text-stone-900 focus:outline-none">
        {activeCategory ? activeCategory.name : 'Shop All Products'}
      </h1>

      <div className="mb-6 space-y-4">
        <SearchBox value={search ?? ''} onSearch={onSearch} />
        {categories && (
          <CategoryTabs categories={categories} active={category} hrefFor={(id) => shopHref({ ...kept, search, category: id })} />
        )}
        <Suspense>
          <ShopOrderFilter filter={filter} onChange={(choice) => void navigate(shopHref({ search, category, ...choice }))} />
        </Suspense>
      </div>

      {unknownCategory ? (
        <Suspense>
          <ShopNotThere to={paths.products} />
        </Suspense>
      ) : isError ? (
        <Alert
          variant="destructive"
          title={SHOP_LOAD_ERROR}
          action={
            <Button variant="outline" onClick={() => window.location.reload()}>
              Retry
            </Button>
          }
        />
      ) : isPending ? (
        <div className={productGridClasses} aria-busy="true">
          {Array.from({ length: 8 }, (_, i) => (
            <ProductCardSkeleton key={i} />
          ))}
        </div>
      ) : data.items.length === 0 && data.total > 0 ? (
        <Suspense>
          <ShopNotThere to={shopHref({ ...kept, search, category, page: data.totalPages })} last={data.totalPages} />
        </Suspense>
      ) : data.items.length === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-stone-300 px-4 py-16 text-center">
          <h2 className="text-xl font-semibold text-stone-900">No products found</h2>
          <Button variant="outline" onClick={() => void navigate(paths.products)}>
            Clear Filters
          </Button>
        </div>
      ) : (
        <>
          <div
            className={`${productGridClasses} transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}
            aria-busy={isPlaceholderData}
          >
            {data.items.map((p, i) => (
              <ProductCard key={p.id} product={p} eager={i < 4} priority={i === 0} />
            ))}
          </div>
          <Pagination page={data.page} totalPages={data.totalPages} hrefFor={(n) => shopHref({ ...kept, search, category, page: n })} />
        </>
      )}
    </Container>
  );
}
