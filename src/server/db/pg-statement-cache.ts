/*
 * Which statement texts a PostgreSQL connection has prepared, and under which names (decision 0050).
 *
 * A least-recently-used list: a text used again moves to the back, and when a new text needs room
 * the one at the front is evicted; its name is handed back so the connection can DEALLOCATE it on
 * the server. Names are never reused (`s1`, `s2`, … per connection): node-pg remembers every name it
 * has parsed on a connection for the connection's life, and would skip the Parse of a reused name.
 */

/** A prepared statement's name, and the name evicted to make room for it (to deallocate). */
export type NamedStatement = { name: string; evicted?: string };

export class PreparedStatements {
  /** Text → name, oldest use first (a Map keeps insertion order). */
  private readonly names = new Map<string, string>();
  /** Names given so far on this connection. */
  given = 0;

  constructor(
    /** Texts kept prepared at once. */
    readonly capacity: number,
    /** Longer texts run unnamed (a one-off import or a long list of values is not worth keeping). */
    readonly longest: number,
  ) {}

  get size(): number {
    return this.names.size;
  }

  /** The name to run `text` under, preparing it when new; undefined when it runs unnamed. */
  nameFor(text: string): NamedStatement | undefined {
    const known = this.names.get(text);
    if (known !== undefined) {
      this.names.delete(text);
      this.names.set(text, known);
      return { name: known };
    }
    if (this.capacity <= 0 || text.length > this.longest) return undefined;
    let evicted: string | undefined;
    if (this.names.size >= this.capacity) {
      const [oldest, name] = this.names.entries().next().value as [string, string];
      this.names.delete(oldest);
      evicted = name;
    }
    const name = `s${++this.given}`;
    this.names.set(text, name);
    return { name, evicted };
  }

  /** Forgets every text (the server's copies are deallocated by the caller). */
  clear(): void {
    this.names.clear();
  }
}
