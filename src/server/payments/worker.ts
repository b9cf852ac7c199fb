import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Config } from '../config.js';
import type { PaymentProviders } from './provider.js';
import { closeDueProviderSessions, retryUnansweredStrayRefunds, type OrderTimeline } from './stray-payments.js';

type Log = { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void };

/** How often ended sessions are closed at the provider: at most a second after they ended here. */
const CLOSE_INTERVAL_MS = 1000;

/**
 * The payments' background work, safe in any number of processes: Stripe pages of checkouts and
 * links the shop ended are closed at Stripe (an indexed read of the few marked ones, each turn), and
 * refunds of stray payments left unanswered are asked again (their outcome on the order's timeline,
 * written by `timeline`: orders/events.ts recordOrderEvent, passed in by main.ts). Nothing to do without Stripe.
 */
export function startPaymentsWorker(
  db: Kysely<Database>,
  providers: PaymentProviders,
  config: Config,
  log: Log,
  timeline: OrderTimeline,
): { stop: () => void } {
  if (!providers.stripeClient) return { stop: () => {} };
  let running = false;
  const turn = async () => {
    if (running) return;
    running = true;
    try {
      await closeDueProviderSessions(db, providers, log);
      await retryUnansweredStrayRefunds(db, providers, timeline, new Date(), log);
    } catch (err) {
      log.error({ err }, 'payments worker turn failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void turn(), Math.min(CLOSE_INTERVAL_MS, config.workerIntervalMs));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
