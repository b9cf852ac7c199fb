import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES, pageById, pagePath } from './pages.js';
import { matchPage, sharedPageLocation, type PageQuery } from './page-declaration.js';

const clientDir = path.resolve(import.meta.dirname, '../client');

describe('the page table', () => {
  it('gives every page a unique id and a unique path', () => {
    expect(new Set(PAGES.map((p) => p.id)).size).toBe(PAGES.length);
    expect(new Set(PAGES.map((p) => p.path)).size).toBe(PAGES.length);
  });

  it.each(PAGES.map((p) => [p.id, p.component] as const))(
    '%s: its component %s exists and is the file’s default export',
    (_id, component) => {
      // routes.tsx finds components with import.meta.glob('./**/*-page.tsx').
      expect(component).toMatch(/^[a-z0-9-]+(\/[a-z0-9-]+)*-page\.tsx$/);
      const file = path.join(clientDir, component);
      expect(fs.existsSync(file), file).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toMatch(/^export default function \w+/m);
    },
  );

  it('ships home and shop in the main bundle (routes.tsx names them); the product page loads on demand', () => {
    const routes = fs.readFileSync(path.join(clientDir, 'routes.tsx'), 'utf8');
    for (const id of ['home', 'shop']) expect(routes).toContain(`'./${pageById(id).component}'`);
    expect(routes).not.toContain(`'./${pageById('product').component}'`);
  });

  it('ends with the page for every other path', () => {
    expect(PAGES.filter((p) => p.path === '*').map((p) => p.id)).toEqual(['not-found']);
    expect(PAGES.at(-1)!.path).toBe('*');
  });

  it('caches the HTML of the pages that are the same for every anonymous visitor only', () => {
    expect(
      PAGES.filter((p) => p.cache === 'shared')
        .map((p) => p.id)
        .sort(),
    ).toEqual(['about', 'contact', 'faq', 'home', 'not-found', 'privacy', 'product', 'shop', 'terms'].sort());
  });

  it('holds the specification’s robots rules and sitemap priorities', () => {
    expect(PAGES.flatMap((p) => (p.robots ? [p.robots.disallow] : []))).toEqual([
      '/admin/',
      '/checkout',
      '/cart',
      '/auth',
      '/reset-password',
    ]);
    expect(PAGES.flatMap((p) => (p.sitemap ? [[p.path, p.sitemap.priority, p.sitemap.changefreq]] : []))).toEqual([
      ['/', '1.0', 'daily'],
      ['/products', '0.9', 'daily'],
      ['/products/:id', '0.8', 'weekly'],
      ['/about', '0.8', 'monthly'],
      ['/contact', '0.7', 'monthly'],
      ['/faq', '0.6', 'monthly'],
    ]);
  });

  it('declares the main data of a page among its data', () => {
    for (const p of PAGES.filter((p) => p.main)) {
      const refs = p.data?.({ params: { id: 'x' }, query: new URLSearchParams() }) ?? {};
      expect(Object.keys(refs), p.id).toContain(p.main);
    }
  });

  it('each page reads only the query parameters it declares', () => {
    for (const p of PAGES) {
      const read = new Set<string>();
      const query: PageQuery = { get: (name) => (read.add(name), null) };
      const refs = p.data?.({ params: { id: 'x' }, query }) ?? {};
      p.head({ params: { id: 'x' }, query, data: {} as never, settings: {}, publicUrl: '' });
      expect([...read].sort(), p.id).toEqual([...(p.queryParams ?? [])].sort());
      // A page that declares first data names at least one piece of it (an empty declaration reads nothing).
      expect(Object.keys(refs).length > 0, p.id).toBe(Boolean(p.data));
    }
  });

  it('gives paths for links', () => {
    expect(pagePath('faq')).toBe('/faq');
    expect(() => pagePath('nope')).toThrow();
  });
});

describe('matchPage', () => {
  const match = (p: string) => {
    const m = matchPage(PAGES, p);
    return m && [m.page.id, m.params];
  };

  it('finds pages as the server reads paths', () => {
    expect(match('/')).toEqual(['home', {}]);
    expect(match('/products')).toEqual(['shop', {}]);
    expect(match('/products/')).toEqual(['shop', {}]);
    expect(match('/products/sweep-and-mop')).toEqual(['product', { id: 'sweep-and-mop' }]);
    expect(match('/products/a%20b')).toEqual(['product', { id: 'a b' }]);
    expect(match('/products/%E0%A4%A')).toEqual(['product', { id: '' }]);
    expect(match('/products/a/b')).toEqual(['not-found', {}]);
    expect(match('/faq/')).toEqual(['faq', {}]);
    expect(match('/FAQ')).toEqual(['not-found', {}]);
    expect(match('/admin')).toEqual(['admin', { '*': '' }]);
    expect(match('/admin/products/x')).toEqual(['admin', { '*': 'products/x' }]);
    expect(match('/cart/x')).toEqual(['not-found', {}]);
    expect(match('/nope')).toEqual(['not-found', {}]);
  });
});

describe('sharedPageLocation', () => {
  const at = (u: string) => sharedPageLocation(PAGES, new URL(u, 'http://shop.test'));

  it('keys a shared page by its path and the query parameters it reads, and private pages not at all', () => {
    expect(at('/')).toBe('/');
    expect(at('/?utm_source=mail')).toBe('/');
    expect(at('/products?utm=1&search=mop&category=mops')).toBe('/products?category=mops&search=mop');
    expect(at('/products/sweep-and-mop?x=1')).toBe('/products/sweep-and-mop');
    expect(at('/no/such/page')).toBe('/no/such/page');
    for (const u of [
      '/cart',
      '/checkout',
      '/auth?tab=signup',
      '/dashboard',
      '/orders',
      '/admin/products',
      '/order-confirmation?orderId=1',
      '/thank-you',
      '/success',
    ]) {
      expect(at(u), u).toBeNull();
    }
  });
});
