import { Link } from 'react-router';
import { IMAGE_SIZES } from '../../../shared/image-variants.js';
import { formatCents } from '../../../shared/money.js';
import type { ProductCardItem } from '../../../shared/product-card.js';
import { useAddToCart } from '../../cart/use-add-to-cart.js';
import { paths } from '../../lib/paths.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { CartIcon } from '../../ui/icons.js';
import { ProductImage } from '../../ui/product-image.js';
import { LowStockBadge } from './stock-badge.js';
import { CardRating } from '../../reviews/stars.js';

/**
 * A card whose every buyable unit is in other shoppers' checkouts: the product page's words
 * (stock-text.ts STOCK_LINE.reserved) without the time. Kept here: the cards are in the first load.
 */
export const CARD_HELD_TEXT = (units: number) =>
  units === 1 ? "The last one is in another shopper's checkout" : `All ${units} left are in other shoppers' checkouts`;

type ProductCardProps = {
  /** Only what the card shows (the lists embedded in the HTML carry no more: src/shared/product-card.ts). */
  product: ProductCardItem;
  headingLevel?: 'h2' | 'h3';
  /** Cards in the first visible row load their image at once; `priority` marks the LCP candidate. */
  eager?: boolean;
  priority?: boolean;
};

export function ProductCard({ product, headingLevel = 'h2', eager = false, priority = false }: ProductCardProps) {
  const addToCart = useAddToCart();
  const Heading = headingLevel;
  const held = product.inventory <= 0 ? (product.held ?? 0) : 0;
  // Units in other shoppers' checkouts may come back: not "Out of stock", as the product page says.
  const outOfStock = product.inventory <= 0 && held === 0;
  // A product with options is chosen on its page; one sold in a single version is added from here.
  const chooseOnPage = product.soleVariantId === null && !outOfStock;
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md has-[a:focus-visible]:outline-3 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-brand-600">
      <div className="relative">
        <ProductImage
          src={product.images[0]}
          alt={product.name}
          width={400}
          height={400}
          sizes={IMAGE_SIZES.card}
          eager={eager}
          priority={priority}
          className="aspect-square w-full object-cover"
        />
        <LowStockBadge inventory={product.inventory} className="absolute left-3 top-3" />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <Heading className="text-base font-semibold leading-snug text-stone-900">
          {/* Focus shows as the card's outline (a ring inside would be clipped by overflow-hidden). The ::after overlay makes the whole card a click target while keeping a single link. */}
          <Link
            to={paths.product(product.id)}
            className="after:absolute after:inset-0 after:content-[''] hover:text-brand-700 focus-visible:outline-none"
          >
            {product.name}
          </Link>
        </Heading>
        {product.rating && <CardRating rating={product.rating} />}
        <p className="text-lg font-bold text-brand-700">
          {product.maxPriceCents ? `From ${formatCents(product.priceCents)}` : formatCents(product.priceCents)}
        </p>
        {held > 0 && (
          <p data-card-held="" className="text-sm font-medium text-amber-900">
            {CARD_HELD_TEXT(held)}
          </p>
        )}
        <div className="mt-auto pt-2">
          {chooseOnPage ? (
            <Link to={paths.product(product.id)} className={buttonClasses('outline', 'md', 'relative z-10 w-full')}>
              Choose options
              <span className="sr-only">: {product.name}</span>
            </Link>
          ) : (
            <Button
              className="relative z-10 w-full"
              disabled={product.inventory <= 0}
              onClick={() => addToCart({ ...product, variantId: product.soleVariantId ?? undefined }, 1)}
            >
              <CartIcon size={18} />
              {outOfStock ? 'Out of stock' : 'Add to Cart'}
              <span className="sr-only">: {product.name}</span>
            </Button>
          )}
        </div>
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-xl border border-stone-200 bg-white">
      <div className="aspect-square w-full animate-pulse bg-stone-200 motion-reduce:animate-none" />
      <div className="space-y-3 p-4">
        <div className="h-4 w-3/4 animate-pulse rounded bg-stone-200 motion-reduce:animate-none" />
        <div className="h-5 w-1/3 animate-pulse rounded bg-stone-200 motion-reduce:animate-none" />
        <div className="h-10 w-full animate-pulse rounded bg-stone-200 motion-reduce:animate-none" />
      </div>
    </div>
  );
}

export const productGridClasses = 'grid grid-cols-2 gap-3 sm:gap-6 md:grid-cols-3 lg:grid-cols-4';
