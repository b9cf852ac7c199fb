import fs from 'node:fs';
import path from 'node:path';
import { isFileKey, type FileStore } from '../files/file-store.js';

/** A public path prefix and the folder its files are served from, or the file store that holds them (the uploads). */
type ImageRoot = { prefix: string; dir: string } | { prefix: string; store: FileStore };

/**
 * How long a missing upload is remembered as missing. Another process (or `npm run
 * uploads:migrate`) may store it meanwhile, without a shop change: a page drawn after this looks again.
 */
const MISSING_KEPT_MS = 5_000;

/** Longest walk into a page's data: far deeper than any answer the pages embed. */
const MAX_DEPTH = 8;

/**
 * Which image files the server has, so a page can draw a missing picture as "Image not
 * available" in its HTML instead of an <img> the browser shows as broken before the page's
 * scripts run. Only paths under the roots (built public images, uploads) are judged; anything
 * else (another site's picture) is taken as present.
 *
 * Cheap by design: each path is looked up once (on disk, or a HEAD request to the bucket) and
 * remembered. The uploads change through the back office, whose every write is a shop change
 * (shop-changes.ts): `forget` is called then, in every process, before pages are drawn again. An
 * upload found missing is looked for again after a few seconds (another process may have stored
 * it), and a store that does not answer is taken to have the file and nothing is remembered: the
 * page is drawn with the image, whose own request fails, rather than kept saying it has none. The
 * built images change only when the client is rebuilt (`forget(true)`, in development).
 */
export class ImageFiles {
  /** true: there; a number: missing, until that time (Infinity for the built images). */
  private readonly known = new Map<string, true | number>();
  private generation = 0;
  private readonly roots: ImageRoot[];

  /** `changing`: the prefixes whose files come and go while the server runs (the uploads). */
  constructor(
    roots: ImageRoot[],
    private readonly changing: readonly string[] = [],
  ) {
    this.roots = roots.map((r) => ('dir' in r ? { ...r, dir: path.resolve(r.dir) } : r));
  }

  /** Whether the file a public path names is there; true for a path under no root. */
  private async lookUp(src: string): Promise<boolean | 'unknown'> {
    const root = this.roots.find((r) => src.startsWith(r.prefix));
    if (!root) return true;
    let rest: string;
    try {
      rest = decodeURIComponent(src.slice(root.prefix.length).split(/[?#]/)[0]!);
    } catch {
      return false;
    }
    if (rest.includes('\0')) return false;
    if ('store' in root) {
      if (!isFileKey(rest)) return false;
      // Any fault of the store (a bucket away, a folder unreadable) leaves the answer unknown.
      return root.store.head(rest).then(
        (info) => info !== null,
        () => 'unknown' as const,
      );
    }
    const file = path.resolve(root.dir, rest);
    if (!file.startsWith(root.dir + path.sep)) return false;
    return fs.promises.stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  private async exists(src: string, now = Date.now()): Promise<boolean> {
    const cached = this.known.get(src);
    if (cached === true || (cached !== undefined && cached > now)) return cached === true;
    const generation = this.generation;
    const found = await this.lookUp(src);
    if (found === 'unknown') return true;
    const keepMissing = this.changing.some((prefix) => src.startsWith(prefix)) ? now + MISSING_KEPT_MS : Infinity;
    // A forget while looking means the answer may already be out of date: not kept.
    if (generation === this.generation) this.known.set(src, found ? true : keepMissing);
    return found;
  }

  /** Every string in `data` that is the path of an image under a root whose file is missing, each once. */
  async missingIn(data: unknown): Promise<string[]> {
    if (this.roots.length === 0) return [];
    const paths = new Set<string>();
    const walk = (v: unknown, depth: number) => {
      if (typeof v === 'string') {
        if (v.length < 500 && this.roots.some((r) => v.startsWith(r.prefix))) paths.add(v);
      } else if (depth < MAX_DEPTH && Array.isArray(v)) {
        for (const item of v) walk(item, depth + 1);
      } else if (depth < MAX_DEPTH && v !== null && typeof v === 'object') {
        for (const item of Object.values(v)) walk(item, depth + 1);
      }
    };
    walk(data, 0);
    const list = [...paths];
    const found = await Promise.all(list.map((p) => this.exists(p)));
    return list.filter((_, i) => !found[i]);
  }

  /** Drops what is known of the changing roots (the uploads), or of every root with `all`. */
  forget(all = false): void {
    this.generation++;
    if (all) {
      this.known.clear();
      return;
    }
    for (const src of this.known.keys()) {
      if (this.changing.some((prefix) => src.startsWith(prefix))) this.known.delete(src);
    }
  }

  get size(): number {
    return this.known.size;
  }
}
