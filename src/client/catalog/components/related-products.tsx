import { Link } from 'react-router';
import { IMAGE_SIZES } from '../../../shared/image-variants.js';
import { formatCents } from '../../../shared/money.js';
import type { ProductCardItem } from '../../../shared/product-card.js';
import { paths } from '../../lib/paths.js';
import { ProductImage } from '../../ui/product-image.js';
import { useRelatedProducts } from '../api/get-related-products.js';
import { ProductCardSkeleton } from './product-card.js';
import { LowStockBadge } from './stock-badge.js';
import { CardRating } from '../../reviews/stars.js';

const grid = 'grid grid-cols-2 gap-3 sm:gap-6 md:grid-cols-4';

/**
 * "You may also like": up to four other products of the same category, those in stock first (the
 * server's choice, src/server/catalog/related.ts). In the server's HTML with the page; fetched
 * when the shopper arrives from another page of the shop. Nothing when there is nothing to show.
 * Each card is a link (no Add to Cart: the page's own button stays the only one of that name).
 */
export function RelatedProducts({ productId }: { productId: string }) {
  const { data: items, isPending } = useRelatedProducts(productId);
  if (!isPending && !items?.length) return null;
  return (
    <section aria-labelledby="related-title" className="mt-12 border-t border-stone-200 pt-8">
      <h2 id="related-title" className="mb-4 text-xl font-bold text-stone-900 sm:text-2xl">
        You may also like
      </h2>
      {isPending ? (
        <div className={grid} aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <ProductCardSkeleton key={i} />
          ))}
        </div>
      ) : (
        <ul className={grid}>
          {items?.map((p) => (
            <li key={p.id} className="grid">
              <RelatedCard product={p} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RelatedCard({ product }: { product: ProductCardItem }) {
  return (
    <article className="relative flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md has-[a:focus-visible]:outline-3 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-brand-600">
      <div className="relative">
        <ProductImage
          src={product.images[0]}
          alt={product.name}
          width={400}
          height={400}
          sizes={IMAGE_SIZES.related}
          className="aspect-square w-full object-cover"
        />
        <LowStockBadge inventory={product.inventory} className="absolute left-3 top-3" />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        <h3 className="text-sm font-semibold leading-snug text-stone-900 sm:text-base">
          {/* Focus shows as the card's outline (a ring inside would be clipped by overflow-hidden). The ::after overlay makes the whole card one click target with a single link. */}
          <Link
            to={paths.product(product.id)}
            className="after:absolute after:inset-0 after:content-[''] hover:text-brand-700 focus-visible:outline-none"
          >
            {product.name}
          </Link>
        </h3>
        {product.rating && <CardRating rating={product.rating} />}
        <p className="font-bold text-brand-700">{formatCents(product.priceCents)}</p>
        {product.inventory <= 0 && <p className="text-sm font-medium text-red-700">Out of stock</p>}
      </div>
    </article>
  );
}
