import { defineConfig } from 'vitest/config';

/** Browser journeys run this many files at once (E2E_WORKERS=1: one after another, as before). */
const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
/**
 * HTTP test files run this many at once. Vitest's own default is one fewer than the cores, one on
 * CI's two, where most of a file's time is spent waiting for PostgreSQL, a timer or argon2 in
 * libuv's threads: three side by side took the PostgreSQL suite from 1,288 s (CI, one) to 331 s.
 */
const HTTP_WORKERS = Math.max(1, Number(process.env.HTTP_WORKERS ?? 3));

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
          exclude: ['src/**/*.http.test.ts', 'src/**/*.scale.test.ts', 'node_modules/**', 'scripts/tools/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'http',
          include: ['src/**/*.http.test.ts'],
          environment: 'node',
          maxWorkers: HTTP_WORKERS,
          // A worker loads the server's modules once for all the files it runs, not once per file:
          // loading them (the app, the AWS SDK, Stripe, sharp) took some 6 s of a core per file, 900 s
          // of the SQLite suite's 1,270 s of work (450 s on its own on a quiet machine; 133 s so).
          // Each file builds its own app and database (test/harness.ts) and sets no environment or
          // mock; what a module keeps between files is its in-process caches, which every file
          // starts without (test/http-file-setup.ts).
          isolate: false,
          setupFiles: ['src/server/test/http-file-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Timings at scale: one file at a time, nothing else running.
          name: 'scale',
          include: ['src/**/*.scale.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'fault',
          include: ['fault/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          setupFiles: ['e2e/worker-shop.ts'],
          // A journey is a person's whole errand (the longest, some 15 s alone, has forty steps); with
          // files side by side on a busy machine it took 38 s. The limit is there to end a hang, which
          // Playwright's own 30 s wait for a missing element names first.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Files run side by side, each worker with its own server (e2e/global-setup.ts): most of a
          // journey is waiting for the page, the server or a person's pause, not using a core.
          maxWorkers: E2E_WORKERS,
          // A journey that fails is run once more before it fails the suite. On CI's busy 2 cores three
          // journeys that pass alone each failed once in a run of 206, every time a different one, on a
          // wait (15 s) that a loaded machine outran; the same failure twice in a row is a real one.
          retry: 1,
        },
      },
    ],
  },
});
