import { runRenewals, type RenewalDeps } from './renewals.js';
import { runPriceNotices } from './price-notices.js';
import { learnSubscriptionCards } from './learn-cards.js';
import { startIntervalWorker } from '../lib/interval-worker.js';

/** How many cycles one turn renews at most: the pace that keeps pages fast while a backlog clears. */
export const RENEWALS_PER_TURN = 50;

/**
 * The renewal schedule, run in every process (decision 0058): each turn writes the cycles coming
 * due (with their reminders), renews what is due, oldest first, and tells subscribers of price
 * changes (price-notices.ts). Any number of processes share
 * one database: a cycle's row and its subscription's lock make each renewal happen once. `clock`
 * is the schedule's time (tests move it instead of waiting).
 */
export function startRenewalsWorker(
  deps: RenewalDeps,
  { intervalMs, clock = () => new Date() }: { intervalMs: number; clock?: () => Date },
): { stop: () => Promise<void> } {
  return startIntervalWorker({ intervalMs, log: deps.log }, [
    {
      run: async () => (await runRenewals(deps, clock(), RENEWALS_PER_TURN)).worked >= RENEWALS_PER_TURN,
      failed: 'renewals turn failed',
    },
    // Price changes told to subscribers (decision 0058, "Price changes"): marked products a batch at a time.
    { run: async () => (await runPriceNotices(deps, clock())).more, failed: 'price notices turn failed' },
    // A new Stripe subscriber's card (brand, last four), read from their first payment (learn-cards.ts);
    // a full batch of them waits for the next turn rather than hurrying it.
    {
      run: async () => {
        await learnSubscriptionCards(deps);
      },
      failed: 'learning subscription cards failed',
    },
  ]);
}
