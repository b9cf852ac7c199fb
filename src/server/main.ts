import { loadServerConfig, ConfigError } from './config.js';
import { testPaymentsWarning } from './payments/test-payments.js';
import { openDatabase, pingDatabase } from './db/database.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { migrateToLatest } from './db/migrate.js';
import { underStartLock } from './db/locks.js';
import { seedDatabase } from './db/seed/seed.js';
import { buildApp } from './app.js';
import { readableLogStream } from './http/readable-log.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from './db/seed/demo-accounts.js';
import { smtpTransport, startDeliveryWorker } from './email/delivery.js';
import { noteOrderEmailSent, recordOrderEvent } from './orders/events.js';
import { startOutboxLogger } from './email/dev-log.js';
import { deleteExpiredSessions } from './accounts/sessions.js';
import { pruneRateLimits } from './http/rate-limit.js';
import { expireStaleSessions } from './checkout/service.js';
import { forwardDueMessages } from './content/contact.js';
import { setRetryBaseMs } from './lib/retry.js';
import { backfillImageVariants } from './catalog/image-variants.js';
import { startPaymentsWorker } from './payments/worker.js';
import { startRenewalsWorker } from './subscriptions/worker.js';
import { startReviewRequestsWorker } from './reviews/requests.js';
import { startCheckoutRecoveryWorker } from './marketing/recovery.js';
import { startReorderReminderWorker } from './marketing/reorder-reminders.js';
import { checkoutPaymentOutcomes } from './checkout/payment-outcomes.js';
import { buildPaymentProviders } from './payments/providers.js';
import { createFileStore } from './files/create-file-store.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadServerConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const { db, dialect, schema, close } = openDatabase(config.databaseUrl, {
    profileQueries: config.queryProfile,
    preparedStatements: config.pgPreparedStatements,
  });
  await waitForDatabase(db);
  // Processes started together on one PostgreSQL take turns (db/locks.ts).
  const { applied, seeded } = await underStartLock(db, dialect, async (conn) => ({
    applied: await migrateToLatest(conn, schema),
    seeded: await seedDatabase(conn, config),
  }));
  if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
  if (seeded.catalogue) console.log('Seeded the catalogue, settings, FAQs and e-mail templates.');

  const mailer = config.smtpUrl ? smtpTransport(config.smtpUrl) : null;
  // Development prints the log for a person (http/readable-log.ts); production keeps pino's JSON lines.
  const logStream = config.env === 'development' ? readableLogStream() : undefined;
  // Built once, as the mailer is: the routes and the payments worker share its one Stripe client.
  const paymentProviders = buildPaymentProviders(config, db);
  // The uploads folder or the bucket (decision 0062), shared by the routes and the variant backfill.
  const files = createFileStore(config.fileStore);
  const app = await buildApp({ config, db, dialect, mailer, logStream, payments: paymentProviders, files });

  setRetryBaseMs(config.retryBaseMs);
  const worker = mailer
    ? startDeliveryWorker(db, mailer, config.mailFrom, app.log, {
        intervalMs: config.workerIntervalMs,
        onOrderEmailSent: noteOrderEmailSent,
      })
    : null;
  const forwarder = setInterval(() => {
    forwardDueMessages(db).catch((err) => app.log.error({ err }, 'contact forwarding failed'));
  }, config.workerIntervalMs);
  forwarder.unref();
  const outboxLog = !config.smtpUrl && config.env !== 'production' ? startOutboxLogger(db, (line) => console.log(line)) : null;
  const housekeeping = setInterval(() => {
    deleteExpiredSessions(db).catch((err) => app.log.error({ err }, 'session cleanup failed'));
    pruneRateLimits(db).catch((err) => app.log.error({ err }, 'rate-limit cleanup failed'));
  }, 3_600_000);
  housekeeping.unref();
  const sessionSweep = setInterval(() => {
    expireStaleSessions(db).catch((err) => app.log.error({ err }, 'payment session cleanup failed'));
  }, 60_000);
  sessionSweep.unref();
  const payments = startPaymentsWorker(db, paymentProviders, config, app.log, recordOrderEvent);
  // Subscriptions renew on the shop's own schedule, in every process (subscriptions/renewals.ts).
  const renewals = startRenewalsWorker(
    {
      db,
      dialect,
      payments: paymentProviders,
      outcomes: checkoutPaymentOutcomes({ config, db, dialect, mailer, payments: paymentProviders, files }),
      publicUrl: config.publicUrl,
      log: app.log,
    },
    { intervalMs: config.workerIntervalMs },
  );
  // Review request e-mails some days after shipping, once per order, in every process (reviews/requests.ts).
  const reviewRequests = startReviewRequestsWorker(
    { db, dialect, publicUrl: config.publicUrl, log: app.log },
    { intervalMs: config.reviewRequestIntervalMs },
  );
  // Checkout recovery e-mails, each decided once, in every process (marketing/recovery.ts).
  const recovery = startCheckoutRecoveryWorker(
    { db, dialect, publicUrl: config.publicUrl, log: app.log },
    { intervalMs: config.recoveryIntervalMs },
  );
  // Reorder reminders for one-time buyers of refills, each order decided once, in every process (marketing/reorder-reminders.ts).
  const reorderReminders = startReorderReminderWorker(
    { db, dialect, publicUrl: config.publicUrl, log: app.log },
    { intervalMs: config.reorderReminderIntervalMs },
  );
  // Images uploaded before variants existed get them now, in the background: the server starts at
  // once. A bucket that does not answer ends this run only; the next start tries again.
  void backfillImageVariants(files, (msg, err) => app.log.warn({ err }, msg))
    .then((made) => made && app.log.info(`made ${made} missing image variants`))
    .catch((err) => app.log.error({ err }, `image variant backfill failed (${files.description})`));

  const shutdown = async () => {
    clearInterval(housekeeping);
    clearInterval(sessionSweep);
    clearInterval(forwarder);
    payments.stop();
    await renewals.stop();
    await reviewRequests.stop();
    await recovery.stop();
    await reorderReminders.stop();
    outboxLog?.stop();
    await worker?.stop();
    await app.close();
    files.close();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  await app.listen({ port: config.port, host: config.host });
  const shown = config.publicUrl;
  console.log(`\nEcoClean shop is running at ${shown}  (database: ${dialect})`);
  if (config.env !== 'production') {
    console.log(`Demo sign-in:  admin ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
    console.log(`               customer ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}\n`);
  }
  if (config.testPayments) console.warn(testPaymentsWarning(config));
}

/**
 * At start the database may still be coming up (a machine booting, a failover): wait for it,
 * saying so, rather than exit at once. A supervisor restarts a process that gives up.
 */
async function waitForDatabase(db: Parameters<typeof pingDatabase>[0], giveUpAfterMs = 60_000): Promise<void> {
  const started = Date.now();
  for (let said = false; ;) {
    const answer = await pingDatabase(db, 5000);
    if (answer.ok) return;
    if (Date.now() - started > giveUpAfterMs) throw new Error(`The database did not answer for ${giveUpAfterMs / 1000} s: ${answer.error}`);
    if (!said) console.error(`Waiting for the database (${answer.error})…`);
    said = true;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

// A lost database connection fails the work that was using it, never the process. Anything else
// unexpected still ends it (its state is unknown), and the supervisor starts it again (docs/operations.md).
process.on('unhandledRejection', (reason) => {
  if (isDatabaseUnavailable(reason)) {
    console.error('Background work lost its database connection; it runs again on its next turn:', (reason as Error).message);
    return;
  }
  console.error('Unhandled rejection; the process ends:', reason);
  process.exit(1);
});

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
