/**
 * The timer of a schedule run in every process (the subscription renewals, the review requests):
 * a turn every `intervalMs`, or after a short pause when a step says more is waiting (a full
 * batch), so a backlog clears at a pace that still leaves the shop's pages the database in between.
 * A turn's steps run one after another; one that fails is logged and the others still run (one
 * kind of work failing does not hold up the rest). The next turn is timed from the end of the last,
 * so turns never overlap, and the timer does not keep the process alive.
 */

type Log = { error: (o: object, msg: string) => void };

/** One kind of work in a turn: `run` resolves `true` when it left work waiting; `failed` is logged if it throws. */
export type IntervalWorkerStep = { run: () => Promise<boolean | void>; failed: string };

/** The pause between turns while a backlog is being cleared (a step's batch was full). */
export const BACKLOG_PAUSE_MS = 100;

export function startIntervalWorker(
  { intervalMs, log }: { intervalMs: number; log: Log },
  steps: IntervalWorkerStep[],
): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const turn = async () => {
    let more = false;
    for (const step of steps) {
      try {
        if ((await step.run()) === true) more = true;
      } catch (err) {
        log.error({ err }, step.failed);
      }
    }
    if (!stopped) schedule(more ? BACKLOG_PAUSE_MS : intervalMs);
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      running = turn();
    }, ms);
    timer.unref();
  };
  schedule(intervalMs);
  return {
    // Waits for a turn under way, so a test or a shutdown closes the database after it.
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
