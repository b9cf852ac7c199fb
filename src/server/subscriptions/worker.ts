import { runRenewals, type RenewalDeps } from './renewals.js';

/** How many cycles one turn renews at most: the pace that keeps pages fast while a backlog clears. */
export const RENEWALS_PER_TURN = 50;
/** The pause between turns while a backlog is being cleared (a full turn): the shop's pages get the database in between. */
const BACKLOG_PAUSE_MS = 100;

/**
 * The renewal schedule, run in every process (decision 0058): each turn writes the cycles coming
 * due (with their reminders) and renews what is due, oldest first. Any number of processes share
 * one database: a cycle's row and its subscription's lock make each renewal happen once. `clock`
 * is the schedule's time (tests move it instead of waiting).
 */
export function startRenewalsWorker(
  deps: RenewalDeps,
  { intervalMs, clock = () => new Date() }: { intervalMs: number; clock?: () => Date },
): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const turn = async () => {
    let full = false;
    try {
      const { worked } = await runRenewals(deps, clock(), RENEWALS_PER_TURN);
      full = worked >= RENEWALS_PER_TURN;
    } catch (err) {
      deps.log.error({ err }, 'renewals turn failed');
    }
    if (!stopped) schedule(full ? BACKLOG_PAUSE_MS : intervalMs);
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      running = turn();
    }, ms);
    timer.unref();
  };
  schedule(intervalMs);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
