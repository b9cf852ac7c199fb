import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { MicroCache } from '../http/micro-cache.js';
import { onShopChange } from '../http/shop-changes.js';

/*
 * How an open page learns that the stock it shows moved, within a second and without asking every
 * second (issue [1/8]): it asks once and waits. The answer comes when this process's shop-change
 * watcher (http/shop-changes.ts, every 250 ms) sees a stock change of one of its products, at the
 * moment the caches showing that stock are dropped, so what the page reads next is fresh. An idle
 * page costs one held request and one answer per STOCK_WATCH_WAIT_MS; a change costs each page
 * watching that product one answer, whatever the size of the catalogue.
 */

/** How long a watch waits with nothing changed before it is answered (and the page asks again). */
export const STOCK_WATCH_WAIT_MS = 25_000;

/** What the watched products' stock is now, as a short stamp; null when one of them has no stock (unknown). */
type Stamp = { stamp: string; known: ReadonlySet<string> };

// Dropped with every stock change (showsProducts), so a stamp read after a change is never the one before it.
const stamps = new MicroCache<Stamp>(250, 1000, 0, true);

/**
 * The stamp of these products' stock: each variant's level and units kept by checkouts (the figures a
 * hold, a release, a lapse, a sale or the owner's count moves), from the stock items' product index.
 */
export async function stockStamp(db: Kysely<Database>, productIds: readonly string[]): Promise<Stamp> {
  const ids = [...productIds].sort();
  return stamps.get(ids.join(','), async () => {
    const rows = await db
      .selectFrom('stock_items')
      .select(['product_id', 'variant_id', 'on_hand', 'reserved'])
      .where('product_id', 'in', ids)
      .orderBy('variant_id')
      .execute();
    const figures = rows.map((r) => `${r.variant_id}:${Number(r.on_hand)}:${Number(r.reserved)}`).join(';');
    return {
      stamp: createHash('sha1').update(figures).digest('base64url').slice(0, 16),
      known: new Set(rows.map((r) => r.product_id)),
    };
  });
}

/** The watches waiting in one app: each ends on a change of its products, after its wait, when its caller leaves, or when the app closes. */
export function createStockWatches() {
  const waiting = new Set<() => void>();
  return {
    /** Resolves 'changed' when the stock of one of these products (or the catalogue) changes, else 'quiet'. */
    next(productIds: readonly string[], waitMs: number, leave: AbortSignal): Promise<'changed' | 'quiet'> {
      const ids = new Set(productIds);
      return new Promise((resolve) => {
        let done = false;
        const finish = (how: 'changed' | 'quiet') => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          stopListening();
          waiting.delete(quiet);
          leave.removeEventListener('abort', quiet);
          resolve(how);
        };
        const quiet = () => finish('quiet');
        const stopListening = onShopChange((change) => {
          // A review (`ratings`) moves no stock: the watch keeps waiting.
          if (change.kind === 'catalogue' || (change.kind === 'stock' && [...change.productIds].some((id) => ids.has(id))))
            finish('changed');
        });
        const timer = setTimeout(quiet, waitMs);
        waiting.add(quiet);
        if (leave.aborted) quiet();
        else leave.addEventListener('abort', quiet, { once: true });
      });
    },
    /** Answers every waiting watch (the server is closing: a held request must not keep it open). */
    endAll(): void {
      for (const end of [...waiting]) end();
    },
  };
}
