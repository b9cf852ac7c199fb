import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const deflateRaw = promisify(zlib.deflateRaw);

/**
 * A storefront page as every visitor who is not signed in gets it: whole and compressed once. For
 * a signed-in visitor their session goes in just before the end (`prefix` + their script +
 * `suffix`): the prefix is kept deflated up to a byte boundary, so their gzip answer is the
 * prefix's deflate blocks, the few hundred bytes after it stored as they are, and a new trailer, never
 * the whole page compressed again.
 */
export type CachedPage = {
  status: number;
  noindex: boolean;
  html: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  prefix: Buffer;
  prefixDeflated: Buffer;
  prefixCrc: number;
  suffix: string;
  /** The products whose stock the page shows: a stock change of one of them drops the page (decision 0023). */
  productIds: ReadonlySet<string>;
  /** Brotli's quality for `br`: BROTLI_FAST as drawn, BROTLI_BEST once the page has stood unchanged a while (PageCache). */
  brQuality: number;
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * Brotli's quality for a page as it is drawn: under a millisecond for these pages (26–75 KB), 5–9%
 * larger than BROTLI_BEST, which takes 14–18 ms. A page showing a product on sale is drawn again
 * about twice a second (STOCK_STALE_MS), so it stays at this quality while the sale lasts.
 */
export const BROTLI_FAST = 5;
/**
 * Quality 10 took no longer than 9 on these pages and is 6–8% smaller; 11 is 3% smaller again but
 * 4–6× slower (decision 0012). Paid once per page, when it has stood unchanged BROTLI_BEST_AFTER_MS.
 */
export const BROTLI_BEST = 10;
export const BROTLI_BEST_AFTER_MS = 3000;

const brotliAt = (raw: Buffer, quality: number) =>
  brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });

export async function compressPage(
  page: { status: number; noindex: boolean; productIds: ReadonlySet<string> },
  prefix: string,
  suffix: string,
): Promise<CachedPage> {
  const head = Buffer.from(prefix, 'utf8');
  const raw = Buffer.concat([head, Buffer.from(suffix, 'utf8')]);
  const [gz, br, prefixDeflated] = await Promise.all([
    gzip(raw, { level: 9 }),
    brotliAt(raw, BROTLI_FAST),
    deflateRaw(head, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  ]);
  const etag = `"${createHash('sha1').update(raw).digest('base64url').slice(0, 22)}"`;
  return {
    ...page,
    html: raw,
    gzip: gz,
    br,
    brQuality: BROTLI_FAST,
    etag,
    prefix: head,
    prefixDeflated,
    prefixCrc: zlib.crc32(head),
    suffix,
  };
}

/** The same page (same bytes once decoded, same ETag) with `br` at BROTLI_BEST. */
export async function withBestBrotli(page: CachedPage): Promise<CachedPage> {
  return { ...page, br: await brotliAt(page.html, BROTLI_BEST), brQuality: BROTLI_BEST };
}

/** The page with `insert` before its suffix, gzipped when `gzipped` (one gzip member: the kept prefix blocks, then the rest). */
export function pageWith(page: CachedPage, insert: string, gzipped: boolean): Buffer {
  const tail = Buffer.from(insert + page.suffix, 'utf8');
  if (!gzipped) return Buffer.concat([page.prefix, tail]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(tail, page.prefixCrc), 0);
  trailer.writeUInt32LE((page.prefix.length + tail.length) >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, page.prefixDeflated, storedBlocks(tail), trailer]);
}

/**
 * The tail as deflate "stored" blocks (the last one final): a few hundred bytes not worth a
 * compressor's set-up per request. The kept prefix ends on a byte boundary (a sync flush), where
 * a stored block may start.
 */
function storedBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length || parts.length === 0; at += 0xffff) {
    const chunk = data.subarray(at, at + 0xffff);
    const header = Buffer.alloc(5);
    header[0] = at + 0xffff >= data.length ? 1 : 0;
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    parts.push(header, chunk);
  }
  return Buffer.concat(parts);
}

const sizeOf = (p: CachedPage) => p.html.length + p.gzip.length + p.br.length + p.prefixDeflated.length + p.suffix.length;

/**
 * How long after a stock change a page showing that product may still be answered as it was, while
 * one request draws it again: shoppers never see stock older than a second (this, plus the
 * watcher's poll and the render), and a page whose product sells several times a second is drawn
 * about twice a second, not on every poll (decision 0023).
 */
export const STOCK_STALE_MS = 400;

type Entry = { page: CachedPage; staleSince: number | null };

/**
 * Rendered storefront pages keyed by path and the query the page reads, least recently used
 * first out once `maxBytes` is reached. Concurrent misses of one key share one render. A clear (the
 * back office changed the shop: shop-changes.ts) drops every page, and a render under way then is
 * answered but not kept. A stock change of some products marks the pages showing them stale
 * (`forgetProducts`): for STOCK_STALE_MS such a page is still answered at once; the first request
 * after that draws it again and waits for it (the others are answered the stale page meanwhile),
 * and the new page replaces it, stale again at once if the stock moved while it was drawn.
 */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<CachedPage>>();
  private bytes = 0;
  private generation = 0;
  /** Each product's last stock change (ms), kept while renders are under way. */
  private readonly stockChangedAt = new Map<string, number>();

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
    /** Runs `fn` in `ms` (tests pass their own clock). */
    private readonly later: (ms: number, fn: () => void) => void = (ms, fn) => void setTimeout(fn, ms).unref(),
  ) {}

  get(key: string, build: () => Promise<CachedPage>): Promise<CachedPage> {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      if (hit.staleSince === null) return Promise.resolve(hit.page);
      // Answered as it is while it is young enough, or while its new drawing is under way; past
      // that, the first request waits for the new drawing. (Answering it the old page and drawing
      // behind it showed a page as old as the product's last change to the first visitor after a
      // quiet while: a review written a minute ago missing from the page, and the page's own data,
      // read again, then told React a different story than its HTML.)
      const pending = this.pending.get(key);
      if (pending || this.now() - hit.staleSince < STOCK_STALE_MS) return Promise.resolve(hit.page);
      return this.render(key, build);
    }
    return this.pending.get(key) ?? this.render(key, build);
  }

  private render(key: string, build: () => Promise<CachedPage>): Promise<CachedPage> {
    const generation = this.generation;
    const started = this.now();
    const built = build()
      .then((page) => {
        if (generation === this.generation) this.keep(key, page, this.movedSince(page, started));
        return page;
      })
      .finally(() => {
        if (this.pending.get(key) === built) this.pending.delete(key);
        if (this.pending.size === 0) this.stockChangedAt.clear();
      });
    this.pending.set(key, built);
    return built;
  }

  /** When the stock of one of the page's products last changed after `since` (null: none did). */
  private movedSince(page: CachedPage, since: number): number | null {
    let at: number | null = null;
    for (const id of page.productIds) {
      const changed = this.stockChangedAt.get(id);
      if (changed !== undefined && changed >= since && (at === null || changed > at)) at = changed;
    }
    return at;
  }

  private keep(key: string, page: CachedPage, staleSince: number | null): void {
    const size = sizeOf(page);
    const old = this.entries.get(key);
    if (old) this.drop(key, old.page);
    if (size > this.maxBytes) return;
    this.bytes += size;
    for (const [oldKey, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldKey, entry.page);
    }
    const entry: Entry = { page, staleSince };
    this.entries.set(key, entry);
    if (page.brQuality < BROTLI_BEST) this.later(BROTLI_BEST_AFTER_MS, () => void this.compressBetter(key, entry));
  }

  /**
   * A page still as it was drawn BROTLI_BEST_AFTER_MS ago (not stale, not replaced, not dropped)
   * gets its smaller brotli. One drawn again meanwhile never does: that drawing starts its own wait.
   */
  private async compressBetter(key: string, entry: Entry): Promise<void> {
    const current = () => this.entries.get(key) === entry && entry.staleSince === null;
    if (!current()) return;
    const better = await withBestBrotli(entry.page);
    if (!current()) return;
    this.bytes += sizeOf(better) - sizeOf(entry.page);
    entry.page = better;
  }

  private drop(key: string, page: CachedPage): void {
    this.entries.delete(key);
    this.bytes -= sizeOf(page);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
    this.stockChangedAt.clear();
    this.bytes = 0;
  }

  /** The stock of these products changed: the pages showing them are stale (drawn again soon); the others stay. */
  forgetProducts(productIds: ReadonlySet<string>): void {
    if (productIds.size === 0) return;
    const at = this.now();
    if (this.pending.size > 0) for (const id of productIds) this.stockChangedAt.set(id, at);
    for (const entry of this.entries.values()) {
      if (entry.staleSince !== null) continue;
      for (const id of entry.page.productIds) {
        if (productIds.has(id)) {
          entry.staleSince = at;
          break;
        }
      }
    }
  }

  get stats(): { pages: number; bytes: number } {
    return { pages: this.entries.size, bytes: this.bytes };
  }
}
