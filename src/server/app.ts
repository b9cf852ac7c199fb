import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import zlib from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import type { Dialect } from './db/database.js';
import { HttpError } from './http/errors.js';
import { clearAllCaches } from './http/micro-cache.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerCatalogRoutes } from './catalog/routes.js';
import { registerContentRoutes } from './content/routes.js';
import { registerSeoRoutes } from './seo/routes.js';
import { registerSpa } from './seo/spa.js';
import { registerAdminGuard, registerSessionLoader } from './http/auth.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { registerEmailRoutes } from './email/routes.js';
import { registerAccountDataRoutes } from './accounts/account-routes.js';
import { registerAdminRoutes } from './admin/routes.js';
import { registerCheckoutRoutes, registerStripeWebhook } from './checkout/routes.js';
import { registerContentAdminRoutes } from './content/admin-routes.js';
import { registerShippingLabelRoutes } from './shipping-labels/routes.js';
import { smtpTransport, type MailTransport } from './email/delivery.js';

export type AppDeps = {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  /** SMTP delivery; absent when SMTP_URL is unset (e-mails then stay in the outbox). */
  mailer?: MailTransport | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: { method: string; url: string }[];
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function buildApp(input: AppDeps): Promise<FastifyInstance> {
  const deps: AppDeps = {
    ...input,
    mailer: input.mailer !== undefined ? input.mailer : input.config.smtpUrl ? smtpTransport(input.config.smtpUrl) : null,
  };
  const { config } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
  });

  // The route table, kept for the authorisation tests that walk every route.
  const routes: { method: string; url: string }[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });

  registerSecurityHeaders(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Fast settings for answers made per request; static assets are compressed at build time.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });

  // A mutating request whose Origin names another site is refused (CSRF defence in depth
  // beside SameSite=Lax cookies).
  app.addHook('onRequest', async (req, reply) => {
    if (!MUTATING.has(req.method) || req.url.startsWith('/api/webhooks/')) return;
    const origin = req.headers.origin;
    // Without an Origin header, the browser's own Fetch Metadata still tells a cross-site request.
    if (!origin) {
      if (req.headers['sec-fetch-site'] === 'cross-site') reply.code(403).send({ error: 'Cross-site requests are not allowed' });
      return;
    }
    const allowed = new Set([new URL(config.publicUrl).origin]);
    if (req.headers.host) allowed.add(`${req.protocol}://${req.headers.host}`);
    if (!allowed.has(origin)) {
      reply.code(403).send({ error: 'Cross-site requests are not allowed' });
    }
  });

  app.setErrorHandler((error, req, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ error: error.message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
      const message =
        (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        error instanceof SyntaxError
          ? 'The request body is not valid JSON'
          : (error as Error).message;
      return reply.code(status).send({ error: message });
    }
    req.log.error({ err: error, reqId: req.id }, 'unhandled error');
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });

  // Any successful back-office change (products, categories, shipping, coupons…) shows at once.
  // Cleared before the answer leaves, so the owner's next read can never see the old value.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'GET' && req.url.startsWith('/api/admin/') && reply.statusCode < 400) clearAllCaches();
    return payload;
  });

  registerSessionLoader(app, deps.db);
  registerAdminGuard(app);

  app.get('/api/health', async () => ({ ok: true }));

  registerAccountRoutes(app, deps);
  registerEmailRoutes(app, deps);
  registerAccountDataRoutes(app, deps);
  await registerAdminRoutes(app, deps);
  registerContentAdminRoutes(app, deps);
  registerShippingLabelRoutes(app, deps);
  registerCatalogRoutes(app, deps);
  registerCheckoutRoutes(app, deps);
  await registerStripeWebhook(app, deps);
  registerContentRoutes(app, deps);
  registerSeoRoutes(app, deps);
  await registerSpa(app, deps);

  app.addHook('onClose', async () => deps.mailer?.close());
  return app;
}
