/**
 * The shape of a page declaration (src/shared/pages.ts) and the helpers its entries use. Read by
 * the client router (routes, lazy loading, the head on client-side navigation), the server's page
 * renderer (first data, head, status, cache policy), robots.txt and sitemap.xml.
 *
 * Loaded in the first-load bundle: no zod here, type imports only from the schemas.
 */
import type { Category, Faq, Product, ProductOption, VariantView } from './schemas/catalog.js';
import type { ProductCardItem, ProductCardPage } from './product-card.js';
import type { StockNotice } from './schemas/inventory.js';
import { queryKeys } from './query-keys.js';
import type { ProductsFilter } from './products-filter.js';
import type { RatingSummary, ReviewPage } from './reviews.js';

export const SITE_NAME = 'EcoClean';
/**
 * The site description states no rule (the specification's "free shipping over $100" was untrue):
 * pages use siteDescription(settings), which adds the free-shipping sentence read from the enabled
 * shipping options (shop-facts.ts).
 */
export { SITE_DESCRIPTION_BASE as SITE_DESCRIPTION, siteDescription } from './shop-facts.js';
/** Meta descriptions are cut at this length. */
const META_DESCRIPTION_MAX = 158;

/**
 * A product page's data (GET /api/products/:id): the product (`inventory`: what can be bought of
 * its enabled variants), its options, its enabled variants in the owner's order, and the product's
 * own stock notice (decision 0036). Since reviews (issue [6/8]): its stars (`rating`, every star's
 * count; count 0 when none) and the first page of its published reviews, newest first (`reviews`:
 * what GET /api/products/:id/reviews answers with no query), so the page's first paint and its
 * JSON-LD show the same reviews.
 */
export type ProductDetail = {
  product: Product;
  options: ProductOption[];
  variants: VariantView[];
  stock: StockNotice;
  rating: RatingSummary;
  reviews: ReviewPage;
  /**
   * The stamp of the product's stock (inventory/stock-watch.ts), read before the rest: the page's
   * stock watch starts from it, so the page reads the product again only if its stock moved since.
   */
  stockStamp: string;
};

/** The API answer each kind of page data is cached as (the same body on both sides; the lists' items trimmed to their cards). */
export type PageDataTypes = {
  settings: { settings: Record<string, string> };
  categories: { items: Category[] };
  // The lists as their cards read them (product-card.ts): a card shows no description.
  featuredProducts: { items: ProductCardItem[] };
  products: ProductCardPage;
  product: ProductDetail;
  // "You may also like" under a product: cards too (src/server/catalog/related.ts).
  relatedProducts: { items: ProductCardItem[] };
  faqs: { items: Faq[] };
};
/** What each kind needs to be read (the server's resolvers in src/server/pages/page-data.ts take it). */
export type PageDataArgs = {
  settings: null;
  categories: null;
  featuredProducts: null;
  products: ProductsFilter;
  product: string;
  relatedProducts: string;
  faqs: null;
};
export type PageDataKind = keyof PageDataTypes;

/** One piece of a page's first data: its query key (src/shared/query-keys.ts) and how to read it. */
export type DataRef<K extends PageDataKind = PageDataKind> = {
  [P in K]: { kind: P; key: readonly unknown[]; arg: PageDataArgs[P] };
}[K];

/** Query keys of the page data, named after the query-keys.ts function each one uses. */
export const pageData = {
  settings: (): DataRef<'settings'> => ({ kind: 'settings', key: queryKeys.settings(), arg: null }),
  categories: (): DataRef<'categories'> => ({ kind: 'categories', key: queryKeys.categories(), arg: null }),
  featuredProducts: (): DataRef<'featuredProducts'> => ({ kind: 'featuredProducts', key: queryKeys.featuredProducts(), arg: null }),
  products: (filter: ProductsFilter): DataRef<'products'> => ({ kind: 'products', key: queryKeys.products(filter), arg: filter }),
  product: (id: string): DataRef<'product'> => ({ kind: 'product', key: queryKeys.product(id), arg: id }),
  relatedProducts: (id: string): DataRef<'relatedProducts'> => ({ kind: 'relatedProducts', key: queryKeys.relatedProducts(id), arg: id }),
  faqs: (): DataRef<'faqs'> => ({ kind: 'faqs', key: queryKeys.faqs(), arg: null }),
};

/** The query string as both sides can read it (URLSearchParams on the client). */
export type PageQuery = { get(name: string): string | null };
export type PageParams = Readonly<Record<string, string | undefined>>;

type DataRefs = Record<string, DataRef>;
/** Resolved data by name: undefined when missing (the main data) or not loaded yet (the rest, in the browser). */
export type ResolvedData<D extends DataRefs> = { [N in keyof D]: PageDataTypes[D[N]['kind']] | undefined };

export type HeadInput<D extends DataRefs> = {
  params: PageParams;
  query: PageQuery;
  data: ResolvedData<D>;
  /** Public settings (always part of a page's first data). */
  settings: Record<string, string>;
  /**
   * Origin of absolute URLs, e.g. "https://shop.example" (no trailing slash). No head reads it: the
   * server's JSON-LD does (src/server/pages/structured-data.ts), from the same input.
   */
  publicUrl: string;
  /** Role of the signed-in visitor, when known (the browser knows it; the server's shared HTML does not). */
  viewerRole?: string | undefined;
};

export type PageHead = {
  /** 404 when the page's main data is missing. */
  status?: 404;
  /** Full title, e.g. "Shop All Products | EcoClean". */
  title: string;
  /** Defaults to the site description. */
  description?: string;
  /** Path (and query) of the canonical URL; absent on pages that are not indexed. */
  canonicalPath?: string;
  noindex?: boolean;
  ogType?: 'website' | 'product';
  ogImage?: string | undefined;
};

export type PageDeclaration<D extends DataRefs = DataRefs> = {
  id: string;
  /** Route path in React Router syntax ("/products/:id", "/admin/*", "*" for every other path). */
  path: string;
  /** The page component's file relative to src/client; its default export is the page. */
  component: string;
  /** The page's code uses zod: load zod first, in a task of its own (src/client/lib/load-zod.ts). */
  needsZod?: boolean;
  /** Data its first paint needs, written into the server's HTML under these query keys. */
  data?: (route: { params: PageParams; query: PageQuery }) => D;
  /**
   * The query parameters the page reads (its data and head). A shared page's HTML is the same for
   * every other parameter (a campaign tag, a cache-buster): see sharedPageLocation.
   */
  queryParams?: readonly string[];
  /** The data without which the page does not exist: the head then answers 404. Read first, alone. */
  main?: keyof D & string;
  head(input: HeadInput<D>): PageHead;
  /** Listed in sitemap.xml (a page with a parameter lists the catalogue's entries instead). */
  sitemap?: { priority: string; changefreq: string };
  /** robots.txt rule. */
  robots?: { disallow: string };
  /**
   * 'shared': the HTML is the same for every anonymous visitor (it may be cached and reused);
   * 'private': it depends on the visitor (cart, account, back office), rendered per request.
   */
  cache: 'shared' | 'private';
};

/** Declares one page, keeping its data's types for its head. */
export function definePage<D extends DataRefs = Record<never, DataRef>>(page: PageDeclaration<D>): PageDeclaration {
  return page as unknown as PageDeclaration;
}

export function pageTitle(name: string): string {
  return `${name} | ${SITE_NAME}`;
}

export function truncate(text: string, max = META_DESCRIPTION_MAX): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

/** A page no one should find through a search engine; its title is all it has. */
export function privateHead(name: string): () => PageHead {
  return () => ({ title: pageTitle(name), noindex: true });
}

/**
 * Finds the page a path shows, as the server reads it: exact, case-sensitive segments, a trailing
 * slash ignored, `:name` taking one segment (decoded; '' when its escapes are malformed) and a
 * final `*` the rest. The last page whose path is "*" takes every other path.
 */
export function matchPage(
  pages: readonly PageDeclaration[],
  pathname: string,
): { page: PageDeclaration; params: Record<string, string> } | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const segments = path.split('/').slice(1);
  let fallback: PageDeclaration | null = null;
  for (const page of pages) {
    if (page.path === '*') {
      fallback = page;
      continue;
    }
    const params = matchSegments(page.path.split('/').slice(1), path === '/' ? [] : segments);
    if (params) return { page, params };
  }
  return fallback ? { page: fallback, params: {} } : null;
}

/**
 * The location whose HTML every anonymous visitor of this URL gets alike (the path and the query
 * parameters the page declares, in declared order), or null when the page is private.
 */
export function sharedPageLocation(pages: readonly PageDeclaration[], url: URL): string | null {
  const match = matchPage(pages, url.pathname);
  if (!match || match.page.cache !== 'shared') return null;
  const kept = new URLSearchParams();
  for (const name of match.page.queryParams ?? []) {
    const value = url.searchParams.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

function matchSegments(pattern: string[], segments: string[]): Record<string, string> | null {
  const pat = pattern.length === 1 && pattern[0] === '' ? [] : pattern;
  const params: Record<string, string> = {};
  for (let i = 0; i < pat.length; i++) {
    const p = pat[i]!;
    if (p === '*' && i === pat.length - 1) {
      params['*'] = segments.slice(i).join('/');
      return params;
    }
    const s = segments[i];
    if (s === undefined) return null;
    if (p.startsWith(':')) {
      if (s === '') return null;
      params[p.slice(1)] = safeDecode(s);
    } else if (p !== s) {
      return null;
    }
  }
  return segments.length === pat.length ? params : null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
}
