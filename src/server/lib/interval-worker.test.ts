import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKLOG_PAUSE_MS, startIntervalWorker } from './interval-worker.js';

describe('startIntervalWorker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a turn every interval; a failing step is logged with its sentence and the next steps still run', async () => {
    const calls: string[] = [];
    const log = { error: vi.fn() };
    const worker = startIntervalWorker({ intervalMs: 1000, log }, [
      {
        run: async () => {
          calls.push('a');
          throw new Error('boom');
        },
        failed: 'a failed',
      },
      {
        run: async () => {
          calls.push('b');
        },
        failed: 'b failed',
      },
    ]);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['a', 'b']);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledWith({ err: expect.objectContaining({ message: 'boom' }) }, 'a failed');
    // Nothing waiting: the next turn is a whole interval later, not the backlog's short pause.
    await vi.advanceTimersByTimeAsync(BACKLOG_PAUSE_MS);
    expect(calls).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(1000 - BACKLOG_PAUSE_MS);
    expect(calls).toEqual(['a', 'b', 'a', 'b']);
    await worker.stop();
  });

  it('comes back after the short pause while any step says more is waiting', async () => {
    let waiting = 2;
    let turns = 0;
    const worker = startIntervalWorker({ intervalMs: 60_000, log: { error: vi.fn() } }, [
      { run: async () => false, failed: 'x' },
      {
        run: async () => {
          turns++;
          return --waiting > 0;
        },
        failed: 'y',
      },
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(turns).toBe(1);
    await vi.advanceTimersByTimeAsync(BACKLOG_PAUSE_MS);
    expect(turns).toBe(2);
    // The backlog is cleared: back to the interval.
    await vi.advanceTimersByTimeAsync(BACKLOG_PAUSE_MS * 5);
    expect(turns).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(turns).toBe(3);
    await worker.stop();
  });

  it('stop waits for the turn under way and no turn starts after it', async () => {
    let release!: () => void;
    let turns = 0;
    let finished = false;
    const worker = startIntervalWorker({ intervalMs: 10, log: { error: vi.fn() } }, [
      {
        run: async () => {
          turns++;
          await new Promise<void>((r) => (release = r));
          finished = true;
          return true;
        },
        failed: 'z',
      },
    ]);
    await vi.advanceTimersByTimeAsync(10);
    expect(turns).toBe(1);
    const stopped = worker.stop();
    let stopResolved = false;
    void stopped.then(() => (stopResolved = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopResolved).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(turns).toBe(1);
  });
});
