export const SITE_NAME = 'EcoClean';
/** Metadata only: the specification's site description mentions free shipping over $100. */
export const SITE_DESCRIPTION =
  'Eco-friendly cleaning products: reusable cleaning cloths, sweep-and-mop tools, refills, laundry powder and concentrated cleaner. Free shipping on orders over $100.';
export const OG_IMAGE_PATH = '/og-image.png';

export const ROBOTS_DISALLOW = ['/admin/', '/checkout', '/cart', '/auth', '/reset-password'];

/** Sitemap priorities of the specification. */
export const SITEMAP_PAGES: { path: string; priority: string; changefreq: string }[] = [
  { path: '/', priority: '1.0', changefreq: 'daily' },
  { path: '/products', priority: '0.9', changefreq: 'daily' },
  { path: '/about', priority: '0.8', changefreq: 'monthly' },
  { path: '/contact', priority: '0.7', changefreq: 'monthly' },
  { path: '/faq', priority: '0.6', changefreq: 'monthly' },
];
export const PRODUCT_SITEMAP_PRIORITY = '0.8';
export const PRODUCT_SITEMAP_CHANGEFREQ = 'weekly';
