import type { ZodType } from 'zod';
import type { ResponseSchemas } from './load-response-schemas.js';

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The cache holds each endpoint's JSON body (`{ items }`, `{ product }`, `{ settings }`, the
 * ProductPage). The server is expected to embed exactly those bodies; a bare list/object is
 * wrapped, so a small difference in the server's choice does not cost the first paint.
 */
export function toResponseShape([root, kind]: readonly unknown[], data: unknown): unknown {
  const listKey = root === 'categories' || root === 'faqs' || (root === 'products' && kind === 'featured');
  if (listKey && Array.isArray(data)) return { items: data };
  if (root === 'settings' && isObject(data) && !isObject(data.settings)) return { settings: data };
  if (root === 'products' && kind === 'detail' && isObject(data) && !isObject(data.product)) return { product: data };
  return data;
}

/**
 * The response schema of the endpoint whose answer a query key caches (undefined: not an API
 * answer); for the product lists, their answer with each item cut to its card (product-card.ts).
 */
export function initialDataSchema([root, kind]: readonly unknown[], s: ResponseSchemas): ZodType | undefined {
  if (root === 'settings') return s.SettingsResponse;
  if (root === 'categories') return s.CategoriesResponse;
  if (root === 'faqs') return s.FaqsResponse;
  if (root === 'products' && kind === 'featured') return s.EmbeddedFeaturedProducts;
  if (root === 'products' && kind === 'detail') return s.ProductResponse;
  if (root === 'products' && kind === 'list') return s.EmbeddedProductCardPage;
  if (root === 'products' && kind === 'related') return s.RelatedProductsResponse;
  return undefined;
}
