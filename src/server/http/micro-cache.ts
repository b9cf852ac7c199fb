/**
 * A short-lived, in-process cache for things every shopper reads (the catalogue's answers, the
 * shipping options, a coupon's terms): each value is built once per key and per `ttlMs`, however
 * many requests ask at the same moment (concurrent misses share one build). Any successful
 * back-office write clears every cache in this process at once (see `clearAllCaches`), a change of
 * some products' stock or stars only those that show products (`showsProducts`); other processes
 * see a change within `ttlMs`. Rules that involve money or stock are never decided on cached
 * values: checkout re-reads and locks the rows.
 */
const everyCache = new Set<MicroCache<unknown>>();

/**
 * A `catalogue` change clears every cache; a change of some products' stock or stars (`stock`,
 * `ratings`: http/shop-changes.ts) only the caches that show products.
 */
export function clearAllCaches(kind: 'catalogue' | 'stock' | 'ratings' = 'catalogue'): void {
  for (const c of everyCache) if (kind === 'catalogue' || c.showsProducts) c.clear();
}

export class MicroCache<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>();
  private readonly pending = new Map<string, Promise<T>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    /**
     * For this long past its expiry a value is still answered at once while one caller rebuilds it
     * (stale-while-revalidate); 0 means callers wait for the fresh value.
     */
    private readonly staleForMs = 0,
    /**
     * Its values show products' stock (levels or units reserved) or stars (reviews): a change of
     * some products' stock or ratings clears it too.
     */
    readonly showsProducts = false,
    /** The clock expiry is read from (tests move it instead of sleeping). */
    private readonly now: () => number = Date.now,
  ) {
    everyCache.add(this as MicroCache<unknown>);
  }

  /** `ttlFor` may give a value its own lifetime (a big count can be reused for longer than a small one). */
  get(key: string, build: () => Promise<T>, ttlFor?: (value: T) => number): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return Promise.resolve(hit.value);
    const waiting = this.pending.get(key);
    if (hit && hit.expires + this.staleForMs > this.now()) {
      if (!waiting) this.rebuild(key, build, ttlFor).catch(() => undefined);
      return Promise.resolve(hit.value);
    }
    if (waiting) return waiting;
    return this.rebuild(key, build, ttlFor);
  }

  private rebuild(key: string, build: () => Promise<T>, ttlFor?: (value: T) => number): Promise<T> {
    const generation = this.generation;
    const built = build()
      .then((value) => {
        // A clear() while this was building means the value may already be stale: don't keep it.
        if (generation === this.generation && this.ttlMs > 0) {
          if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
          this.entries.set(key, { value, expires: this.now() + (ttlFor ? ttlFor(value) : this.ttlMs) });
        }
        return value;
      })
      .finally(() => {
        if (this.pending.get(key) === built) this.pending.delete(key);
      });
    this.pending.set(key, built);
    return built;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
