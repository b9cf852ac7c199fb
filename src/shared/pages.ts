/**
 * Every storefront page, declared once: its path, component, first data, head, sitemap entry,
 * robots rule and cache policy. The client router (src/client/routes.tsx), the head on
 * client-side navigation, the server's page renderer (src/server/pages/page-meta.ts), robots.txt and
 * sitemap.xml all read this table. A new content page is one entry here plus its component.
 * The JSON-LD in a page's HTML is the server's alone, by page id: src/server/pages/structured-data.ts.
 *
 * The order matters twice: robots.txt lists the disallowed paths, and sitemap.xml the pages, in
 * table order; the page whose path is "*" answers every other path.
 */
import { formatCents } from './money.js';
import { productsFilterFromSearchParams } from './products-filter.js';
import {
  definePage,
  pageData,
  pageTitle,
  privateHead,
  SITE_NAME,
  siteDescription,
  truncate,
  type PageDeclaration,
} from './page-declaration.js';

/** /auth's tabs by their ?tab= value (any other value shows Sign In). */
const AUTH_TAB_TITLES: Readonly<Record<string, string>> = { signin: 'Sign In', signup: 'Sign Up', reset: 'Reset Password' };

/** A page of text with a canonical link. */
function contentHead(path: string, title: string, description: string) {
  return { title: pageTitle(title), description, canonicalPath: path };
}

export const PAGES: readonly PageDeclaration[] = [
  definePage({
    id: 'home',
    path: '/',
    component: 'catalog/home-page.tsx',
    data: () => ({ featuredProducts: pageData.featuredProducts(), categories: pageData.categories() }),
    head: ({ settings }) => ({
      title: `${SITE_NAME} | Eco-Friendly Cleaning Products`,
      description: siteDescription(settings),
      canonicalPath: '/',
    }),
    sitemap: { priority: '1.0', changefreq: 'daily' },
    cache: 'shared',
  }),
  definePage({
    id: 'shop',
    path: '/products',
    component: 'catalog/shop-page.tsx',
    queryParams: ['category', 'maxPrice', 'minPrice', 'page', 'search', 'sort'],
    data: ({ query }) => ({
      categories: pageData.categories(),
      products: pageData.products(productsFilterFromSearchParams(query)),
    }),
    head: ({ query, data }) => {
      const filter = productsFilterFromSearchParams(query);
      const category = data.categories?.items.find((c) => c.id === filter.category);
      // An unknown category, or a page past the last, is not a page of the shop (the list says so: decision 0033).
      const unknownCategory = filter.category !== undefined && data.categories !== undefined && category === undefined;
      const products = data.products;
      const pastLastPage = products !== undefined && products.items.length === 0 && products.total > 0;
      if (unknownCategory || pastLastPage) {
        return {
          status: 404,
          noindex: true,
          title: pageTitle(unknownCategory ? 'Category Not Found' : 'Page Not Found'),
          description: unknownCategory ? 'This category could not be found.' : 'This page of the list could not be found.',
        };
      }
      return {
        // Search results are not pages of their own for crawlers.
        noindex: Boolean(filter.search),
        title: category ? `${category.name} | Shop | ${SITE_NAME}` : `Shop All Products | ${SITE_NAME}`,
        description: category?.description
          ? truncate(category.description)
          : 'Shop reusable cleaning cloths, sweep-and-mop tools, refills, laundry powder and concentrated cleaner from EcoClean.',
        canonicalPath: category ? `/products?category=${encodeURIComponent(category.id)}` : '/products',
      };
    },
    sitemap: { priority: '0.9', changefreq: 'daily' },
    cache: 'shared',
  }),
  definePage({
    id: 'product',
    path: '/products/:id',
    component: 'catalog/product-page.tsx',
    // A link to one version is drawn with that version chosen: its price, picture and offer (decision 0043).
    queryParams: ['variant'],
    // The breadcrumb names the category: with the list embedded it is in the server's HTML and
    // the browser asks for nothing at start-up. "You may also like" too: four cards (under 1 KB
    // compressed) in HTML that is cached for every anonymous visitor (decision 0017).
    data: ({ params }) => ({
      product: pageData.product(params.id ?? ''),
      categories: pageData.categories(),
      relatedProducts: pageData.relatedProducts(params.id ?? ''),
    }),
    main: 'product',
    head: ({ data, query }) => {
      const product = data.product?.product;
      const variantId = query.get('variant');
      if (!product) {
        return { status: 404, noindex: true, title: pageTitle('Product Not Found'), description: 'This product could not be found.' };
      }
      const linked = data.product?.variants.find((v) => v.id === variantId);
      return {
        ogType: 'product',
        // The linked version's picture (the server draws that version: decision 0043), else the product's.
        ogImage: linked?.image ?? product.images[0],
        title: pageTitle(product.name),
        // Variants at different prices: the lowest, as "From $X" (decision 0036).
        description: truncate(`${product.description} ${product.maxPriceCents ? 'From ' : ''}${formatCents(product.priceCents)}.`),
        canonicalPath: `/products/${encodeURIComponent(product.id)}`,
      };
    },
    // One entry per product, from the catalogue (src/server/pages/routes.ts).
    sitemap: { priority: '0.8', changefreq: 'weekly' },
    cache: 'shared',
  }),
  definePage({
    id: 'about',
    path: '/about',
    component: 'content/about-page.tsx',
    head: ({ settings }) =>
      contentHead('/about', settings.about_title || 'About Us', truncate(settings.about_mission_content || siteDescription(settings))),
    sitemap: { priority: '0.8', changefreq: 'monthly' },
    cache: 'shared',
  }),
  definePage({
    id: 'contact',
    path: '/contact',
    component: 'content/contact-page.tsx',
    needsZod: true,
    head: () =>
      contentHead(
        '/contact',
        'Contact Us',
        'Get in touch with EcoClean by e-mail or phone. We are happy to help with orders and products.',
      ),
    sitemap: { priority: '0.7', changefreq: 'monthly' },
    cache: 'shared',
  }),
  definePage({
    id: 'faq',
    path: '/faq',
    component: 'content/faq-page.tsx',
    data: () => ({ faqs: pageData.faqs() }),
    head: () => ({
      title: pageTitle('Frequently Asked Questions'),
      description: 'Answers about orders, shipping, our products, returns and your EcoClean account.',
      canonicalPath: '/faq',
    }),
    sitemap: { priority: '0.6', changefreq: 'monthly' },
    cache: 'shared',
  }),
  definePage({
    id: 'privacy',
    path: '/privacy',
    component: 'content/privacy-page.tsx',
    head: () =>
      contentHead(
        '/privacy',
        'Privacy Policy',
        'How EcoClean collects, uses and protects your information. We never sell or rent your data.',
      ),
    cache: 'shared',
  }),
  definePage({
    id: 'terms',
    path: '/terms',
    component: 'content/terms-page.tsx',
    head: () => contentHead('/terms', 'Terms of Service', 'The terms that apply when you use the EcoClean shop and buy our products.'),
    cache: 'shared',
  }),
  definePage({
    id: 'admin',
    path: '/admin/*',
    component: 'admin/admin-page.tsx',
    needsZod: true,
    head: privateHead('Admin Dashboard'),
    robots: { disallow: '/admin/' },
    cache: 'private',
  }),
  definePage({
    id: 'checkout',
    path: '/checkout',
    component: 'checkout/checkout-page.tsx',
    head: privateHead('Checkout'),
    robots: { disallow: '/checkout' },
    cache: 'private',
  }),
  definePage({
    id: 'cart',
    path: '/cart',
    component: 'cart/cart-page.tsx',
    head: privateHead('Shopping Cart'),
    robots: { disallow: '/cart' },
    cache: 'private',
  }),
  definePage({
    id: 'auth',
    path: '/auth',
    component: 'accounts/auth-page.tsx',
    needsZod: true,
    // Each tab its own title, named as the tab (spec: Sign In, Sign Up, Reset; the last says what it resets).
    queryParams: ['tab'],
    head: ({ query }) => ({ title: pageTitle(AUTH_TAB_TITLES[query.get('tab') ?? ''] ?? 'Sign In'), noindex: true }),
    robots: { disallow: '/auth' },
    cache: 'private',
  }),
  definePage({
    id: 'reset-password',
    path: '/reset-password',
    component: 'accounts/reset-password-page.tsx',
    needsZod: true,
    head: privateHead('Set a New Password'),
    robots: { disallow: '/reset-password' },
    cache: 'private',
  }),
  definePage({
    id: 'verify-email',
    path: '/verify-email',
    component: 'accounts/verify-email-page.tsx',
    head: privateHead('Verify Your Email'),
    cache: 'private',
  }),
  definePage({
    id: 'password-reset',
    path: '/password-reset',
    component: 'accounts/password-reset-page.tsx',
    needsZod: true,
    head: privateHead('Reset Password'),
    cache: 'private',
  }),
  definePage({
    id: 'dashboard',
    path: '/dashboard',
    component: 'accounts/dashboard-page.tsx',
    needsZod: true,
    // The browser knows who is signed in; the server's HTML says "My Dashboard".
    head: ({ viewerRole }) => ({ title: pageTitle(viewerRole === 'admin' ? 'Admin Dashboard' : 'My Dashboard'), noindex: true }),
    cache: 'private',
  }),
  definePage({
    id: 'orders',
    path: '/orders',
    component: 'accounts/my-orders-page.tsx',
    head: privateHead('My Orders'),
    cache: 'private',
  }),
  definePage({
    // The signed-in customer's reviews (issue [6/8]): each with its status, and Edit.
    id: 'my-reviews',
    path: '/my-reviews',
    component: 'reviews/my-reviews-page.tsx',
    head: privateHead('My Reviews'),
    cache: 'private',
  }),
  definePage({
    // A review request e-mail's link to review one product of an order, without signing in (it
    // signs nobody in); the token in its path is a key: never indexed, cached or listed.
    id: 'review-link',
    path: '/review/:token',
    component: 'reviews/review-link-page.tsx',
    head: privateHead('Write a Review'),
    cache: 'private',
  }),
  definePage({
    // The review request e-mail's "Stop review requests" link; its token names the address.
    id: 'reviews-opt-out',
    path: '/reviews/opt-out',
    component: 'reviews/reviews-opt-out-page.tsx',
    head: privateHead('Stop Review Requests'),
    cache: 'private',
  }),
  definePage({
    // The "Unsubscribe" link of offers and reminders (issue [7/8]); its token names a consent.
    id: 'unsubscribe',
    path: '/unsubscribe',
    component: 'marketing/unsubscribe-page.tsx',
    needsZod: true,
    head: privateHead('Unsubscribe'),
    cache: 'private',
  }),
  definePage({
    // A checkout recovery e-mail's "Back to my cart" (issue [7/8]); its token names one abandoned checkout.
    id: 'cart-restore',
    path: '/cart/restore',
    component: 'marketing/restore-cart-page.tsx',
    needsZod: true,
    head: privateHead('Your Saved Cart'),
    cache: 'private',
  }),
  definePage({
    // A reorder reminder's "Reorder" (issue [7/8] item 4); its token names one e-mail's products.
    id: 'reorder',
    path: '/reorder',
    component: 'marketing/reorder-page.tsx',
    needsZod: true,
    head: privateHead('Reorder'),
    cache: 'private',
  }),
  definePage({
    // The page of an e-mail's link to manage (and cancel) a subscription without signing in; the
    // token in its path is a key: never indexed, cached or listed.
    id: 'subscription-manage',
    path: '/subscriptions/manage/:token',
    component: 'accounts/subscription-manage-page.tsx',
    needsZod: true,
    head: privateHead('Manage Subscription'),
    cache: 'private',
  }),
  definePage({
    id: 'order-confirmation',
    path: '/order-confirmation',
    component: 'orders/order-confirmation-page.tsx',
    needsZod: true,
    head: privateHead('Order Confirmation'),
    cache: 'private',
  }),
  definePage({
    id: 'thank-you',
    path: '/thank-you',
    component: 'orders/thank-you-page.tsx',
    needsZod: true,
    head: privateHead('Thank You'),
    cache: 'private',
  }),
  definePage({
    id: 'success',
    path: '/success',
    component: 'orders/success-page.tsx',
    needsZod: true,
    // The page says whether the payment succeeded; its title does not claim it before knowing.
    head: privateHead('Payment Status'),
    cache: 'private',
  }),
  definePage({
    id: 'not-found',
    path: '*',
    component: 'content/not-found-page.tsx',
    head: () => ({
      status: 404,
      noindex: true,
      title: pageTitle('Page Not Found'),
      description: 'The page you are looking for does not exist.',
    }),
    cache: 'shared',
  }),
];

/** The declared page with this id (throws for an unknown id: a typo in the code, not a visitor's). */
export function pageById(id: string): PageDeclaration {
  const page = PAGES.find((p) => p.id === id);
  if (!page) throw new Error(`No page "${id}" in src/shared/pages.ts`);
  return page;
}

/** The path of a page without parameters, e.g. pagePath('faq') → "/faq". */
export function pagePath(id: string): string {
  return pageById(id).path;
}
