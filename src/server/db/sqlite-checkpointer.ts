import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies SQLite's write-ahead log back into the database file on a thread of its own (decision
 * 0023). SQLite does it inside the commit that crosses `wal_autocheckpoint` pages: copying
 * thousands of pages and syncing the file there stopped every request for 20–40 ms, which on a
 * sale was the slowest checkout in a hundred. A passive checkpoint on a second connection waits for
 * nobody and blocks nobody: the shop keeps writing to the log while it runs, and the log starts
 * over once everything in it has been copied.
 *
 * The worker is a few lines of CommonJS handed to `Worker` as text (no file to build or ship),
 * loading the same better-sqlite3 the shop uses. The shop's own automatic checkpoint stays on at a
 * high mark, in case this thread ever stops.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 100');
db.pragma('cache_size = 16');
function checkpoint() {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
});
`;

export type Checkpointer = { stop: () => Promise<void> };

/** Starts checkpointing `file` every `everyMs` on a worker thread. */
export function startCheckpointer(file: string, everyMs = 200): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, everyMs },
    // It holds next to nothing: a small heap of its own keeps its memory small (a few MB, not ten).
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, codeRangeSizeMb: 2, stackSizeMb: 1 },
  });
  // Its thread must not keep a process alive that has nothing else to do.
  worker.unref();
  let failed = false;
  worker.on('error', (err: Error) => {
    failed = true;
    console.error(`SQLite checkpoints stopped (${err.message}); the database copies its log back itself from now on.`);
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (failed) return resolve();
        const done = () => {
          clearTimeout(timer);
          void worker.terminate().then(() => resolve());
        };
        // Never wait long for it: a checkpoint it could not finish, the next start does.
        const timer = setTimeout(done, 2000);
        worker.once('message', done);
        worker.once('exit', done);
        worker.postMessage('stop');
      }),
  };
}
