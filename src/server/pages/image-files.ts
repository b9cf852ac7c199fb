import fs from 'node:fs';
import path from 'node:path';

/** A public path prefix and the folder its files are served from. */
type ImageRoot = { prefix: string; dir: string };

/** Longest walk into a page's data: far deeper than any answer the pages embed. */
const MAX_DEPTH = 8;

/**
 * Which image files the server has, so a page can draw a missing picture as "Image not
 * available" in its HTML instead of an <img> the browser shows as broken before the page's
 * scripts run. Only paths under the roots (built public images, uploads) are judged; anything
 * else (another site's picture) is taken as present.
 *
 * Cheap by design: each path is looked up on disk once and remembered. The uploads change only
 * through the back office, whose every write is a shop change (shop-changes.ts): `forget` is
 * called then, in every process, before pages are drawn again. The built images change only
 * when the client is rebuilt (`forget(true)`, in development).
 */
export class ImageFiles {
  private readonly known = new Map<string, boolean>();
  private generation = 0;
  private readonly roots: ImageRoot[];

  /** `changing`: the prefixes whose files come and go while the server runs (the uploads). */
  constructor(
    roots: ImageRoot[],
    private readonly changing: readonly string[] = [],
  ) {
    this.roots = roots.map((r) => ({ ...r, dir: path.resolve(r.dir) }));
  }

  /** The file a public path names, '' when the path cannot name one of ours (always missing), null when it is not under a root. */
  private fileOf(src: string): string | null {
    const root = this.roots.find((r) => src.startsWith(r.prefix));
    if (!root) return null;
    let rest: string;
    try {
      rest = decodeURIComponent(src.slice(root.prefix.length).split(/[?#]/)[0]!);
    } catch {
      return '';
    }
    if (rest.includes('\0')) return '';
    const file = path.resolve(root.dir, rest);
    return file.startsWith(root.dir + path.sep) ? file : '';
  }

  private async exists(src: string): Promise<boolean> {
    const cached = this.known.get(src);
    if (cached !== undefined) return cached;
    const file = this.fileOf(src);
    if (file === null) return true;
    const generation = this.generation;
    const found =
      file !== '' &&
      (await fs.promises.stat(file).then(
        (s) => s.isFile(),
        () => false,
      ));
    // A forget while looking means the answer may already be out of date: not kept.
    if (generation === this.generation) this.known.set(src, found);
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
