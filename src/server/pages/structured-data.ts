/**
 * The JSON-LD (schema.org structured data) the server writes into a storefront page's head, by
 * page of the page table (src/shared/pages.ts), from the same input as the page's head.
 *
 * Server only: search engines read it in the server's HTML, and the browser never writes it (its
 * head on client-side navigation is the title, description, canonical link and robots rule), so
 * none of this belongs in the first-load bundle.
 */
import { productsFilterFromSearchParams } from '../../shared/products-filter.js';
import type { Product, VariantView } from '../../shared/schemas/catalog.js';
import { lineTitle, sizeAndColor } from '../../shared/variants.js';
import { REVIEW_LIMITS } from '../../shared/reviews.js';
import {
  SITE_NAME,
  type DataRef,
  type HeadInput,
  type PageDataKind,
  type PageDataTypes,
  type PageDeclaration,
  type PageHead,
  type ProductDetail,
} from '../../shared/page-declaration.js';

type Crumb = { name: string; path: string };

/** A page's resolved data: the pages name each piece of their data after its kind (src/shared/pages.ts). */
type PageData = { [K in PageDataKind]?: PageDataTypes[K] | undefined };

type LdInput = Omit<HeadInput<Record<string, DataRef>>, 'data'> & { data: PageData; path: string };

const HOME: Crumb = { name: 'Home', path: '/' };
const SHOP: Crumb = { name: 'Shop', path: '/products' };

function breadcrumbLd(publicUrl: string, crumbs: Crumb[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: publicUrl + c.path,
    })),
  };
}

const absolute = (publicUrl: string, path: string) => (path.startsWith('http') ? path : publicUrl + path);
const productUrl = (publicUrl: string, id: string) => `${publicUrl}/products/${encodeURIComponent(id)}`;
const availability = (units: number) => (units > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock');

/** The schema.org properties options named Size and Colour / Color stand for; other options have none. */
const VARIES_BY: Readonly<Record<string, string>> = {
  size: 'https://schema.org/size',
  colour: 'https://schema.org/color',
  color: 'https://schema.org/color',
};

/**
 * The product's reviews as the page shows them (issue [6/8]): `aggregateRating` with the average
 * the page shows (one decimal) and the count, and the first reviews of the page's list (newest
 * first, the same page the server drew), each with its author's shown name, date, title, text and
 * stars. Nothing at all without a published review: Google refuses a rating of no reviews.
 */
function reviewsLd({ rating, reviews }: ProductDetail): Record<string, unknown> {
  if (rating.count === 0) return {};
  const stars = (value: number) => ({ '@type': 'Rating', ratingValue: value, bestRating: 5, worstRating: 1 });
  const shown = reviews.items.slice(0, REVIEW_LIMITS.jsonLdReviews);
  return {
    aggregateRating: { '@type': 'AggregateRating', ratingValue: rating.average, reviewCount: rating.count, bestRating: 5, worstRating: 1 },
    ...(shown.length
      ? {
          review: shown.map((r) => ({
            '@type': 'Review',
            author: { '@type': 'Person', name: r.displayName },
            datePublished: r.publishedAt,
            name: r.title,
            reviewBody: r.body,
            reviewRating: stars(r.rating),
          })),
        }
      : {}),
  };
}

/**
 * A product sold in several variants (decision 0036): a ProductGroup, each enabled variant a Product
 * of its own with its price, availability and link (the product page with the variant chosen).
 */
function productGroupLd(publicUrl: string, detail: ProductDetail): Record<string, unknown> {
  const { product: p, options, variants } = detail;
  const names = options.map((o) => o.name);
  const variesBy = [...new Set(names.map((n) => VARIES_BY[n.trim().toLowerCase()]).filter((v) => v !== undefined))];
  const url = productUrl(publicUrl, p.id);
  return {
    '@context': 'https://schema.org',
    '@type': 'ProductGroup',
    name: p.name,
    description: p.description,
    url,
    productGroupID: p.id,
    ...(p.brand ? { brand: { '@type': 'Brand', name: p.brand } } : {}),
    image: p.images.map((i) => absolute(publicUrl, i)),
    ...(variesBy.length ? { variesBy } : {}),
    // The reviews are of the product, whichever version was bought: the group's (on a version's own page too, in isVariantOf).
    ...reviewsLd(detail),
    hasVariant: variants.map((v) => variantLd(publicUrl, p, names, v)),
  };
}

/** One version as a Product of its own, with its offer (the product page with it chosen). */
function variantLd(publicUrl: string, p: Product, names: readonly string[], v: VariantView): Record<string, unknown> {
  const image = v.image ?? p.images[0];
  const { size, color } = sizeAndColor(names, v.options, { size: '', color: '' });
  return {
    '@type': 'Product',
    name: lineTitle(p.name, v.label),
    sku: v.sku ?? v.id,
    ...(image ? { image: absolute(publicUrl, image) } : {}),
    ...(size ? { size } : {}),
    ...(color ? { color } : {}),
    offers: {
      '@type': 'Offer',
      url: `${productUrl(publicUrl, p.id)}?variant=${encodeURIComponent(v.id)}`,
      priceCurrency: 'USD',
      price: (v.priceCents / 100).toFixed(2),
      availability: availability(v.available),
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}

/**
 * A link to one version (`?variant=`, decision 0043): that version is the page's Product, with its
 * own offer, a variant of the group (which still lists every version), as Google describes a page
 * per variant.
 */
function linkedVariantLd(publicUrl: string, detail: ProductDetail, v: VariantView): object {
  const { '@context': context, ...group } = productGroupLd(publicUrl, detail);
  return {
    '@context': context,
    ...variantLd(
      publicUrl,
      detail.product,
      detail.options.map((o) => o.name),
      v,
    ),
    inProductGroupWithID: detail.product.id,
    isVariantOf: group,
  };
}

function productLd(publicUrl: string, detail: ProductDetail): object {
  const p = detail.product;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    description: p.description,
    sku: p.sku ?? p.id,
    ...(p.brand ? { brand: { '@type': 'Brand', name: p.brand } } : {}),
    image: p.images.map((i) => (i.startsWith('http') ? i : publicUrl + i)),
    offers: {
      '@type': 'Offer',
      url: `${publicUrl}/products/${encodeURIComponent(p.id)}`,
      priceCurrency: 'USD',
      price: (p.priceCents / 100).toFixed(2),
      availability: p.inventory > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
    ...reviewsLd(detail),
  };
}

/** The shop's crumb for a category of the list, when the id names one. */
function categoryCrumbs(data: PageData, id: string | null | undefined): Crumb[] {
  const category = id ? data.categories?.items.find((c) => c.id === id) : undefined;
  return category ? [{ name: category.name, path: `/products?category=${category.id}` }] : [];
}

/** A page of text: a two-step breadcrumb. */
function contentLd(crumb: string): (input: LdInput) => object[] {
  return ({ publicUrl, path }) => [breadcrumbLd(publicUrl, [HOME, { name: crumb, path }])];
}

/** By page id; a page not listed has none. */
const PAGE_LD: Readonly<Record<string, (input: LdInput) => object[]>> = {
  home: ({ settings, publicUrl }) => [
    {
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: SITE_NAME,
      url: publicUrl,
      logo: `${publicUrl}/favicon.svg`,
      ...(settings.contact_email ? { email: settings.contact_email } : {}),
      ...(settings.contact_phone ? { telephone: settings.contact_phone } : {}),
      sameAs: [settings.social_media_facebook, settings.social_media_youtube].filter(Boolean),
    },
    { '@context': 'https://schema.org', '@type': 'WebSite', name: SITE_NAME, url: publicUrl },
  ],
  shop: ({ query, data, publicUrl }) => [
    breadcrumbLd(publicUrl, [HOME, SHOP, ...categoryCrumbs(data, productsFilterFromSearchParams(query).category)]),
  ],
  product: ({ data, publicUrl, query }) => {
    const detail = data.product;
    const product = detail?.product;
    if (!product) return [];
    const linked = detail.variants.length > 1 ? detail.variants.find((v) => v.id === query.get('variant')) : undefined;
    return [
      // One variant on sale (or none): the Product it always was.
      linked
        ? linkedVariantLd(publicUrl, detail, linked)
        : detail.variants.length > 1
          ? productGroupLd(publicUrl, detail)
          : productLd(publicUrl, detail),
      breadcrumbLd(publicUrl, [
        HOME,
        SHOP,
        ...categoryCrumbs(data, product.category),
        { name: product.name, path: `/products/${encodeURIComponent(product.id)}` },
      ]),
    ];
  },
  about: contentLd('About'),
  contact: contentLd('Contact'),
  faq: ({ data, publicUrl }) => [
    {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: (data.faqs?.items ?? []).map((f) => ({
        '@type': 'Question',
        name: f.question,
        acceptedAnswer: { '@type': 'Answer', text: f.answer },
      })),
    },
    breadcrumbLd(publicUrl, [HOME, { name: 'FAQ', path: '/faq' }]),
  ],
  privacy: contentLd('Privacy Policy'),
  terms: contentLd('Terms of Service'),
};

/**
 * The JSON-LD of a page, given the input its head was written from and that head: none when the
 * head answers 404 (an unknown product or category, a page past the list's last, any other path).
 */
export function structuredData(page: PageDeclaration, input: HeadInput<Record<string, DataRef>>, head: PageHead): object[] {
  if (head.status === 404) return [];
  return PAGE_LD[page.id]?.({ ...input, data: input.data as PageData, path: page.path }) ?? [];
}
