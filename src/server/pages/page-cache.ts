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
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

export async function compressPage(page: { status: number; noindex: boolean }, prefix: string, suffix: string): Promise<CachedPage> {
  const head = Buffer.from(prefix, 'utf8');
  const raw = Buffer.concat([head, Buffer.from(suffix, 'utf8')]);
  const [gz, br, prefixDeflated] = await Promise.all([
    gzip(raw, { level: 9 }),
    // Quality 10 took no longer than 9 on these pages (15–50 ms for 26–70 KB) and is 6–8% smaller;
    // 11 is 3% smaller again but 4–6× slower, paid again after every shop change (decision 0012).
    brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    deflateRaw(head, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  ]);
  const etag = `"${createHash('sha1').update(raw).digest('base64url').slice(0, 22)}"`;
  return { ...page, html: raw, gzip: gz, br, etag, prefix: head, prefixDeflated, prefixCrc: zlib.crc32(head), suffix };
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
 * Rendered storefront pages keyed by path and the query the page reads, least recently used
 * first out once `maxBytes` is reached. Concurrent misses of one key share one render; a clear
 * (the shop changed: shop-changes.ts) drops every page, and a render that was under way when it
 * happened is answered but not kept.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly pending = new Map<string, Promise<CachedPage>>();
  private bytes = 0;
  private generation = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, build: () => Promise<CachedPage>): Promise<CachedPage> {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return Promise.resolve(hit);
    }
    const waiting = this.pending.get(key);
    if (waiting) return waiting;
    const generation = this.generation;
    const built = build()
      .then((page) => {
        if (generation === this.generation) this.keep(key, page);
        return page;
      })
      .finally(() => {
        if (this.pending.get(key) === built) this.pending.delete(key);
      });
    this.pending.set(key, built);
    return built;
  }

  private keep(key: string, page: CachedPage): void {
    const size = sizeOf(page);
    if (size > this.maxBytes) return;
    this.bytes += size;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= sizeOf(old);
    }
    this.entries.set(key, page);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
    this.bytes = 0;
  }

  get stats(): { pages: number; bytes: number } {
    return { pages: this.entries.size, bytes: this.bytes };
  }
}
