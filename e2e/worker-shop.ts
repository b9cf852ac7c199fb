import path from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';

/**
 * Runs before each browser-journey file (vitest.config.ts, setupFiles): the file drives the shop
 * of the worker it runs in (global-setup.ts starts one per worker), so inject('baseUrl'),
 * inject('dataDir'), inject('fakesUrl') and inject('workflowUrl') name that shop's.
 *
 * Vitest gives every worker the same provided values; a worker's own are set here in the
 * worker's copy of them, which is what inject() reads.
 */
const shops = inject('shops');
const worker = Number(process.env.VITEST_POOL_ID ?? '1');
const mine = shops[(worker - 1) % shops.length];
const state = (globalThis as { __vitest_worker__?: { providedContext?: Record<string, unknown> } }).__vitest_worker__;
if (!mine || !state?.providedContext) throw new Error('e2e/worker-shop.ts: cannot find this worker’s shop (has Vitest changed?)');
Object.assign(state.providedContext, mine);
if (inject('baseUrl') !== mine.baseUrl)
  throw new Error('e2e/worker-shop.ts: inject() does not see this worker’s shop (has Vitest changed?)');

/*
 * Files that share this worker's shop sign in as the same demo customer, and a signed-in
 * customer's cart is kept by the shop (decision 0030): what one file left in that cart would
 * come back in the next file's sign-in. Each file starts with no account's saved cart.
 */
{
  const db = new Database(path.join(inject('dataDir'), 'shop.db'), { fileMustExist: true, timeout: 10_000 });
  try {
    db.prepare('delete from saved_carts').run();
  } finally {
    db.close();
  }
}
