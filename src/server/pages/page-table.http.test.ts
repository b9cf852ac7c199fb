import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { seedProducts } from '../db/seed/catalog-data.js';
import { PAGES } from '../../shared/pages.js';
import { matchPage, SITE_DESCRIPTION } from '../../shared/page-declaration.js';
import { escapeHtml } from '../lib/html.js';
import { structuredData } from './structured-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const PUBLIC_URL = 'http://shop.test';
const api = async (url: string): Promise<unknown> => (await t.app.inject({ method: 'GET', url })).json();

/** The head the page table gives for this URL, fed with the API's answers, as the browser's PageHead is. */
async function tableHead(url: string) {
  const u = new URL(url, PUBLIC_URL);
  const { page, params } = matchPage(PAGES, u.pathname)!;
  const refs = page.data?.({ params, query: u.searchParams }) ?? {};
  const data: Record<string, unknown> = {};
  for (const [name, ref] of Object.entries(refs)) {
    const endpoint =
      ref.kind === 'categories'
        ? '/api/categories'
        : ref.kind === 'featuredProducts'
          ? '/api/products/featured'
          : ref.kind === 'faqs'
            ? '/api/faqs'
            : ref.kind === 'product'
              ? `/api/products/${encodeURIComponent(ref.arg)}`
              : ref.kind === 'products'
                ? `/api/products?${new URLSearchParams({ ...(ref.arg.search ? { search: ref.arg.search } : {}), ...(ref.arg.category ? { category: ref.arg.category } : {}), page: String(ref.arg.page), pageSize: String(ref.arg.pageSize) })}`
                : '/api/settings';
    const res = await t.app.inject({ method: 'GET', url: endpoint });
    if (res.statusCode === 200) data[name] = res.json();
  }
  const { settings } = (await api('/api/settings')) as { settings: Record<string, string> };
  const input = { params, query: u.searchParams, data: data as never, settings, publicUrl: PUBLIC_URL };
  const head = page.head(input);
  // The JSON-LD is the server's own (structured-data.ts), from the same input as the head.
  return { page, head, jsonLd: structuredData(page, input, head) };
}

describe('pages as the page table declares them', () => {
  const product = seedProducts.find((p) => p.id === 'sweep-and-mop') ?? seedProducts[0]!;
  // One URL for every page whose HTML is shared by anonymous visitors, and some variants.
  const urls = [
    '/',
    '/products',
    `/products?category=${product.categoryId}`,
    '/products?search=cloth',
    `/products/${product.id}`,
    '/products/nope',
    '/about',
    '/contact',
    '/faq',
    '/privacy',
    '/terms',
    '/no/such/page',
  ];

  it('covers every shared page', () => {
    const covered = new Set(urls.map((u) => matchPage(PAGES, new URL(u, PUBLIC_URL).pathname)!.page.id));
    expect([...covered].sort()).toEqual(
      PAGES.filter((p) => p.cache === 'shared')
        .map((p) => p.id)
        .sort(),
    );
  });

  it.each(urls)('%s: status, title, description, canonical, robots and JSON-LD are the table’s', async (url) => {
    const { head, jsonLd } = await tableHead(url);
    const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(head.status ?? 200);
    expect(res.body).toContain(`<title>${escapeHtml(head.title)}</title>`);
    expect(res.body).toContain(`<meta name="description" content="${escapeHtml(head.description ?? SITE_DESCRIPTION)}" />`);
    expect(res.body).toContain(`<meta name="robots" content="${head.noindex ? 'noindex, nofollow' : 'index, follow'}" />`);
    if (head.canonicalPath) expect(res.body).toContain(`<link rel="canonical" href="${escapeHtml(PUBLIC_URL + head.canonicalPath)}" />`);
    else expect(res.body).not.toContain('rel="canonical"');
    const lds = [...res.body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!) as unknown);
    expect(lds).toEqual(JSON.parse(JSON.stringify(jsonLd)));
  });

  it('keeps the texts of the specification and of the pages before the table', async () => {
    const titles: Record<string, string> = {};
    for (const url of urls) titles[url] = (await tableHead(url)).head.title;
    expect(titles).toMatchObject({
      '/': 'EcoClean | Eco-Friendly Cleaning Products',
      '/products': 'Shop All Products | EcoClean',
      [`/products/${product.id}`]: `${product.name} | EcoClean`,
      '/products/nope': 'Product Not Found | EcoClean',
      '/contact': 'Contact Us | EcoClean',
      '/faq': 'Frequently Asked Questions | EcoClean',
      '/privacy': 'Privacy Policy | EcoClean',
      '/terms': 'Terms of Service | EcoClean',
      '/no/such/page': 'Page Not Found | EcoClean',
    });
  });

  it('private pages are noindex with their own titles', async () => {
    const expected: Record<string, string> = {
      '/auth': 'Sign In',
      '/password-reset': 'Reset Password',
      '/reset-password': 'Set a New Password',
      '/dashboard': 'My Dashboard',
      '/orders': 'My Orders',
      '/admin': 'Admin Dashboard',
      '/admin/products': 'Admin Dashboard',
      '/order-confirmation': 'Order Confirmation',
      '/thank-you': 'Thank You',
      '/success': 'Payment Status',
      '/cart': 'Shopping Cart',
    };
    for (const [url, title] of Object.entries(expected)) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(`<title>${title} | EcoClean</title>`);
      expect(res.body, url).toContain('<meta name="robots" content="noindex, nofollow" />');
      expect(res.body, url).not.toContain('rel="canonical"');
    }
  });

  it('robots.txt is written from the table', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        ...PAGES.flatMap((p) => (p.robots ? [`Disallow: ${p.robots.disallow}`] : [])),
        'Crawl-delay: 1',
        '',
        `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
        '',
      ].join('\n'),
    );
    expect(res.body).toContain('Disallow: /admin/\nDisallow: /checkout\nDisallow: /cart\nDisallow: /auth\nDisallow: /reset-password\n');
  });

  it('sitemap.xml lists the table’s pages in order, then every product with the product page’s entry', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    const entries = [
      ...res.body.matchAll(
        /<loc>([^<]+)<\/loc>(?:<lastmod>[^<]+<\/lastmod>)?<changefreq>([a-z]+)<\/changefreq><priority>([0-9.]+)<\/priority>/g,
      ),
    ].map((m) => [m[1], m[2], m[3]]);
    const pages = PAGES.filter((p) => p.sitemap && !p.path.includes(':'));
    expect(entries.slice(0, pages.length)).toEqual(pages.map((p) => [PUBLIC_URL + p.path, p.sitemap!.changefreq, p.sitemap!.priority]));
    const productEntry = PAGES.find((p) => p.id === 'product')!.sitemap!;
    expect(entries.slice(pages.length)).toHaveLength(seedProducts.length);
    for (const e of entries.slice(pages.length)) expect(e.slice(1)).toEqual([productEntry.changefreq, productEntry.priority]);
  });
});
