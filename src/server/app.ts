import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import zlib from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import { pingDatabase, type Dialect } from './db/database.js';
import { HttpError } from './http/errors.js';
import { answerBodyTooLarge, isBodyTooLarge } from './http/body-too-large.js';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, unavailablePage } from './http/database-errors.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { frameworkErrorAnswer } from './http/bad-url.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { loggerOptions, type LogStream } from './http/log-redaction.js';
import { registerCanonicalHost } from './http/canonical-host.js';
import { access, checkRoutePolicies, registerSurface } from './http/access.js';
import { watchShopChanges } from './http/shop-changes.js';
import { registerSessionDecorator } from './http/auth.js';
import { registerCatalogRoutes, registerRelatedProductRoutes } from './catalog/routes.js';
import { registerReviewListRoutes } from './reviews/list-routes.js';
import { registerContentRoutes } from './content/routes.js';
import { registerSeoRoutes } from './pages/routes.js';
import { registerSpa } from './pages/spa-routes.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { registerSignInLinkRoutes } from './accounts/sign-in-link-routes.js';
import { registerSelfServiceRoutes } from './accounts/self-service-routes.js';
import { registerEmailRoutes } from './email/admin-routes.js';
import { registerAccountDataRoutes } from './accounts/account-routes.js';
import { registerAdminCatalogRoutes } from './catalog/admin-routes.js';
import { registerUploadedFiles } from './files/routes.js';
import { createFileStore } from './files/create-file-store.js';
import { isFileStoreError, type FileStore } from './files/file-store.js';
import { ADMIN_MESSAGES } from '../shared/schemas/admin/messages.js';
import { registerAdminInventoryRoutes } from './inventory/admin-routes.js';
import { registerAdminHoldRoutes } from './inventory/holds-admin-routes.js';
import { registerInventoryRoutes } from './inventory/routes.js';
import { bindShopAddress } from './inventory/shop-links.js';
import { setOrderEmailShopUrl } from './email/order-email-variables.js';
import { registerAdminOrderRoutes } from './orders/admin-routes.js';
import { registerBulkOrderRoutes } from './orders/bulk-routes.js';
import { registerAdminCouponRoutes } from './coupons/admin-routes.js';
import { registerAdminShippingRoutes } from './shipping/admin-routes.js';
import { registerAdminUserRoutes } from './accounts/admin-routes.js';
import { registerAdminAuditRoutes } from './audit/admin-routes.js';
import { registerCartRoutes } from './cart/routes.js';
import { registerSavedCartRoutes } from './cart/saved-cart-routes.js';
import { registerCheckoutRoutes } from './checkout/routes.js';
import { registerAdminCheckoutRoutes } from './checkout/admin-routes.js';
import { registerAdminSubscriptionRoutes } from './subscriptions/admin-routes.js';
import { registerAdminSubscriptionListRoutes } from './subscriptions/admin-list-routes.js';
import { registerAdminSubscriptionActionRoutes } from './subscriptions/admin-action-routes.js';
import { registerAccountSubscriptionRoutes, registerSubscriptionLinkRoutes } from './subscriptions/routes.js';
import { registerAccountReviewRoutes, registerReviewLinkRoutes } from './reviews/routes.js';
import { registerEmailPreferenceRoutes } from './marketing/routes.js';
import { checkoutPaymentOutcomes } from './checkout/payment-outcomes.js';
import { registerAccountOrderRoutes, registerOrderRoutes } from './orders/routes.js';
import { registerStripeWebhook, registerTestCheckoutPages } from './payments/routes.js';
import { registerTestCardSetupPages } from './payments/card-setup-routes.js';
import { subscriptionCardSetups } from './subscriptions/card-updates.js';
import { registerAdminPaymentRoutes } from './payments/admin-routes.js';
import { registerStrayPaymentRoutes } from './orders/stray-payment-routes.js';
import { registerContentAdminRoutes } from './content/admin-routes.js';
import { registerEmailCheckRoutes } from './email/integration-routes.js';
import { registerLabelRoutes, registerShipStationRoutes } from './shipping-labels/routes.js';
import { smtpTransport, type MailTransport } from './email/delivery.js';
import { buildPaymentProviders } from './payments/providers.js';
import type { PaymentProviders } from './payments/provider.js';
import { auditImpersonatedReads } from './audit/audit.js';
import { registerReviewOptOutRoutes } from './reviews/opt-out.js';
import { registerUnsubscribeRoutes } from './marketing/unsubscribe.js';
import { registerRestoreRoutes } from './marketing/restore.js';
import { registerAdminRecoveryRoutes } from './marketing/admin-routes.js';
import { registerAdminReorderReminderRoutes } from './marketing/admin-reorder-routes.js';
import { registerReorderLinkRoutes } from './marketing/reorder-link-routes.js';
import { registerAdminReviewRoutes } from './reviews/admin-routes.js';

export type AppDeps = {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  /** SMTP delivery; absent when SMTP_URL is unset (e-mails then stay in the outbox). */
  mailer?: MailTransport | null;
  /** The payment providers (test card page, Stripe, manual), built once for the app (payments/providers.ts). */
  payments: PaymentProviders;
  /** Where log lines go instead of stdout (the tests read them). */
  logStream?: LogStream;
  /** Where uploaded images are kept (files/): the uploads folder or a bucket, built once for the app. */
  files: FileStore;
};

export async function buildApp(
  input: Omit<AppDeps, 'payments' | 'files'> & { payments?: PaymentProviders; files?: FileStore },
): Promise<FastifyInstance> {
  const deps: AppDeps = {
    ...input,
    files: input.files ?? createFileStore(input.config.fileStore),
    mailer: input.mailer !== undefined ? input.mailer : input.config.smtpUrl ? smtpTransport(input.config.smtpUrl) : null,
    payments: input.payments ?? buildPaymentProviders(input.config, input.db),
  };
  const { config } = deps;
  bindShopAddress(deps.db, config.publicUrl);
  setOrderEmailShopUrl(config.publicUrl);
  const app = Fastify({
    // No log line carries a secret (reset tokens in URLs, cookies): http/log-redaction.ts.
    logger: loggerOptions(config, input.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    // The router's own refusals (a broken escape, a part too long) answer with a sentence: http/bad-url.ts.
    frameworkErrors: frameworkErrorAnswer(config),
    // Slow clients are dropped: headers must arrive within headersTimeoutMs, the whole request
    // within requestTimeoutMs, and a kept-alive socket idle for keepAliveTimeoutMs is closed. Node
    // checks the first two on a timer; once a second keeps the figures close to what they say.
    http: { headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 1000 },
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // A socket that sends nothing at all for this long is closed too.
    connectionTimeout: config.requestTimeoutMs + 5000,
  });

  checkRoutePolicies(app);
  registerSessionDecorator(app);
  registerSecurityHeaders(app, config);
  // First of all hooks: a request on another host name is sent to PUBLIC_URL before anything is read or stored.
  registerCanonicalHost(app, config);
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

  app.setErrorHandler((error, req, reply) => {
    // Read the rest of an over-size body before answering, or the 413 is lost with the connection.
    if (isBodyTooLarge(error)) return answerBodyTooLarge(req, reply);
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({ error: error.message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
      const message =
        (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The request body is not valid JSON'
          : (error as Error).message;
      return reply.code(status).send({ error: message });
    }
    // Before the database's check: a bucket's refused connection looks like a database's.
    if (isFileStoreError(error)) {
      // The bucket does not answer, or refuses the shop: nothing was stored. The cause stays in the log.
      req.log.warn({ err: error, reqId: req.id, reason: error.reason }, 'file storage failed');
      reply.code(503).header('retry-after', '60').header('cache-control', 'no-store');
      return reply.send({ error: error.reason === 'refused' ? ADMIN_MESSAGES.imageStorageRefused : ADMIN_MESSAGES.imageStorageDown });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is away for a moment (a lost connection, a restart): not a bug, not the caller's fault.
      req.log.warn({ reqId: req.id, code: (error as { code?: unknown }).code, message: (error as Error).message }, 'database unavailable');
      reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
      if (req.headers.accept?.includes('text/html')) return reply.type('text/html; charset=utf-8').send(unavailablePage());
      return reply.send({ error: DATABASE_UNAVAILABLE_MESSAGE });
    }
    req.log.error({ err: error, reqId: req.id }, 'unhandled error');
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });

  // The surfaces (src/server/http/access.ts): each an encapsulated plugin whose guard runs for
  // every route the router matched in it, however the path was spelled.
  await registerSurface(app, 'store', deps, async (store) => {
    // A load balancer may check health by the machine's IP: answered on any host name.
    // Liveness: the process answers. Readiness: it can also reach its database (a load balancer
    // sends shoppers only to a ready process; a supervisor restarts one that is not alive).
    store.get('/api/health', { config: { ...access.public.config, anyHost: true } }, async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { ok: true };
    });
    store.get('/api/health/ready', { config: { ...access.public.config, anyHost: true } }, async (req, reply) => {
      const database = await pingDatabase(deps.db);
      reply.code(database.ok ? 200 : 503).header('cache-control', 'no-store');
      if (database.ok) return { ok: true, database: 'up', ms: database.ms };
      // Why stays in the log: the answer is public, and an error names the database's address.
      req.log.warn({ reason: database.error }, 'not ready: the database does not answer');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return { ok: false, database: 'down', error: DATABASE_UNAVAILABLE_MESSAGE };
    });
    await store.register(registerAccountRoutes, deps);
    await store.register(registerSignInLinkRoutes, deps);
    await store.register(registerCatalogRoutes, deps);
    await store.register(registerInventoryRoutes, deps);
    await store.register(registerRelatedProductRoutes, deps);
    await store.register(registerReviewListRoutes, deps);
    await store.register(registerContentRoutes, deps);
    await store.register(registerCartRoutes, deps);
    await store.register(registerCheckoutRoutes, deps);
    await store.register(registerOrderRoutes, deps);
    await store.register(registerSubscriptionLinkRoutes, { ...deps, outcomes: checkoutPaymentOutcomes(deps) });
    await store.register(registerReviewLinkRoutes, deps);
    await store.register(registerReviewOptOutRoutes, deps);
    await store.register(registerUnsubscribeRoutes, deps);
    await store.register(registerRestoreRoutes, deps);
    await store.register(registerReorderLinkRoutes, deps);
  });
  await registerSurface(app, 'account', deps, async (account) => {
    auditImpersonatedReads(account, deps.db); // what an admin reads as a customer (decision 0020)
    await account.register(registerAccountOrderRoutes, deps);
    await account.register(registerAccountDataRoutes, deps);
    await account.register(registerSelfServiceRoutes, deps);
    await account.register(registerSavedCartRoutes, deps);
    await account.register(registerAccountSubscriptionRoutes, { ...deps, outcomes: checkoutPaymentOutcomes(deps) });
    await account.register(registerAccountReviewRoutes, deps);
    await account.register(registerEmailPreferenceRoutes, deps);
  });
  await registerSurface(app, 'admin', deps, async (admin) => {
    // Each domain's back-office routes (src/server/<domain>/admin-routes.ts), all under this surface's guard.
    // Each module's routes are a Fastify plugin of their own: what one adds (the catalogue's multipart
    // parser for image uploads, the webhook's raw-body parser) stays with its routes.
    await admin.register(registerAdminCatalogRoutes, deps);
    await admin.register(registerAdminRecoveryRoutes, deps);
    await admin.register(registerAdminReorderReminderRoutes, deps);
    await admin.register(registerAdminInventoryRoutes, deps);
    await admin.register(registerAdminHoldRoutes, deps);
    await admin.register(registerAdminCheckoutRoutes, deps);
    await admin.register(registerAdminOrderRoutes, deps);
    await admin.register(registerBulkOrderRoutes, deps);
    await admin.register(registerAdminCouponRoutes, deps);
    await admin.register(registerAdminShippingRoutes, deps);
    await admin.register(registerAdminUserRoutes, deps);
    await admin.register(registerAdminAuditRoutes, deps);
    await admin.register(registerContentAdminRoutes, deps);
    await admin.register(registerEmailRoutes, deps);
    await admin.register(registerLabelRoutes, deps);
    await admin.register(registerAdminPaymentRoutes, deps);
    await admin.register(registerStrayPaymentRoutes, deps);
    await admin.register(registerAdminSubscriptionRoutes, deps);
    await admin.register(registerAdminSubscriptionListRoutes, deps);
    await admin.register(registerAdminSubscriptionActionRoutes, { ...deps, outcomes: checkoutPaymentOutcomes(deps) });
    await admin.register(registerAdminReviewRoutes, deps);
  });
  await registerSurface(app, 'integrations', deps, async (integrations) => {
    await integrations.register(registerShipStationRoutes, deps);
    await integrations.register(registerEmailCheckRoutes, deps);
  });
  await registerSurface(app, 'webhooks', deps, async (webhooks) => {
    await webhooks.register(registerStripeWebhook, {
      ...deps,
      outcomes: checkoutPaymentOutcomes(deps),
      cardSetups: subscriptionCardSetups(deps),
    });
  });
  let notFound: Awaited<ReturnType<typeof registerSpa>> | undefined;
  await registerSurface(app, 'pages', deps, async (pages) => {
    await pages.register(registerTestCheckoutPages, { ...deps, outcomes: checkoutPaymentOutcomes(deps) });
    await pages.register(registerTestCardSetupPages, { ...deps, cardSetups: subscriptionCardSetups(deps) });
    await pages.register(registerSeoRoutes, deps);
    await pages.register(registerUploadedFiles, deps);
    notFound = await registerSpa(pages, deps);
  });
  if (notFound) app.setNotFoundHandler(notFound);

  const stopWatching = watchShopChanges(deps.db, deps.config.shopChangePollMs, (err) =>
    app.log.error({ err }, 'cannot read shop changes; caches are dropped until it can'),
  );
  app.addHook('onClose', async () => {
    stopWatching();
    // A store the caller passed in is the caller's to close (main.ts shares it with the backfill).
    if (!input.files) deps.files.close();
    await deps.mailer?.close();
  });
  return app;
}
