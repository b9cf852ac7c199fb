import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppDeps } from '../app.js';
import { access, declarePublicFiles } from '../http/access.js';
import { INITIAL_DATA_ELEMENT_ID } from '../../shared/query-keys.js';
import { buildPageMeta, type PageMeta } from './page-meta.js';
import { escapeHtml, jsonForScript } from './html.js';
import { OG_IMAGE_PATH, SITE_NAME } from './site.js';
import type { InitialQuery } from '../../shared/query-keys.js';
import { loadSession, SESSION_COOKIE } from '../accounts/sessions.js';
import { toSessionResponse } from '../accounts/routes.js';
import { CART_COOKIE } from '../../shared/cart-cookie.js';
import { pageCartData, readCartCookie } from '../cart/page-cart.js';
import { deviceHash } from '../lib/device.js';

type SsrModule = { render: (url: string, initialData: InitialQuery[]) => Promise<string> };

/** The server-rendering bundle built beside the client (dist/server/entry-server.js), if there is one. */
async function loadSsrModule(clientDir: string): Promise<SsrModule | null> {
  const entry = path.resolve(clientDir, '..', 'server', 'entry-server.js');
  if (!fs.existsSync(entry)) return null;
  const mod = (await import(pathToFileURL(entry).href)) as Partial<SsrModule>;
  return typeof mod.render === 'function' ? (mod as SsrModule) : null;
}

const FALLBACK_TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><!--app-head--></head><body><div id="root"><!--app-html--></div><!--app-data--></body></html>`;

function loadTemplate(clientDir: string): string {
  const built = path.resolve(clientDir, 'index.html');
  if (fs.existsSync(built)) return fs.readFileSync(built, 'utf8');
  return FALLBACK_TEMPLATE;
}

export function renderHead(meta: PageMeta, publicUrl: string): string {
  const tags: string[] = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    `<meta name="robots" content="${meta.noindex ? 'noindex, nofollow' : 'index, follow'}" />`,
  ];
  if (meta.canonicalPath) {
    tags.push(`<link rel="canonical" href="${escapeHtml(publicUrl + meta.canonicalPath)}" />`);
  }
  const ogImage = meta.ogImage && !meta.ogImage.endsWith('.svg') ? meta.ogImage : OG_IMAGE_PATH;
  const abs = (u: string) => (u.startsWith('http') ? u : publicUrl + u);
  tags.push(
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:type" content="${meta.ogType}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:image" content="${escapeHtml(abs(ogImage))}" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
  );
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

type NotFoundHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Pages that are noindex but that the server draws: the outline, or the cart when its cookie says what is in it. */
const SERVER_RENDERED_SHELLS = new Set(['/cart', '/checkout']);

export async function registerSpa(app: FastifyInstance, deps: AppDeps): Promise<NotFoundHandler> {
  const { config, db, dialect } = deps;
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

  const renderPage = async (req: FastifyRequest, reply: FastifyReply) => {
    // In development the client may be rebuilt while the server runs.
    if (config.env !== 'production' && Date.now() - templateLoadedAt > 2000) {
      template = loadTemplate(clientDir);
      templateLoadedAt = Date.now();
    }
    const url = new URL(req.url, 'http://localhost');
    const query = Object.fromEntries(url.searchParams.entries());
    const meta = await buildPageMeta(db, config.publicUrl, url.pathname, query);
    // A signed-in visitor's page carries their session, so the header is right from the first paint.
    const token = req.cookies[SESSION_COOKIE];
    const session = token ? await loadSession(db, token) : null;
    // Guests get an explicit "nobody", which saves every page a session request.
    meta.initialData.push({ key: ['session'], data: toSessionResponse(session) });
    // The cart and checkout are drawn with the browser's cart (mirrored in a cookie), priced here.
    const cartCookie = SERVER_RENDERED_SHELLS.has(url.pathname) ? readCartCookie(req.cookies[CART_COOKIE]) : null;
    if (cartCookie) {
      const ctx = { userId: session?.user.id ?? null, deviceHash: deviceHash(req), now: new Date() };
      meta.initialData.push(...(await pageCartData(db, dialect, cartCookie, ctx)));
    }
    let body = '';
    // Private pages stay client-rendered, except the cart and checkout (the shopper's own cart only).
    if (ssr && (!meta.noindex || SERVER_RENDERED_SHELLS.has(url.pathname))) {
      try {
        body = await ssr.render(url.pathname + url.search, meta.initialData);
      } catch (err) {
        // The browser renders the page itself when the server cannot.
        req.log.error({ err, url: req.url }, 'server rendering failed');
      }
    }
    const html = template
      .replace('<!--app-head-->', renderHead(meta, config.publicUrl))
      .replace('<!--app-html-->', body)
      .replace(
        '<!--app-data-->',
        `<script id="${INITIAL_DATA_ELEMENT_ID}" type="application/json">${jsonForScript(meta.initialData)}</script>`,
      );
    reply
      .code(meta.status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', session || cartCookie ? 'private, no-cache' : 'no-cache')
      .header('Vary', 'Cookie');
    if (meta.noindex) reply.header('X-Robots-Tag', 'noindex');
    return html;
  };

  app.get('/', access.public, renderPage);

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
