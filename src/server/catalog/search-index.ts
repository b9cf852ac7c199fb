import { sql, type Kysely } from 'kysely';
import type { Database, ProductRow } from '../db/schema.js';
import type { Product, ProductListFilter, ProductPage } from '../../shared/schemas/catalog.js';
import { onShopChange, type ShopChange } from '../http/shop-changes.js';
import { toProduct } from './product-row.js';
import { buyableParts, disabledLevels, heldInShop } from '../inventory/service.js';
import { stockWrittenSince } from '../inventory/stock.js';
import { variantSearchTexts } from './variant-reads.js';
import { readCardRatings, type CardRating } from '../lib/product-reviews.js';

/**
 * The shop list and its search, answered from memory (decision 0010).
 *
 * Each process keeps the catalogue's products in shop order ("N -" numbered first, by number, then
 * price, then name: the order the database gives them), each with its answer JSON cut around the
 * stock figure (stock is spliced in per page: it moves without the rest changing), and the list
 * of products of each category, of the featured ones and of the others.
 *
 * The search rule is the one the database applied before, exactly: the product's name or its
 * description, lowered by the database's own `lower()` (SQLite folds ASCII letters only,
 * PostgreSQL every letter), contains the text lowered by JavaScript, every character of it literal
 * (LIKE with its wildcards escaped). Since variants (decision 0036) a product is also found by one
 * of its options' values or the SKU of one of its enabled variants (its own `sku` when it has one:
 * variant-reads.ts variantSearchTexts), each a text of its own. The lowered texts of every product
 * are laid end to end in one string, in shop order, each closed by a NUL (which no text searched
 * for holds), and:
 * - every three-unit piece (UTF-16 code units) of that string has the list of where it starts;
 *   a text of three units or more is found by the pieces that tile it (at offsets 0, 3, 6, … and
 *   its last three units), their lists walked together at those distances: where all of them line
 *   up, every unit of the text is there, so each hit is a match, with nothing checked again. The
 *   hits come in order of position, so in shop order, a product's several hits next to each other;
 * - every one- and two-unit piece has the list of products that contain it, which answers the
 *   shortest texts exactly.
 * So a search costs what its pieces' lists hold, never the catalogue's size, and the page comes
 * out in shop order; a search without a chosen order then puts the products whose name holds the
 * text first (decision 0033), which costs what it finds.
 *
 * What the shop shows as stock is withBuyableStock's figure (inventory/service.ts buyableParts):
 * the units of the product's enabled variants (its `inventory` less what switched-off variants
 * hold, read once per build: most shops have none) less the units open checkouts hold of them.
 *
 * Kept fresh by the shop's change signal (src/server/http/shop-changes.ts; this process at once
 * for its own back-office writes, the others on their next poll): after any change the open holds
 * are read again, and the products written since the last look (`updated_at`, indexed; the last
 * minute's writes each time, see SETTLE_MS) with those whose stock items were (a level moved by a
 * sale, a return or a count stamps the item, not the product: the product's row stays a HOT update
 * on sale day). When only their stock moved, that is all; when a product was added, edited or
 * (after a back-office write, by the count) removed, the index is built again. The first request
 * after a change waits for that, so a process always answers what it has itself written.
 *
 * Each product's stars (its `rating`: reviews, issue [6/8]) are spliced in at the end of its JSON,
 * as its stock is in the middle: a `ratings` change of some products (a review published, edited or
 * hidden) reads those products' ratings rows again and nothing else, and the "Top rated" order
 * (average high to low, then more reviews first, then shop order; products without a published
 * review last) is sorted again when next asked for.
 */

/**
 * A product's answer JSON around its stock figure, without its closing brace:
 * `${head}${stock}${tail}` then `,"rating":{…}` when it has one, then `}`.
 */
type Fragment = { head: string; tail: string };

type Built = {
  size: number;
  ids: string[];
  fragments: Fragment[];
  sortNumbers: (number | null)[];
  /** Units on hand of the product's enabled variants, by position. */
  stock: Int32Array;
  positionOf: Map<string, number>;
  /** Where each three-unit piece of the lowered texts starts, ascending. */
  starts: Map<number, Uint32Array>;
  /** The product each unit of the lowered texts belongs to. */
  productAt: Uint32Array;
  /** Each product's lowered name, by position (a search ranks the products whose name holds it first). */
  loweredNames: string[];
  /** Each product's texts besides name and description (option values, SKUs), NUL-joined, by position ('' for none). */
  extraTexts: string[];
  /** One- and two-unit pieces → the products containing them, ascending. */
  shortPieces: Map<number, Uint32Array>;
  all: Uint32Array;
  byCategory: Map<string, Uint32Array>;
  categoryOf: (string | null)[];
  featured: Uint32Array;
  unfeatured: Uint32Array;
  isFeatured: Uint8Array;
  /** Price in cents, by position; positions by price (ties in shop order) and each one's rank there. */
  price: Int32Array;
  byPrice: Uint32Array;
  priceRank: Uint32Array;
  /** Positions newest first (ties in shop order) and each one's rank there. */
  newest: Uint32Array;
  newestRank: Uint32Array;
  /** Each product's stars (absent: no published review), by position, as the answer writes them (`,"rating":{…}`). */
  ratingJson: Map<number, string>;
  ratings: Map<number, CardRating>;
  /** Positions top rated first (ties in shop order) and each one's rank there; null once a rating moved (sorted again when asked). */
  rated: { byRating: Uint32Array; ratingRank: Uint32Array } | null;
  /** Units of enabled variants held by open checkouts (each variant's up to its level), by position (none: absent). */
  held: Map<number, number>;
  /** Every product write stamped up to this has been read (later ones are read at each refresh: see SETTLE_MS). */
  readUpTo: string;
};

/** A page of positions and the number of products matched. */
type Found = { positions: number[]; total: number };

/** Bumped by every change of the shop, and by every back-office one. */
let changes = 0;
let catalogueChanges = 0;
/**
 * The last changes of some products (their stock, or their stars), each with the value of `changes`
 * it made and its products (each index reads what it has not seen).
 */
const productLog: { change: number; kind: 'stock' | 'ratings'; productIds: ReadonlySet<string> }[] = [];
const PRODUCT_LOG_SIZE = 1000;
onShopChange((change: ShopChange) => {
  changes++;
  if (change.kind === 'catalogue') catalogueChanges++;
  else {
    productLog.push({ change: changes, kind: change.kind, productIds: change.productIds });
    if (productLog.length > PRODUCT_LOG_SIZE) productLog.shift();
  }
});

/**
 * The products whose stock, and those whose stars, changed after change `seen` up to `upTo`, or
 * null when the log no longer reaches back that far.
 */
function productsMovedBetween(seen: number, upTo: number): { stock: Set<string>; ratings: Set<string> } | null {
  if (productLog.length > 0 && productLog[0]!.change > seen + 1) return null;
  const moved = { stock: new Set<string>(), ratings: new Set<string>() };
  for (const entry of productLog)
    if (entry.change > seen && entry.change <= upTo) for (const id of entry.productIds) moved[entry.kind].add(id);
  return moved;
}

const STOCK_MARK = -987654321;

/**
 * A product write is stamped (`updated_at`) before its transaction commits, so a write stamped a
 * moment ago may not be visible yet: the index counts as seen only writes stamped this long ago,
 * and reads the later ones again at each refresh (as many as were written in this time).
 */
const SETTLE_MS = 60_000;
/** Stock items written since the last look that a refresh reads at most; more, and the index is built again. */
const STOCK_READ_LIMIT = 5000;
function settledBefore(): string {
  return new Date(Date.now() - SETTLE_MS).toISOString();
}

/** The product's JSON (read from its row: no `rating`) cut around its stock, without its closing brace. */
function fragmentOf(product: Product): Fragment {
  const json = JSON.stringify({ ...product, inventory: STOCK_MARK });
  // String values have their quotes escaped, so this unescaped key is the field itself.
  const mark = `"inventory":${STOCK_MARK}`;
  const at = json.lastIndexOf(mark);
  return { head: json.slice(0, at + mark.length - String(STOCK_MARK).length), tail: json.slice(at + mark.length, -1) };
}

/** A card's stars as JSON.stringify writes a product's last field. */
function ratingJsonOf(rating: CardRating): string {
  return `,"rating":${JSON.stringify({ average: rating.average, count: rating.count })}`;
}

/** Top rated first: average high to low, then more reviews first, then shop order (the position); none last. */
function ratedOrder(size: number, ratings: Map<number, CardRating>): { byRating: Uint32Array; ratingRank: Uint32Array } {
  const rated = [...ratings.keys()].sort((x, y) => {
    const a = ratings.get(x)!;
    const b = ratings.get(y)!;
    return b.average - a.average || b.count - a.count || x - y;
  });
  const order = rated.slice();
  for (let p = 0; p < size; p++) if (!ratings.has(p)) order.push(p);
  return ordered(order, 'byRating', 'ratingRank');
}

/** A piece of one to three code units as a number (each unit below 2^16: at most 2^48, exact). */
function pieceKey(text: string, at: number, length: number): number {
  let key = 0;
  for (let i = 0; i < length; i++) key = key * 65536 + text.charCodeAt(at + i);
  // Lengths are told apart: a one-unit key is below 2^16, a two-unit one below 2^32.
  return length === 3 ? key + 2 ** 48 : length === 2 ? key + 2 ** 32 : key;
}

/** The first index in `list`, from `from`, whose value is at least `value` (galloping search). */
function seek(list: Uint32Array, from: number, value: number): number {
  if (from >= list.length || list[from]! >= value) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < list.length && list[hi]! < value) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > list.length) hi = list.length;
  // list[lo] < value, and list[hi] >= value or hi is the end.
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid;
    else hi = mid;
  }
  return hi;
}

function pushTo<K>(lists: Map<K, number[]>, key: K, value: number): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [value]);
  // Values arrive in order: a product already listed is the list's last entry.
  else if (list[list.length - 1] !== value) list.push(value);
}

function frozen<K>(lists: Map<K, number[]>): Map<K, Uint32Array> {
  const out = new Map<K, Uint32Array>();
  for (const [key, list] of lists) out.set(key, Uint32Array.from(list));
  return out;
}

const EMPTY = new Uint32Array(0);

/** Counts the matches, keeping those in [start, end) of the ones `accept` lets through. */
class Pager {
  positions: number[] = [];
  total = 0;
  constructor(
    readonly start: number,
    readonly end: number,
    readonly accept: ((p: number) => boolean) | null,
  ) {}
  add(p: number): void {
    if (this.accept !== null && !this.accept(p)) return;
    if (this.total >= this.start && this.total < this.end) this.positions.push(p);
    this.total++;
  }
}

/** An order of the positions as `{ [list]: positions, [rank]: each position's index in it }`. */
function ordered<L extends string, R extends string>(order: number[], list: L, rank: R): Record<L | R, Uint32Array> {
  const ranks = new Uint32Array(order.length);
  order.forEach((p, i) => (ranks[p] = i));
  return { [list]: Uint32Array.from(order), [rank]: ranks } as Record<L | R, Uint32Array>;
}

/** In `order` (positions by ascending `price`), the first index whose price is at least `cents`. */
function firstAtLeast(order: Uint32Array, price: Int32Array, cents: number): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (price[order[mid]!]! < cents) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function slice(list: Uint32Array, start: number, end: number): Found {
  return { positions: Array.from(list.subarray(start, end)), total: list.length };
}

type IndexedRow = ProductRow & { lowered_name: string; lowered_description: string; lowered_sku: string | null };

/**
 * A product's search texts besides its name and description: its SKU when one variant is on sale
 * (the product row's copy of it), then its options' values and, with several on sale, their SKUs.
 */
function extraTextsOf(row: IndexedRow, variantTexts: Map<string, string[]>): string[] {
  const own = row.sole_variant_id !== null && row.lowered_sku ? [row.lowered_sku] : [];
  const more = variantTexts.get(row.id);
  return more ? own.concat(more) : own;
}

class CatalogueIndex {
  private built: Built | null = null;
  private seenChanges = -1;
  private seenCatalogueChanges = -1;
  private pending: Promise<void> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  /** The index as fresh as the shop was when this was called (waits for a refresh when needed). */
  private async current(): Promise<Built> {
    const want = changes;
    while (this.built === null || this.seenChanges < want) {
      this.pending ??= this.refresh().finally(() => {
        this.pending = null;
      });
      await this.pending;
    }
    return this.built;
  }

  private async refresh(): Promise<void> {
    const seen = changes;
    const seenCatalogue = catalogueChanges;
    const built = this.built;
    const catalogueChanged = seenCatalogue !== this.seenCatalogueChanges;
    const moved = built !== null && !catalogueChanged ? productsMovedBetween(this.seenChanges, seen) : null;
    // Only stock or stars moved: those products' figures are read again, nothing else (a sale or a
    // review of one product costs one row).
    if (built !== null && moved !== null)
      await Promise.all([this.refreshStockOf(built, moved.stock), this.refreshRatingsOf(built, moved.ratings)]);
    else if (built === null || !(await this.refreshStock(built, catalogueChanged))) this.built = await this.build();
    this.seenChanges = seen;
    this.seenCatalogueChanges = seenCatalogue;
  }

  /** Only active products: a draft is not in the shop list, search or filters (migration 0037). */
  private productRows() {
    return this.db
      .selectFrom('products')
      .where('status', '=', 'active')
      .selectAll()
      .select([
        sql<string>`lower(name)`.as('lowered_name'),
        sql<string>`lower(description)`.as('lowered_description'),
        sql<string | null>`lower(sku)`.as('lowered_sku'),
      ]);
  }

  private async build(): Promise<Built> {
    const now = new Date().toISOString();
    const [rows, holds, disabled, variantTexts, ratingsById] = await Promise.all([
      this.productRows()
        .orderBy(sql`case when sort_number is null then 1 else 0 end`)
        .orderBy('sort_number')
        .orderBy('price_cents')
        .orderBy('name')
        .orderBy('id')
        .execute() as Promise<IndexedRow[]>,
      this.readHolds(now),
      disabledLevels(this.db),
      variantSearchTexts(this.db),
      readCardRatings(this.db, null),
    ]);
    const size = rows.length;
    const ids = new Array<string>(size);
    const fragments = new Array<Fragment>(size);
    const sortNumbers = new Array<number | null>(size);
    const categoryOf = new Array<string | null>(size);
    const stock = new Int32Array(size);
    const isFeatured = new Uint8Array(size);
    const price = new Int32Array(size);
    const created = new Array<string>(size);
    const positionOf = new Map<string, number>();
    const categories = new Map<string, number[]>();
    const featured: number[] = [];
    const unfeatured: number[] = [];
    const settled = settledBefore();
    let readUpTo = '';
    // The lowered texts end to end, each closed by a NUL; each product's end, by position.
    const texts: string[] = [];
    const ends = new Uint32Array(size);
    let length = 0;
    const loweredNames = new Array<string>(size);
    const extraTexts = new Array<string>(size);
    rows.forEach((row, p) => {
      loweredNames[p] = row.lowered_name;
      const product = toProduct(row);
      ids[p] = product.id;
      fragments[p] = fragmentOf(product);
      sortNumbers[p] = row.sort_number;
      categoryOf[p] = product.category;
      stock[p] = product.inventory - (disabled.get(product.id) ?? 0);
      isFeatured[p] = product.featured ? 1 : 0;
      price[p] = product.priceCents;
      created[p] = product.createdAt;
      positionOf.set(product.id, p);
      if (product.category !== null) pushTo(categories, product.category, p);
      (product.featured ? featured : unfeatured).push(p);
      if (row.updated_at > readUpTo) readUpTo = row.updated_at;
      texts.push(row.lowered_name, '\u0000', row.lowered_description, '\u0000');
      length += row.lowered_name.length + row.lowered_description.length + 2;
      const extras = extraTextsOf(row, variantTexts);
      extraTexts[p] = extras.join('\u0000');
      for (const extra of extras) {
        texts.push(extra, '\u0000');
        length += extra.length + 1;
      }
      ends[p] = length;
    });
    const text = texts.join('');
    const productAt = new Uint32Array(text.length);
    const startLists = new Map<number, number[]>();
    const shortLists = new Map<number, number[]>();
    let p = 0;
    for (let i = 0; i < text.length; i++) {
      // Each product's texts end where `ends` says (after its name, description and other texts, each closed by a NUL).
      while (i >= ends[p]!) p++;
      productAt[i] = p;
      const c0 = text.charCodeAt(i);
      if (c0 === 0) continue;
      pushTo(shortLists, c0, p);
      const c1 = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c1 === 0) continue;
      pushTo(shortLists, 2 ** 32 + c0 * 65536 + c1, p);
      const c2 = i + 2 < text.length ? text.charCodeAt(i + 2) : 0;
      if (c2 === 0) continue;
      const key = 2 ** 48 + (c0 * 65536 + c1) * 65536 + c2;
      const list = startLists.get(key);
      if (list === undefined) startLists.set(key, [i]);
      else list.push(i);
    }
    return {
      size,
      ids,
      fragments,
      sortNumbers,
      stock,
      positionOf,
      starts: frozen(startLists),
      productAt,
      loweredNames,
      extraTexts,
      shortPieces: frozen(shortLists),
      all: Uint32Array.from(ids.keys()),
      byCategory: frozen(categories),
      categoryOf,
      featured: Uint32Array.from(featured),
      unfeatured: Uint32Array.from(unfeatured),
      isFeatured,
      price,
      ...ordered(
        Array.from(ids.keys()).sort((x, y) => price[x]! - price[y]! || x - y),
        'byPrice',
        'priceRank',
      ),
      ...ordered(
        Array.from(ids.keys()).sort((x, y) => (created[x]! < created[y]! ? 1 : created[x]! > created[y]! ? -1 : x - y)),
        'newest',
        'newestRank',
      ),
      held: this.heldByPosition(holds, positionOf),
      ...this.ratingsByPosition(ratingsById, positionOf),
      rated: null,
      readUpTo: readUpTo < settled ? readUpTo : settled,
    };
  }

  private ratingsByPosition(
    ratingsById: Map<string, CardRating>,
    positionOf: Map<string, number>,
  ): { ratings: Map<number, CardRating>; ratingJson: Map<number, string> } {
    const ratings = new Map<number, CardRating>();
    const ratingJson = new Map<number, string>();
    for (const [id, rating] of ratingsById) {
      const p = positionOf.get(id);
      if (p === undefined) continue;
      ratings.set(p, rating);
      ratingJson.set(p, ratingJsonOf(rating));
    }
    return { ratings, ratingJson };
  }

  /** These products' stars, read again (one read of their ratings rows); the "Top rated" order is sorted again when next asked. */
  private async refreshRatingsOf(built: Built, productIds: ReadonlySet<string>): Promise<void> {
    const ids = [...productIds].filter((id) => built.positionOf.has(id));
    if (ids.length === 0) return;
    const ratings = await readCardRatings(this.db, ids);
    for (const id of ids) {
      const p = built.positionOf.get(id)!;
      const rating = ratings.get(id);
      if (rating) {
        built.ratings.set(p, rating);
        built.ratingJson.set(p, ratingJsonOf(rating));
      } else {
        built.ratings.delete(p);
        built.ratingJson.delete(p);
      }
    }
    built.rated = null;
  }

  /** The "Top rated" order, sorted once after the stars last moved. */
  private ratedOf(built: Built): { byRating: Uint32Array; ratingRank: Uint32Array } {
    return (built.rated ??= ratedOrder(built.size, built.ratings));
  }

  /** What open checkouts keep from shoppers now, by product (as many rows as variants in open checkouts). */
  private readHolds(now: string): Promise<Map<string, number>> {
    return heldInShop(this.db, new Date(now));
  }

  private heldByPosition(holds: Map<string, number>, positionOf: Map<string, number>): Map<number, number> {
    const held = new Map<number, number>();
    for (const [id, units] of holds) {
      const p = positionOf.get(id);
      if (p !== undefined) held.set(p, units);
    }
    return held;
  }

  /**
   * After a change: the open holds, and the products written, or whose stock items were, since the
   * last look. True when only their stock moved (applied here); false when the index must be built
   * again (a product added or edited, or, after a back-office write (`countToo`), one removed).
   */
  private async refreshStock(built: Built, countToo: boolean): Promise<boolean> {
    const now = new Date().toISOString();
    const settled = settledBefore();
    const [holds, written, stockMoved, counted] = await Promise.all([
      this.readHolds(now),
      this.productRows().where('updated_at', '>', built.readUpTo).execute() as Promise<IndexedRow[]>,
      // A sale, a refund's return or a count moves the product's copy of its level without stamping
      // the product: its stock items' stamps say so.
      stockWrittenSince(this.db, built.readUpTo, STOCK_READ_LIMIT),
      countToo
        ? this.db
            .selectFrom('products')
            .where('status', '=', 'active')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirst()
        : null,
    ]);
    if (counted && Number(counted.n) !== built.size) return false;
    if (stockMoved.length === STOCK_READ_LIMIT) return false;
    const writtenIds = new Set(written.map((r) => r.id));
    const stockOnly = [...new Set(stockMoved.map((i) => i.productId))].filter((id) => !writtenIds.has(id));
    const changed = stockOnly.length
      ? [...written, ...((await this.productRows().where('id', 'in', stockOnly).execute()) as IndexedRow[])]
      : written;
    const moved: [number, number][] = [];
    for (const row of changed) {
      const p = built.positionOf.get(row.id);
      if (p === undefined) return false;
      const product = toProduct(row);
      const fragment = fragmentOf(product);
      const was = built.fragments[p]!;
      if (fragment.head !== was.head || fragment.tail !== was.tail || row.sort_number !== built.sortNumbers[p]) return false;
      moved.push([p, product.inventory]);
    }
    if (changed.length > 0) {
      // Written products: their options, variants' SKUs and switched-off units, read again (the
      // back office stamps the product when it changes its variants).
      const ids = changed.map((r) => r.id);
      const [disabled, variantTexts] = await Promise.all([disabledLevels(this.db, ids), variantSearchTexts(this.db, ids)]);
      for (const row of changed)
        if (extraTextsOf(row, variantTexts).join('\u0000') !== built.extraTexts[built.positionOf.get(row.id)!]) return false;
      moved.forEach((m, i) => (m[1] -= disabled.get(changed[i]!.id) ?? 0));
    }
    for (const [p, units] of moved) built.stock[p] = units;
    let seen = built.readUpTo;
    for (const row of written) if (row.updated_at > seen) seen = row.updated_at;
    for (const item of stockMoved) if (item.at > seen) seen = item.at;
    built.readUpTo = seen < settled ? seen : settled;
    built.held = this.heldByPosition(holds, built.positionOf);
    return true;
  }

  /** The units of these products' enabled variants and the units held of them, read again (one grouped read). */
  private async refreshStockOf(built: Built, productIds: ReadonlySet<string>): Promise<void> {
    const ids = [...productIds].filter((id) => built.positionOf.has(id));
    if (ids.length === 0) return;
    const parts = await buyableParts(this.db, ids, new Date());
    for (const id of ids) {
      const p = built.positionOf.get(id)!;
      const part = parts.get(id);
      built.stock[p] = part?.onHand ?? 0;
      const units = part?.held ?? 0;
      if (units > 0) built.held.set(p, units);
      else built.held.delete(p);
    }
  }

  /** Builds the index ahead of the first request. */
  async warm(): Promise<void> {
    await this.current();
  }

  /** The filter's page (positions) and its number of matches. */
  private find(built: Built, filter: ProductListFilter): Found {
    const text = filter.search === undefined ? '' : filter.search.toLowerCase();
    const start = (filter.page - 1) * filter.pageSize;
    const end = start + filter.pageSize;
    const min = filter.minPriceCents ?? 0;
    const max = filter.maxPriceCents ?? Infinity;
    const priced = filter.minPriceCents !== undefined || filter.maxPriceCents !== undefined;
    const sort = filter.sort;
    const onlyOrder = text.length === 0 && filter.category === undefined && filter.featured === undefined;
    // The whole list in price order, or newest first: a slice (by price, the range found by halving).
    if (onlyOrder && (sort === 'price-asc' || sort === 'price-desc')) {
      const from = firstAtLeast(built.byPrice, built.price, min);
      const to = max === Infinity ? built.size : firstAtLeast(built.byPrice, built.price, max + 1);
      const total = to - from;
      const positions: number[] = [];
      for (let i = start; i < end && i < total; i++) positions.push(built.byPrice[sort === 'price-asc' ? from + i : to - 1 - i]!);
      return { positions, total };
    }
    if (onlyOrder && sort === 'newest' && !priced) return slice(built.newest, start, end);
    if (onlyOrder && sort === 'rating' && !priced) return slice(this.ratedOf(built).byRating, start, end);
    // Otherwise the matches are found in shop order; reordered, priced or searched, they are all kept first.
    // A search in shop order ranks the products whose name holds the text above those that have it in
    // their description only (each group in shop order): a shopper typing "mop" wants mops first.
    const ranked = sort === undefined && text.length > 0;
    const pager = new Pager(
      sort === undefined && !ranked ? start : 0,
      sort === undefined && !ranked ? end : Infinity,
      priced ? (p) => built.price[p]! >= min && built.price[p]! <= max : null,
    );
    if (text.length >= 3) this.findText(built, text, filter, pager);
    else this.findLists(built, text, filter, pager);
    if (ranked) {
      const inName = pager.positions.filter((p) => built.loweredNames[p]!.includes(text));
      const inDescription = pager.positions.filter((p) => !built.loweredNames[p]!.includes(text));
      return { positions: inName.concat(inDescription).slice(start, end), total: pager.total };
    }
    if (sort === undefined) return { positions: pager.positions, total: pager.total };
    const { rank, order } =
      sort === 'newest'
        ? { rank: built.newestRank, order: built.newest }
        : sort === 'rating'
          ? { rank: this.ratedOf(built).ratingRank, order: this.ratedOf(built).byRating }
          : { rank: built.priceRank, order: built.byPrice };
    const ranks = Uint32Array.from(pager.positions, (p) => rank[p]!).sort();
    if (sort === 'price-desc') ranks.reverse();
    return { positions: Array.from(ranks.subarray(start, end), (r) => order[r]!), total: pager.total };
  }

  /** The unsearched list and texts under three units: lists of products, intersected. */
  private findLists(built: Built, text: string, filter: ProductListFilter, pager: Pager): void {
    const lists: Uint32Array[] = [];
    if (filter.category !== undefined) lists.push(built.byCategory.get(filter.category) ?? EMPTY);
    if (filter.featured !== undefined) lists.push(filter.featured ? built.featured : built.unfeatured);
    if (text.length > 0) lists.push(built.shortPieces.get(pieceKey(text, 0, text.length)) ?? EMPTY);
    if (lists.length === 0) lists.push(built.all);
    lists.sort((a, b) => a.length - b.length);
    const driver = lists[0]!;
    if (lists.length === 1 && pager.accept === null && pager.end !== Infinity) {
      // One list and nothing to check: its length is the count.
      pager.positions = Array.from(driver.subarray(pager.start, pager.end));
      pager.total = driver.length;
      return;
    }
    const others = lists.slice(1);
    const at = new Array<number>(others.length).fill(0);
    // Driven by the shortest list; every other list is searched forward from where it last stopped.
    outer: for (let i = 0; i < driver.length; i++) {
      const p = driver[i]!;
      for (let k = 0; k < others.length; k++) {
        const list = others[k]!;
        const j = seek(list, at[k]!, p);
        at[k] = j;
        if (j >= list.length) break outer;
        if (list[j] !== p) continue outer;
      }
      pager.add(p);
    }
  }

  /** A text of three units or more: the lists of the pieces tiling it, walked together. */
  private findText(built: Built, text: string, filter: ProductListFilter, pager: Pager): void {
    if (text.includes('\u0000')) return;
    const offsets: number[] = [];
    for (let o = 0; o + 3 <= text.length; o += 3) offsets.push(o);
    if (offsets[offsets.length - 1] !== text.length - 3) offsets.push(text.length - 3);
    const tiles: { offset: number; list: Uint32Array }[] = [];
    for (const offset of offsets) {
      const list = built.starts.get(pieceKey(text, offset, 3));
      if (list === undefined) return;
      tiles.push({ offset, list });
    }
    tiles.sort((a, b) => a.list.length - b.list.length);
    const driver = tiles[0]!.list;
    const driverOffset = tiles[0]!.offset;
    const lists = tiles.slice(1).map((t) => t.list);
    const offsetsOf = tiles.slice(1).map((t) => t.offset);
    const at = new Array<number>(lists.length).fill(0);
    const category = filter.category;
    const featured = filter.featured === undefined ? -1 : filter.featured ? 1 : 0;
    // The hot loop reads locals only.
    const { productAt, categoryOf, isFeatured } = built;
    const count = lists.length;
    let last = -1;
    outer: for (let i = 0; i < driver.length; i++) {
      // Where the text would begin for this hit of the driving piece.
      const begin = driver[i]! - driverOffset;
      if (begin < 0) continue;
      for (let k = 0; k < count; k++) {
        const list = lists[k]!;
        const want = begin + offsetsOf[k]!;
        let j = at[k]!;
        // A few steps forward, else a galloping search (lists of very different lengths).
        for (let step = 0; step < 4 && j < list.length && list[j]! < want; step++) j++;
        if (j < list.length && list[j]! < want) j = seek(list, j, want);
        at[k] = j;
        if (j >= list.length) break outer;
        if (list[j] !== want) continue outer;
      }
      const p = productAt[begin]!;
      if (p === last) continue;
      last = p;
      if (category !== undefined && categoryOf[p] !== category) continue;
      if (featured >= 0 && isFeatured[p] !== featured) continue;
      pager.add(p);
    }
  }

  /** The stock shown for a page's products (withBuyableStock's rule): each one's buyable units, then `,"held":N` when some are held. */
  private stockOf(built: Built, positions: number[]): string[] {
    const anyHeld = built.held.size > 0 && positions.some((p) => built.held.has(p));
    return positions.map((p) => {
      if (!anyHeld) return String(built.stock[p]!);
      const held = Math.min(built.stock[p]!, built.held.get(p) ?? 0);
      return held > 0 ? `${Math.max(0, built.stock[p]! - held)},"held":${held}` : String(built.stock[p]!);
    });
  }

  /** The list's answer body, exactly as JSON.stringify(ProductPage) would write it. */
  async pageJson(filter: ProductListFilter): Promise<string> {
    const built = this.built !== null && this.seenChanges === changes ? this.built : await this.current();
    const { positions, total } = this.find(built, filter);
    const stock = this.stockOf(built, positions);
    let items = '';
    positions.forEach((p, i) => {
      const fragment = built.fragments[p]!;
      items += `${i > 0 ? ',' : ''}${fragment.head}${stock[i]}${fragment.tail}${built.ratingJson.get(p) ?? ''}}`;
    });
    const totalPages = Math.max(1, Math.ceil(total / filter.pageSize));
    return `{"items":[${items}],"page":${filter.page},"pageSize":${filter.pageSize},"total":${total},"totalPages":${totalPages}}`;
  }

  async page(filter: ProductListFilter): Promise<ProductPage> {
    return JSON.parse(await this.pageJson(filter)) as ProductPage;
  }
}

const indexes = new WeakMap<Kysely<Database>, CatalogueIndex>();

/** This process's index of the database's catalogue (one per database handle). */
export function catalogueIndex(db: Kysely<Database>): CatalogueIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = new CatalogueIndex(db)));
  return index;
}
