import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ProductListQuery, type Product } from '../../shared/schemas/catalog.js';
import { queryKeys, type InitialQuery } from '../../shared/query-keys.js';
import { formatCents } from '../../shared/money.js';
import { getProduct, listCategories, listFeaturedProducts, listProducts } from '../catalog/service.js';
import { getPublicSettings, listFaqs } from '../content/service.js';
import { SITE_DESCRIPTION, SITE_NAME } from './site.js';

export type PageMeta = {
  status: number;
  title: string;
  description: string;
  /** Path (and query) of the canonical URL; absent on pages that are not indexed. */
  canonicalPath?: string;
  noindex: boolean;
  ogType: 'website' | 'product';
  ogImage?: string;
  jsonLd: object[];
  initialData: InitialQuery[];
};

type Crumb = { name: string; path: string };

/** Pages that are private or transactional: never indexed, no data pre-filled beyond settings. */
const NOINDEX_PREFIXES = [
  '/cart',
  '/checkout',
  '/auth',
  '/password-reset',
  '/reset-password',
  '/dashboard',
  '/orders',
  '/admin',
  '/order-confirmation',
  '/thank-you',
  '/success',
  '/pay',
];

const NOINDEX_TITLES: Record<string, string> = {
  '/cart': 'Shopping Cart',
  '/checkout': 'Checkout',
  '/auth': 'Sign In',
  '/password-reset': 'Reset Password',
  '/reset-password': 'Set a New Password',
  '/dashboard': 'My Dashboard',
  '/orders': 'My Orders',
  '/admin': 'Admin Dashboard',
  '/order-confirmation': 'Order Confirmation',
  '/thank-you': 'Thank You',
  '/success': 'Payment Successful',
  '/pay': 'Payment',
};

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

function productLd(publicUrl: string, p: Product): object {
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
  };
}

function truncate(text: string, max = 158): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

/**
 * What the server writes into a storefront page before any script runs: status, title,
 * description, canonical link, JSON-LD, and the query data the page needs for its first paint.
 */
export async function buildPageMeta(
  db: Kysely<Database>,
  publicUrl: string,
  pathname: string,
  query: Record<string, string | undefined>,
): Promise<PageMeta> {
  const settings = await getPublicSettings(db);
  const initialData: InitialQuery[] = [{ key: queryKeys.settings(), data: { settings } }];
  const base = {
    status: 200,
    noindex: false,
    ogType: 'website' as const,
    jsonLd: [] as object[],
    initialData,
  };
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const hostile = (v: string) => v.includes('\u0000') || v.includes('%00');
  if (hostile(path) || Object.values(query).some((v) => v !== undefined && hostile(v))) {
    return { ...base, status: 404, noindex: true, title: `Page Not Found | ${SITE_NAME}`, description: 'The page you are looking for does not exist.' };
  }

  if (path === '/') {
    const [featured, categories] = await Promise.all([listFeaturedProducts(db), listCategories(db)]);
    initialData.push({ key: queryKeys.featuredProducts(), data: { items: featured } });
    initialData.push({ key: queryKeys.categories(), data: { items: categories } });
    return {
      ...base,
      title: `${SITE_NAME} | Eco-Friendly Cleaning Products`,
      description: SITE_DESCRIPTION,
      canonicalPath: '/',
      jsonLd: [
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
        {
          '@context': 'https://schema.org',
          '@type': 'WebSite',
          name: SITE_NAME,
          url: publicUrl,
        },
      ],
    };
  }

  if (path === '/products') {
    const parsed = ProductListQuery.safeParse({
      ...(query.search ? { search: query.search } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(query.page ? { page: query.page } : {}),
    });
    const filter = parsed.success ? parsed.data : ProductListQuery.parse({});
    const [page, categories] = await Promise.all([listProducts(db, filter), listCategories(db)]);
    initialData.push({ key: queryKeys.categories(), data: { items: categories } });
    initialData.push({ key: queryKeys.products(filter), data: page });
    const category = categories.find((c) => c.id === filter.category);
    const crumbs: Crumb[] = [
      { name: 'Home', path: '/' },
      { name: 'Shop', path: '/products' },
      ...(category ? [{ name: category.name, path: `/products?category=${category.id}` }] : []),
    ];
    return {
      ...base,
      // Search results are not pages of their own for crawlers.
      noindex: Boolean(filter.search),
      title: category ? `${category.name} | Shop | ${SITE_NAME}` : `Shop All Products | ${SITE_NAME}`,
      description: category?.description
        ? truncate(category.description)
        : 'Shop reusable cleaning cloths, sweep-and-mop tools, refills, laundry powder and concentrated cleaner from EcoClean.',
      canonicalPath: category ? `/products?category=${encodeURIComponent(category.id)}` : '/products',
      jsonLd: [breadcrumbLd(publicUrl, crumbs)],
    };
  }

  const productMatch = /^\/products\/([^/]+)$/.exec(path);
  if (productMatch) {
    let id: string;
    try {
      id = decodeURIComponent(productMatch[1]!);
    } catch {
      id = '';
    }
    const product = id.length > 0 && id.length <= 100 ? await getProduct(db, id) : null;
    if (!product) {
      return {
        ...base,
        status: 404,
        noindex: true,
        title: `Product Not Found | ${SITE_NAME}`,
        description: 'This product could not be found.',
      };
    }
    // The page's breadcrumb names the category: with the list embedded it is in the server's HTML
    // and the browser asks for nothing at start-up.
    const categories = await listCategories(db);
    const category = product.category ? (categories.find((c) => c.id === product.category) ?? null) : null;
    initialData.push({ key: queryKeys.product(product.id), data: { product } });
    initialData.push({ key: queryKeys.categories(), data: { items: categories } });
    const crumbs: Crumb[] = [
      { name: 'Home', path: '/' },
      { name: 'Shop', path: '/products' },
      ...(category ? [{ name: category.name, path: `/products?category=${category.id}` }] : []),
      { name: product.name, path: `/products/${encodeURIComponent(product.id)}` },
    ];
    return {
      ...base,
      ogType: 'product',
      ogImage: product.images[0],
      title: `${product.name} | ${SITE_NAME}`,
      description: truncate(`${product.description} ${formatCents(product.priceCents)}.`),
      canonicalPath: `/products/${encodeURIComponent(product.id)}`,
      jsonLd: [productLd(publicUrl, product), breadcrumbLd(publicUrl, crumbs)],
    };
  }

  if (path === '/faq') {
    const faqs = await listFaqs(db);
    initialData.push({ key: queryKeys.faqs(), data: { items: faqs } });
    return {
      ...base,
      title: `Frequently Asked Questions | ${SITE_NAME}`,
      description: 'Answers about orders, shipping, our products, returns and your EcoClean account.',
      canonicalPath: '/faq',
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'FAQPage',
          mainEntity: faqs.map((f) => ({
            '@type': 'Question',
            name: f.question,
            acceptedAnswer: { '@type': 'Answer', text: f.answer },
          })),
        },
        breadcrumbLd(publicUrl, [
          { name: 'Home', path: '/' },
          { name: 'FAQ', path: '/faq' },
        ]),
      ],
    };
  }

  const simple: Record<string, { title: string; description: string; crumb: string }> = {
    '/about': {
      title: settings.about_title || 'About Us',
      description: truncate(settings.about_mission_content || SITE_DESCRIPTION),
      crumb: 'About',
    },
    '/contact': {
      title: 'Contact Us',
      description: 'Get in touch with EcoClean by e-mail or phone. We are happy to help with orders and products.',
      crumb: 'Contact',
    },
    '/privacy': {
      title: 'Privacy Policy',
      description: 'How EcoClean collects, uses and protects your information. We never sell or rent your data.',
      crumb: 'Privacy Policy',
    },
    '/terms': {
      title: 'Terms of Service',
      description: 'The terms that apply when you use the EcoClean shop and buy our products.',
      crumb: 'Terms of Service',
    },
  };
  const page = simple[path];
  if (page) {
    return {
      ...base,
      title: `${page.title} | ${SITE_NAME}`,
      description: page.description,
      canonicalPath: path,
      jsonLd: [
        breadcrumbLd(publicUrl, [
          { name: 'Home', path: '/' },
          { name: page.crumb, path },
        ]),
      ],
    };
  }

  const prefix = NOINDEX_PREFIXES.find((p) => path === p || path.startsWith(`${p}/`));
  if (prefix) {
    return {
      ...base,
      noindex: true,
      title: `${NOINDEX_TITLES[prefix]} | ${SITE_NAME}`,
      description: SITE_DESCRIPTION,
    };
  }

  return {
    ...base,
    status: 404,
    noindex: true,
    title: `Page Not Found | ${SITE_NAME}`,
    description: 'The page you are looking for does not exist.',
  };
}
