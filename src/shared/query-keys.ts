import type { ProductListFilter } from './schemas/catalog.js';

/**
 * Query keys shared by the browser (TanStack Query) and the server, which
 * pre-fills the same keys in the HTML it sends so the first paint needs no API round trip.
 */
export const queryKeys = {
  settings: () => ['settings'] as const,
  categories: () => ['categories'] as const,
  featuredProducts: () => ['products', 'featured'] as const,
  products: (f: Pick<ProductListFilter, 'search' | 'category' | 'sort' | 'minPriceCents' | 'maxPriceCents' | 'page' | 'pageSize'>) =>
    [
      'products',
      'list',
      {
        search: f.search ?? '',
        category: f.category ?? '',
        sort: f.sort ?? 'shop',
        minPriceCents: f.minPriceCents ?? null,
        maxPriceCents: f.maxPriceCents ?? null,
        page: f.page,
        pageSize: f.pageSize,
      },
    ] as const,
  product: (id: string) => ['products', 'detail', id] as const,
  /** "You may also like" beside a product (under ['products'], so a catalogue write refreshes it). */
  relatedProducts: (id: string) => ['products', 'related', id] as const,
  faqs: () => ['faqs'] as const,
  /** The cart as the server read it from the `cart` cookie (cart and checkout pages only). */
  cart: () => ['cart'] as const,
  cartQuote: (lines: CartQuoteKeyLine[], couponCode: string | null, shippingOptionId: string | null) =>
    ['cart-quote', lines, couponCode, shippingOptionId] as const,
};

/**
 * A cart line in a quote's key: `variantId` only for a variant other than the product's first (as the cookie writes it);
 * `everyWeeks` only on a subscription line.
 */
export type CartQuoteKeyLine = {
  productId: string;
  variantId?: string;
  quantity: number;
  size: string;
  color: string;
  everyWeeks?: number;
};

export type InitialQuery = { key: readonly unknown[]; data: unknown };
export const INITIAL_DATA_ELEMENT_ID = '__INITIAL_DATA__';
/** A signed-in visitor's session, beside a page rendered for every visitor; applied once the page is live. */
export const VIEWER_SESSION_ELEMENT_ID = '__VIEWER_SESSION__';

/**
 * Image paths a server-drawn page refers to whose files the server does not have
 * (src/server/pages/image-files.ts): drawn as "Image not available" from the first paint, with or
 * without scripts, and the same when the browser hydrates.
 */
export const MISSING_IMAGES_KEY = ['missing-images'] as const;
