import { PAGES } from '../../shared/pages.js';

export { SITE_DESCRIPTION, SITE_NAME } from '../../shared/page-declaration.js';
export const OG_IMAGE_PATH = '/og-image.png';

/** robots.txt's disallowed paths, from the page table (src/shared/pages.ts). */
export const ROBOTS_DISALLOW: string[] = PAGES.flatMap((p) => (p.robots ? [p.robots.disallow] : []));

/** Sitemap entries of the pages without parameters (the specification's priorities), from the page table. */
export const SITEMAP_PAGES: { path: string; priority: string; changefreq: string }[] = PAGES.flatMap((p) =>
  p.sitemap && !p.path.includes(':') && !p.path.includes('*') ? [{ path: p.path, ...p.sitemap }] : [],
);

// A product page's entry, repeated for every product in the catalogue.
const productSitemap = PAGES.find((p) => p.id === 'product')?.sitemap;
if (!productSitemap) throw new Error('The product page declares no sitemap entry');
export const PRODUCT_SITEMAP_PRIORITY = productSitemap.priority;
export const PRODUCT_SITEMAP_CHANGEFREQ = productSitemap.changefreq;
