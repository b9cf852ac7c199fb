import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppDeps } from '../app.js';
import { access, declarePublicFiles } from '../http/access.js';
import { INITIAL_DATA_ELEMENT_ID, MISSING_IMAGES_KEY, VIEWER_SESSION_ELEMENT_ID } from '../../shared/query-keys.js';
import { PAGES } from '../../shared/pages.js';
import { sharedPageLocation } from '../../shared/page-declaration.js';
import { compressPage, PageCache, pageWith, type CachedPage } from './page-cache.js';
import { productIdsShown } from './page-data.js';
import { ImageFiles } from './image-files.js';
import { checkShopChanges, onShopChange } from '../http/shop-changes.js';
import { buildPageMeta, type PageMeta } from './page-meta.js';
import { checkoutProviderOf } from '../payments/stripe.js';
import { escapeHtml, jsonForScript } from '../lib/html.js';
import { OG_IMAGE_PATH, SITE_NAME } from './site.js';
import type { InitialQuery } from '../../shared/query-keys.js';
import { loadSessionForRead, SESSION_COOKIE } from '../accounts/sessions.js';
import { toSessionResponse } from '../accounts/users.js';
import { CART_COOKIE } from '../../shared/cart-cookie.js';
import { emptyPageCartData, pageCartData, readCartCookie } from '../cart/page-cart.js';
import { deviceHash } from '../lib/device.js';

type SsrModule = { render: (url: string, initialData: InitialQuery[]) => Promise<string> };

/** The server-rendering bundle built beside the client (dist/server/entry-server.js), if there is one. */
async function loadSsrModule(clientDir: string): Promise<SsrModule | null> {
  const entry = path.resolve(clientDir, '..', 'server', 'entry-server.js');
  if (!fs.existsSync(entry)) return null;
  const mod = (await import(pathToFileURL(entry).href)) as Partial<SsrModule>;
  return typeof mod.render === 'function' ? (mod as SsrModule) : null;
}

const FALLBACK_TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><link rel="icon" type="image/svg+xml" href="/favicon.svg" /><!--app-head--></head><body><div id="root"><!--app-html--></div><!--app-data--></body></html>`;

function loadTemplate(clientDir: string): string {
  const built = path.resolve(clientDir, 'index.html');
  if (fs.existsSync(built)) return fs.readFileSync(built, 'utf8');
  return FALLBACK_TEMPLATE;
}

function renderHead(meta: PageMeta, publicUrl: string): string {
  const tags: string[] = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    `<meta name="robots" content="${meta.noindex ? 'noindex, nofollow' : 'index, follow'}" />`,
  ];
  if (meta.canonicalPath) {
    tags.push(`<link rel="canonical" href="${escapeHtml(publicUrl + meta.canonicalPath)}" />`);
  }
  // The page's picture (a raster copy: page-meta.ts previewImageOf), else the shop's own, 1200×630.
  const ogImage = meta.ogImage ?? { path: OG_IMAGE_PATH, width: 1200, height: 630 };
  const abs = (u: string) => (u.startsWith('http') ? u : publicUrl + u);
  tags.push(
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:type" content="${meta.ogType}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:image" content="${escapeHtml(abs(ogImage.path))}" />`,
    ...(ogImage.width && ogImage.height
      ? [`<meta property="og:image:width" content="${ogImage.width}" />`, `<meta property="og:image:height" content="${ogImage.height}" />`]
      : []),
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:image" content="${escapeHtml(abs(ogImage.path))}" />`,
  );
  // The first screen's picture is asked for with the HTML, not once styles and scripts have run (decision 0043).
  const pre = meta.preloadImage;
  if (pre) {
    const set = pre.srcset
      ? ` imagesrcset="${escapeHtml(pre.srcset)}" imagesizes="${escapeHtml(pre.sizes ?? '100vw')}" type="image/webp"`
      : '';
    tags.push(`<link rel="preload" as="image" href="${escapeHtml(pre.href)}"${set} fetchpriority="high" />`);
  }
  if (meta.canonicalPath) tags.push(`<meta property="og:url" content="${escapeHtml(publicUrl + meta.canonicalPath)}" />`);
  for (const ld of meta.jsonLd) {
    tags.push(`<script type="application/ld+json">${jsonForScript(ld)}</script>`);
  }
  return tags.join('\n    ');
}

/**
 * Serves the built client: hashed assets with a year's cache, public files for a day, and every
 * other GET that wants HTML as the app shell with the page's head and first data written in.
 */
/**
 * The request's path decoded as the router reads it (`/%61pi/x` is `/api/x`), or null when it is
 * not a path a page can have: not starting with a single slash, an empty or dot segment (`//x`
 * would be read as another host, `/a/../b` or `/./b` as another page), or a malformed escape.
 */
function pagePath(url: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(url.split('?')[0]!);
  } catch {
    return null;
  }
  if (!path.startsWith('/') || /\/\/|\/\.{1,2}(\/|$)/.test(path)) return null;
  return path;
}

/**
 * The URL as the router read it (`/f%61q` is `/faq`), re-encoded only where a URL must be: the
 * page, its cache key and its data follow the route that matched, not the URL's spelling.
 */
function routerUrl(rawUrl: string): URL {
  const url = new URL(rawUrl, 'http://localhost');
  const decoded = pagePath(rawUrl);
  if (decoded !== null) url.pathname = decoded;
  return url;
}

/**
 * Answers worked out once per request line and header, not per request: parsing the URL,
 * matching the page table and reading Accept-Encoding cost a kept page a fifth of its time on the
 * server (decision 0012). Bounded (short keys only, the lot forgotten when full): a visitor making
 * up URLs costs the work, never memory.
 */
function memo<T>(max: number, compute: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as T;
    const value = compute(key);
    if (key.length <= 256) {
      if (known.size >= max) known.clear();
      known.set(key, value);
    }
    return value;
  };
}

/** The kept page a request line shows (sharedPageLocation), or null for a page drawn per visitor. */
const sharedLocationOf = memo(1000, (rawUrl) => sharedPageLocation(PAGES, routerUrl(rawUrl)));
const encodings = memo(100, (key) => preferredEncoding(key.slice(1), key[0] === 'b'));
const encodingFor = (header: string | string[] | undefined, brotli: boolean) =>
  encodings(`${brotli ? 'b' : 'g'}${Array.isArray(header) ? header.join(',') : (header ?? '')}`);

type NotFoundHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Where a signed-in visitor's session is put into a page kept for everyone (never sent). */
const VIEWER_SLOT = '<!--viewer-->';

/** The declared pages as routes of their own (a catch-all like `*` or `/admin/*` is drawn through the not-found handler). */
const PAGE_ROUTES = PAGES.map((p) => p.path).filter((path) => !path.includes('*'));

/** The best encoding the browser accepts of the two each cached page is kept in. */
function preferredEncoding(header: string | string[] | undefined, brotli = true): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return brotli && ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

/** Pages that are noindex but that the server draws: the outline, or the cart when its cookie says what is in it. */
const SERVER_RENDERED_SHELLS = new Set(['/cart', '/checkout']);

export async function registerSpa(app: FastifyInstance, deps: AppDeps): Promise<NotFoundHandler> {
  const { config, db, dialect, files } = deps;
  const clientDir = path.resolve(config.clientDir);
  let template = loadTemplate(clientDir);
  let templateLoadedAt = Date.now();
  const ssr = await loadSsrModule(clientDir);

  if (fs.existsSync(clientDir)) {
    await app.register(async (files) => {
      declarePublicFiles(files);
      await files.register(fastifyStatic, {
        root: clientDir,
        prefix: '/',
        index: false,
        wildcard: true,
        serve: true,
        preCompressed: true,
        setHeaders(res, filePath) {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('Cache-Control', 'public, max-age=31536000, immutable');
          } else if (filePath.endsWith('.html')) {
            res.header('Cache-Control', 'no-cache');
          } else {
            res.header('Cache-Control', 'public, max-age=86400');
          }
        },
      });
    });
  }

  const pageCache = new PageCache(config.pageCacheMb * 1024 * 1024);
  // A change of some products' stock or stars drops the pages showing those products; anything else, every page.
  const forget = onShopChange((change) => (change.kind === 'catalogue' ? pageCache.clear() : pageCache.forgetProducts(change.productIds)));
  app.addHook('onClose', async () => forget());

  // The image files the server has: a missing one is drawn as "Image not available" in the HTML.
  // The built images are judged only when there is a built client (not in the HTTP tests).
  const imageFiles = new ImageFiles(
    [
      ...(fs.existsSync(clientDir) ? [{ prefix: '/images/', dir: path.join(clientDir, 'images') }] : []),
      { prefix: '/uploads/', store: files },
    ],
    ['/uploads/'],
  );
  const forgetImages = onShopChange((change) => change.kind === 'catalogue' && imageFiles.forget());
  app.addHook('onClose', async () => forgetImages());
  /** Names the page's images whose files are missing, for its first paint (ui/product-image.tsx). */
  const noteMissingImages = async (meta: PageMeta) => {
    const missing = await imageFiles.missingIn(meta.initialData);
    if (missing.length) meta.initialData.push({ key: MISSING_IMAGES_KEY, data: missing });
  };

  // Replaced by functions: a replacement string would read `$&` or `$'` in a product's text as patterns.
  const fill = (head: string, body: string, data: string) =>
    template
      .replace('<!--app-head-->', () => head)
      .replace('<!--app-html-->', () => body)
      .replace('<!--app-data-->', () => data);
  const dataScript = (json: string) => `<script id="${INITIAL_DATA_ELEMENT_ID}" type="application/json">${json}</script>`;

  /** The page's HTML body, or '' when the server cannot draw it (the browser then does). */
  const renderBody = async (req: FastifyRequest, location: string, meta: PageMeta): Promise<string> => {
    // Private pages stay client-rendered, except the cart and checkout (the shopper's own cart only).
    if (!ssr || (meta.noindex && !SERVER_RENDERED_SHELLS.has(new URL(location, 'http://localhost').pathname))) return '';
    try {
      return await ssr.render(location, meta.initialData);
    } catch (err) {
      req.log.error({ err, url: req.url }, 'server rendering failed');
      return '';
    }
  };

  /** A page every visitor who is not signed in gets alike: rendered once, kept until the shop changes. */
  const renderShared = async (req: FastifyRequest, location: string): Promise<CachedPage> => {
    // The shop's state as the watcher will compare it, read before the page's data (shop-changes.ts).
    await checkShopChanges(db);
    const url = new URL(location, 'http://localhost');
    const meta = await buildPageMeta(
      db,
      config.publicUrl,
      url.pathname,
      Object.fromEntries(url.searchParams.entries()),
      checkoutProviderOf(config),
    );
    meta.initialData.push({ key: ['session'], data: toSessionResponse(null) });
    await noteMissingImages(meta);
    const body = await renderBody(req, location, meta);
    // Split where a signed-in visitor's session goes: right after the page's data.
    const [prefix = '', suffix = ''] = fill(
      renderHead(meta, config.publicUrl),
      body,
      `${dataScript(jsonForScript(meta.initialData))}${VIEWER_SLOT}`,
    ).split(VIEWER_SLOT);
    return compressPage({ status: meta.status, noindex: meta.noindex, productIds: productIdsShown(meta.initialData) }, prefix, suffix);
  };

  const renderPage = async (req: FastifyRequest, reply: FastifyReply) => {
    // In development the client may be rebuilt while the server runs.
    if (config.env !== 'production' && Date.now() - templateLoadedAt > 2000) {
      const fresh = loadTemplate(clientDir);
      if (fresh !== template) {
        pageCache.clear();
        imageFiles.forget(true);
      }
      template = fresh;
      templateLoadedAt = Date.now();
    }
    const token = req.cookies[SESSION_COOKIE];
    const shared = sharedLocationOf(req.url);
    if (shared !== null) {
      const page = await pageCache.get(shared, () => renderShared(req, shared));
      // A signed-in visitor's page carries their session, so the header is right once the page is live.
      const session = token ? await loadSessionForRead(db, token) : null;
      reply.code(page.status).type('text/html; charset=utf-8');
      if (page.noindex) reply.header('X-Robots-Tag', 'noindex');
      if (session) {
        const viewer = `<script id="${VIEWER_SESSION_ELEMENT_ID}" type="application/json">${jsonForScript(toSessionResponse(session))}</script>`;
        const gzipped = encodingFor(req.headers['accept-encoding'], false) === 'gzip';
        reply.header('Cache-Control', 'private, no-cache').header('Vary', 'Accept-Encoding, Cookie');
        if (gzipped) reply.header('Content-Encoding', 'gzip');
        return reply.send(pageWith(page, viewer, gzipped));
      }
      reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding, Cookie').header('ETag', page.etag);
      if (page.status === 200 && req.headers['if-none-match'] === page.etag) return reply.code(304).send();
      const encoding = encodingFor(req.headers['accept-encoding'], true);
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.html);
    }

    const url = routerUrl(req.url);
    const query = Object.fromEntries(url.searchParams.entries());
    const session = token ? await loadSessionForRead(db, token) : null;
    // The cart and checkout are drawn with the browser's cart (mirrored in a cookie), priced here.
    const cartCookie = SERVER_RENDERED_SHELLS.has(url.pathname) ? readCartCookie(req.cookies[CART_COOKIE]) : null;
    // No cookie: the browser's cart is empty (the cookie mirrors it and goes with its last line).
    // One the shop did not write says nothing either way: the page is drawn as an outline.
    const knownEmpty =
      SERVER_RENDERED_SHELLS.has(url.pathname) && (req.cookies[CART_COOKIE] === undefined || cartCookie?.lines.length === 0);
    // An empty checkout has nothing to draw: the cart says so.
    if (url.pathname === '/checkout' && knownEmpty) return reply.header('Cache-Control', 'no-store').redirect('/cart', 302);
    const meta = await buildPageMeta(db, config.publicUrl, url.pathname, query, checkoutProviderOf(config));
    // Guests get an explicit "nobody", which saves every page a session request.
    meta.initialData.push({ key: ['session'], data: toSessionResponse(session) });
    if (cartCookie) {
      const ctx = { userId: session?.user.id ?? null, deviceHash: deviceHash(req), now: new Date() };
      meta.initialData.push(...(await pageCartData(db, dialect, cartCookie, ctx)));
    } else if (knownEmpty) {
      // Drawn empty at once, not as an outline that the empty cart then replaces.
      meta.initialData.push(...emptyPageCartData());
    }
    await noteMissingImages(meta);
    const body = await renderBody(req, url.pathname + url.search, meta);
    const html = fill(renderHead(meta, config.publicUrl), body, dataScript(jsonForScript(meta.initialData)));
    reply
      .code(meta.status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', session || cartCookie ? 'private, no-cache' : 'no-cache')
      .header('Vary', 'Cookie');
    if (meta.noindex) reply.header('X-Robots-Tag', 'noindex');
    return html;
  };

  // The storefront's pages as routes of their own: the static files' catch-all would otherwise look
  // for a file of that name on disk first, on every request. Any other path reaches renderPage
  // through the not-found handler below.
  for (const path of PAGE_ROUTES) app.get(path, access.public, renderPage);

  // Set at the root by app.ts, outside every surface: an unknown path is no route and has no policy.
  return async (req, reply) => {
    // Decided on the decoded path, as the router reads it, never on the raw URL's spelling.
    const path = pagePath(req.url);
    const isApi = path === null || path === '/api' || path.startsWith('/api/');
    const isFile = path !== null && /\.[a-z0-9]{2,5}$/i.test(path);
    if ((req.method === 'GET' || req.method === 'HEAD') && !isApi && !isFile) return renderPage(req, reply);
    reply.code(404);
    return { error: isApi ? 'Not found' : 'File not found' };
  };
}
