import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Config } from '../config.js';
import { createStripeClient } from './stripe.js';
import { closeDueProviderSessions, retryUnansweredStrayRefunds } from './stray-payments.js';

type Log = { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void };

/** How often ended sessions are closed at the provider: at most a second after they ended here. */
const CLOSE_INTERVAL_MS = 1000;

/**
 * The payments' background work, safe in any number of processes: Stripe pages of checkouts and
 * links the shop ended are closed at Stripe (an indexed read of the few marked ones, each turn), and
 * refunds of stray payments left unanswered are asked again. Nothing to do without Stripe.
 */
export function startPaymentsWorker(db: Kysely<Database>, config: Config, log: Log): { stop: () => void } {
  const stripe = createStripeClient(config);
  if (!stripe) return { stop: () => {} };
  let running = false;
  const turn = async () => {
    if (running) return;
    running = true;
    try {
      await closeDueProviderSessions(db, stripe, log);
      await retryUnansweredStrayRefunds(db, stripe, new Date(), log);
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
