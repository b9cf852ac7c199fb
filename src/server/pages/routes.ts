import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { listProductSitemapEntries } from '../catalog/service.js';
import { escapeHtml } from '../lib/html.js';
import { PRODUCT_SITEMAP_CHANGEFREQ, PRODUCT_SITEMAP_PRIORITY, ROBOTS_DISALLOW, SITEMAP_PAGES } from './site.js';
import { access } from '../http/access.js';

export async function registerSeoRoutes(app: FastifyInstance, { db, config }: AppDeps): Promise<void> {
  app.get('/robots.txt', access.public, async (_req, reply) => {
    const lines = [
      'User-agent: *',
      'Allow: /',
      ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
      'Crawl-delay: 1',
      '',
      `Sitemap: ${config.publicUrl}/sitemap.xml`,
      '',
    ];
    reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=3600');
    return lines.join('\n');
  });

  app.get('/sitemap.xml', access.public, async (_req, reply) => {
    const products = await listProductSitemapEntries(db);
    const url = (loc: string, priority: string, changefreq: string, lastmod?: string) =>
      `  <url><loc>${escapeHtml(config.publicUrl + loc)}</loc>${
        lastmod ? `<lastmod>${lastmod.slice(0, 10)}</lastmod>` : ''
      }<changefreq>${changefreq}</changefreq><priority>${priority}</priority></url>`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...SITEMAP_PAGES.map((p) => url(p.path, p.priority, p.changefreq)),
      ...products.map((p) =>
        url(`/products/${encodeURIComponent(p.id)}`, PRODUCT_SITEMAP_PRIORITY, PRODUCT_SITEMAP_CHANGEFREQ, p.updatedAt),
      ),
      '</urlset>',
      '',
    ];
    reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=600');
    return body.join('\n');
  });
}
