import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InitialQuery } from '../../shared/query-keys.js';
import { PAGES, pageById } from '../../shared/pages.js';
import { matchPage, pageData, siteDescription, type DataRef, type HeadInput, type PageDeclaration } from '../../shared/page-declaration.js';
import { resolvePageData } from './page-data.js';
import { structuredData } from './structured-data.js';
import { getPublicSettings } from '../content/service.js';
import type { CheckoutProvider } from '../../shared/payment-provider.js';
import { IMAGE_SIZES, imageVariantPath, imageVariants } from '../../shared/image-variants.js';
import type { ProductDetail } from '../../shared/page-declaration.js';
import type { VariantView } from '../../shared/schemas/catalog.js';

export type PageMeta = {
  /** The page table's id of the page shown (src/shared/pages.ts). */
  pageId: string;
  /** 'shared': the same HTML for every anonymous visitor; 'private': per visitor. */
  cache: 'shared' | 'private';
  status: number;
  title: string;
  description: string;
  /** Path (and query) of the canonical URL; absent on pages that are not indexed. */
  canonicalPath?: string;
  noindex: boolean;
  ogType: 'website' | 'product';
  /** The link preview's picture (a raster copy: previewImageOf), with its size when known. */
  ogImage?: PreviewImage;
  /** The first screen's largest picture, fetched before the page's styles and scripts ask for it. */
  preloadImage?: PreloadImage;
  jsonLd: object[];
  initialData: InitialQuery[];
};

const NOT_FOUND = pageById('not-found');

export type PreviewImage = { path: string; width?: number; height?: number };
export type PreloadImage = { href: string; srcset?: string; sizes?: string };

/** The seeded pictures' preview copies (scripts/generate-previews.mjs) are this size. */
const SEEDED_PREVIEW_PX = 800;
/** The width of an uploaded photo's copy a link preview gets: sharp on a large screen, far under the previewers' size limits. */
const UPLOAD_PREVIEW_WIDTH = 1280;

/**
 * The picture a link preview can draw for `src` (decision 0043): previewers draw no SVG, so a
 * picture shipped with the shop (`/images/…/x.svg`) is named by its PNG copy beside it, 800×800;
 * an uploaded photo by its 1280-pixel copy (the original may be a phone's 12-megapixel file);
 * another raster address as it is. Null: none (an uploaded SVG or GIF): the shop's own picture.
 */
export function previewImageOf(src: string | null | undefined): PreviewImage | null {
  if (!src) return null;
  if (/^\/images\/[^?#]+\.svg$/i.test(src)) {
    return { path: src.replace(/\.svg$/i, '.png'), width: SEEDED_PREVIEW_PX, height: SEEDED_PREVIEW_PX };
  }
  if (imageVariants(src)) return { path: imageVariantPath(src, UPLOAD_PREVIEW_WIDTH) };
  if (/\.(png|jpe?g|webp)$/i.test(src.split(/[?#]/)[0]!)) return { path: src };
  return null;
}

/** The <link rel="preload"> of a picture drawn at `sizes`: an uploaded photo's WebP copies (what its <picture> picks), else the file. */
function preloadOf(src: string | null | undefined, sizes: string): PreloadImage | undefined {
  if (!src || /^https?:/i.test(src)) return undefined;
  const variants = imageVariants(src);
  return variants ? { href: src, srcset: variants.webp, sizes } : { href: src };
}

/** The version a product page draws first: the linked one, else the first that can be bought, else the first (as the page does). */
export function shownVariant(detail: ProductDetail, linked: string | null): VariantView | undefined {
  return detail.variants.find((v) => v.id === linked) ?? detail.variants.find((v) => v.available > 0) ?? detail.variants[0];
}

/**
 * The first screen's largest picture by page: the product's (the shown version's, when it is in
 * the gallery) and the home page's hero; other pages lead with text.
 */
function firstScreenImage(page: PageDeclaration, input: HeadInput<Record<string, DataRef>>): PreloadImage | undefined {
  if (page.id === 'home') return preloadOf(input.settings.homepage_hero_image, IMAGE_SIZES.gallery);
  if (page.id !== 'product') return undefined;
  const detail = (input.data as { product?: ProductDetail }).product;
  if (!detail) return undefined;
  const images = detail.product.images;
  const chosen = shownVariant(detail, input.query.get('variant'))?.image;
  return preloadOf(chosen && images.includes(chosen) ? chosen : images[0], IMAGE_SIZES.gallery);
}

const previewOf = (src: string | undefined) => {
  const image = previewImageOf(src);
  return image ? { ogImage: image } : null;
};
const preloadFor = (page: PageDeclaration, input: HeadInput<Record<string, DataRef>>) => {
  const image = firstScreenImage(page, input);
  return image ? { preloadImage: image } : {};
};

/** The page's head (src/shared/pages.ts) and the server's JSON-LD (structured-data.ts), from one input. */
function toMeta(page: PageDeclaration, input: HeadInput<Record<string, DataRef>>, initialData: InitialQuery[]): PageMeta {
  const head = page.head(input);
  return {
    pageId: page.id,
    cache: page.cache,
    status: head.status ?? 200,
    title: head.title,
    description: head.description ?? siteDescription(input.settings),
    ...(head.canonicalPath !== undefined ? { canonicalPath: head.canonicalPath } : {}),
    noindex: head.noindex ?? false,
    ogType: head.ogType ?? 'website',
    ...(previewOf(head.ogImage) ?? {}),
    ...(head.status === 404 ? {} : preloadFor(page, input)),
    jsonLd: structuredData(page, input, head),
    initialData,
  };
}

/**
 * What the server writes into a storefront page before any script runs: status, title,
 * description, canonical link, JSON-LD, and the query data the page needs for its first paint,
 * all as the page's declaration (src/shared/pages.ts) says; the JSON-LD is the server's own
 * (structured-data.ts), written from the same input as the head.
 */
export async function buildPageMeta(
  db: Kysely<Database>,
  publicUrl: string,
  pathname: string,
  query: Record<string, string | undefined>,
  paymentProvider: CheckoutProvider,
): Promise<PageMeta> {
  // Every page's first data: the footer (in every page's HTML) names the payment provider.
  const settings = await getPublicSettings(db, paymentProvider);
  const initialData: InitialQuery[] = [{ key: pageData.settings().key, data: { settings } }];
  const pageQuery = { get: (name: string) => query[name] ?? null };
  const hostile = (v: string) => v.includes('\u0000') || v.includes('%00');
  const base = { query: pageQuery, settings, publicUrl };
  if (hostile(pathname) || Object.values(query).some((v) => v !== undefined && hostile(v))) {
    return toMeta(NOT_FOUND, { ...base, params: {}, data: {} }, initialData);
  }
  const { page, params } = matchPage(PAGES, pathname) ?? { page: NOT_FOUND, params: {} };
  const refs = page.data?.({ params, query: pageQuery }) ?? {};
  const resolved = await resolvePageData(db, refs, page.main);
  initialData.push(...resolved.initialData);
  const input: HeadInput<typeof refs> = { ...base, params, data: resolved.data as HeadInput<typeof refs>['data'] };
  return toMeta(page, input, initialData);
}
