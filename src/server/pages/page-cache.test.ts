import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BROTLI_BEST, BROTLI_BEST_AFTER_MS, BROTLI_FAST, compressPage, PageCache } from './page-cache.js';

/**
 * A page is kept with a quick brotli as it is drawn and gets the smaller one once it has stood
 * unchanged a while (page-cache.ts): a page drawn again twice a second during a sale never pays for
 * the slow one, a page that stays as it is pays once.
 */
function cacheWithClock() {
  const waiting: { at: number; fn: () => void }[] = [];
  let now = 0;
  const cache = new PageCache(
    10 * 1024 * 1024,
    () => now,
    (ms, fn) => void waiting.push({ at: now + ms, fn }),
  );
  return {
    cache,
    /** Moves the clock on and runs what came due. */
    async pass(ms: number) {
      now += ms;
      const due = waiting.filter((w) => w.at <= now);
      waiting.splice(0, waiting.length, ...waiting.filter((w) => w.at > now));
      for (const w of due) w.fn();
      // The better brotli runs on the thread pool.
      await new Promise((r) => setTimeout(r, 100));
    },
  };
}

const html = (n: number) =>
  `<!doctype html><html><body>${Array.from({ length: 400 }, (_, i) => `<article class="group"><h2>Product ${i}</h2><p>${n} in stock</p></article>`).join('')}</body></html>`;
const draw = (n: number, productIds = ['cloth']) =>
  compressPage({ status: 200, noindex: false, productIds: new Set(productIds) }, html(n), '');

describe('page cache: brotli quality', () => {
  it('keeps a page at the quick quality, then the smaller one once it stood unchanged, the same page and ETag', async () => {
    const { cache, pass } = cacheWithClock();
    const drawn = await cache.get('/products', () => draw(1));
    expect(drawn.brQuality).toBe(BROTLI_FAST);
    const bytesBefore = cache.stats.bytes;

    await pass(BROTLI_BEST_AFTER_MS - 1);
    expect((await cache.get('/products', () => draw(2))).brQuality).toBe(BROTLI_FAST);

    await pass(1);
    const kept = await cache.get('/products', () => draw(3));
    expect(kept.brQuality).toBe(BROTLI_BEST);
    expect(kept.br.length).toBeLessThan(drawn.br.length);
    expect(zlib.brotliDecompressSync(kept.br).toString()).toBe(html(1));
    expect(kept.etag).toBe(drawn.etag);
    expect(kept.gzip).toBe(drawn.gzip);
    expect(cache.stats.bytes).toBe(bytesBefore - (drawn.br.length - kept.br.length));
  });

  it('never pays for the smaller brotli of a page drawn again before its wait is over', async () => {
    const { cache, pass } = cacheWithClock();
    await cache.get('/products', () => draw(1));
    // The product sells: the page is stale, and past STOCK_STALE_MS the next visitor has it drawn again.
    cache.forgetProducts(new Set(['cloth']));
    await pass(1000);
    const redrawn = await cache.get('/products', () => draw(2));
    expect(zlib.brotliDecompressSync(redrawn.br).toString()).toBe(html(2));
    await pass(BROTLI_BEST_AFTER_MS - 1000);
    // The first drawing's wait is over, but it is no longer kept: the second is not touched early.
    expect((await cache.get('/products', () => draw(3))).brQuality).toBe(BROTLI_FAST);
    await pass(1000);
    const kept = await cache.get('/products', () => draw(4));
    expect(kept.brQuality).toBe(BROTLI_BEST);
    expect(zlib.brotliDecompressSync(kept.br).toString()).toBe(html(2));
  });

  it('leaves a stale page and a cleared cache alone', async () => {
    const { cache, pass } = cacheWithClock();
    await cache.get('/products', () => draw(1));
    await cache.get('/faq', () => draw(1, []));
    cache.forgetProducts(new Set(['cloth']));
    await pass(BROTLI_BEST_AFTER_MS);
    // Still answered while its new drawing is due (STOCK_STALE_MS is long past: this one draws).
    expect((await cache.get('/products', () => draw(2))).brQuality).toBe(BROTLI_FAST);
    expect((await cache.get('/faq', () => draw(2, []))).brQuality).toBe(BROTLI_BEST);

    await cache.get('/about', () => draw(1, []));
    cache.clear();
    await pass(BROTLI_BEST_AFTER_MS);
    expect(cache.stats).toEqual({ pages: 0, bytes: 0 });
  });
});
