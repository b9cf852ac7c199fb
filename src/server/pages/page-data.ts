import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ProductListQuery } from '../../shared/schemas/catalog.js';
import { priceParam } from '../../shared/products-filter.js';
import type { InitialQuery } from '../../shared/query-keys.js';
import type { DataRef, PageDataArgs, PageDataKind, PageDataTypes } from '../../shared/page-declaration.js';
import { getProductDetail, listCategories, listFeaturedProducts, listProducts } from '../catalog/service.js';
import { getPublicSettings, listFaqs } from '../content/service.js';
import { toProductCard } from '../../shared/product-card.js';
import { listRelatedProducts } from '../catalog/related.js';

type Resolver<K extends PageDataKind> = (db: Kysely<Database>, arg: PageDataArgs[K]) => Promise<PageDataTypes[K] | null>;

/**
 * How the server reads each kind of page data: the same service call, and the same answer body,
 * as the API endpoint the browser would otherwise ask. null: the thing does not exist. The product
 * lists' items are cut to what their cards read (src/shared/product-card.ts): the full products
 * repeated the HTML's text and more, a fifth of the shop page's compressed bytes.
 */
const pageDataResolvers: { [K in PageDataKind]: Resolver<K> } = {
  // No page declares the settings: every page gets them from buildPageMeta, with the provider.
  settings: async (db) => ({ settings: await getPublicSettings(db, null) }),
  categories: async (db) => ({ items: await listCategories(db) }),
  featuredProducts: async (db) => ({ items: (await listFeaturedProducts(db)).map(toProductCard) }),
  products: async (db, filter) => {
    // The filter was read from the URL without zod (it also runs in the browser); the shop's
    // schema has the last word here, and anything it refuses is the unfiltered first page.
    const parsed = ProductListQuery.safeParse({
      ...(filter.search !== undefined ? { search: filter.search } : {}),
      ...(filter.category !== undefined ? { category: filter.category } : {}),
      ...(filter.sort !== undefined ? { sort: filter.sort } : {}),
      ...(filter.minPriceCents !== undefined ? { minPrice: priceParam(filter.minPriceCents) } : {}),
      ...(filter.maxPriceCents !== undefined ? { maxPrice: priceParam(filter.maxPriceCents) } : {}),
      page: filter.page,
      pageSize: filter.pageSize,
    });
    const list = await listProducts(db, parsed.success ? parsed.data : ProductListQuery.parse({}));
    return { ...list, items: list.items.map(toProductCard) };
  },
  product: async (db, id) => {
    if (id.length === 0 || id.length > 100) return null;
    // What GET /api/products/:id answers: the product, its options and variants, and its stock notice.
    return getProductDetail(db, id);
  },
  relatedProducts: async (db, id) => {
    if (id.length === 0 || id.length > 100) return null;
    const items = await listRelatedProducts(db, id);
    return items ? { items } : null;
  },
  faqs: async (db) => ({ items: await listFaqs(db) }),
};

function resolvePageDataRef<K extends PageDataKind>(db: Kysely<Database>, ref: DataRef<K>): Promise<PageDataTypes[K] | null> {
  return (pageDataResolvers[ref.kind] as Resolver<K>)(db, ref.arg as PageDataArgs[K]);
}

/**
 * Reads a page's declared data. The main data comes first, alone: when it is missing the page is
 * a 404 and nothing else is read. Returns the data by name (undefined: missing) and the entries
 * for the HTML, in declaration order.
 */
export async function resolvePageData(
  db: Kysely<Database>,
  refs: Record<string, DataRef>,
  main: string | undefined,
): Promise<{ data: Record<string, unknown>; initialData: InitialQuery[] }> {
  const data: Record<string, unknown> = {};
  const mainRef = main !== undefined ? refs[main] : undefined;
  if (main !== undefined && mainRef) {
    const value = await resolvePageDataRef(db, mainRef);
    if (value === null) return { data, initialData: [] };
    data[main] = value;
  }
  const rest = Object.entries(refs).filter(([name]) => name !== main);
  const values = await Promise.all(rest.map(([, ref]) => resolvePageDataRef(db, ref)));
  rest.forEach(([name], i) => {
    if (values[i] !== null) data[name] = values[i];
  });
  const initialData: InitialQuery[] = [];
  for (const [name, ref] of Object.entries(refs)) {
    if (data[name] !== undefined) initialData.push({ key: ref.key, data: data[name] });
  }
  return { data, initialData };
}

/**
 * The products whose stock or stars a page's data shows (anything with an `id` and an `inventory`:
 * a product, a list's cards, related products; each carries its `rating` beside its stock), so a
 * change of one product's stock or reviews drops only the pages showing that product (page-cache.ts).
 */
export function productIdsShown(initialData: InitialQuery[]): Set<string> {
  const ids = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 5 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    const o = value as Record<string, unknown>;
    if (typeof o.id === 'string' && typeof o.inventory === 'number') ids.add(o.id);
    for (const v of Object.values(o)) visit(v, depth + 1);
  };
  for (const q of initialData) visit(q.data, 0);
  return ids;
}
