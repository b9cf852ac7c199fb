import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InitialQuery } from '../../shared/query-keys.js';
import { PAGES, pageById } from '../../shared/pages.js';
import { matchPage, pageData, siteDescription, type DataRef, type HeadInput, type PageDeclaration } from '../../shared/page-declaration.js';
import { resolvePageData } from './page-data.js';
import { structuredData } from './structured-data.js';
import { getPublicSettings } from '../content/service.js';
import type { CheckoutProvider } from '../../shared/payment-provider.js';

export type PageMeta = {
  /** The page table's id of the page shown (src/shared/pages.ts). */
  pageId: string;
  /** 'shared': the same HTML for every anonymous visitor; 'private': per visitor. */
  cache: 'shared' | 'private';
  status: number;
  title: string;
  description: string;
  /** Path (and query) of the canonical URL; absent on pages that are not indexed. */
  canonicalPath?: string;
  noindex: boolean;
  ogType: 'website' | 'product';
  ogImage?: string;
  jsonLd: object[];
  initialData: InitialQuery[];
};

const NOT_FOUND = pageById('not-found');

/** The page's head (src/shared/pages.ts) and the server's JSON-LD (structured-data.ts), from one input. */
function toMeta(page: PageDeclaration, input: HeadInput<Record<string, DataRef>>, initialData: InitialQuery[]): PageMeta {
  const head = page.head(input);
  return {
    pageId: page.id,
    cache: page.cache,
    status: head.status ?? 200,
    title: head.title,
    description: head.description ?? siteDescription(input.settings),
    ...(head.canonicalPath !== undefined ? { canonicalPath: head.canonicalPath } : {}),
    noindex: head.noindex ?? false,
    ogType: head.ogType ?? 'website',
    ...(head.ogImage !== undefined ? { ogImage: head.ogImage } : {}),
    jsonLd: structuredData(page, input, head),
    initialData,
  };
}

/**
 * What the server writes into a storefront page before any script runs: status, title,
 * description, canonical link, JSON-LD, and the query data the page needs for its first paint,
 * all as the page's declaration (src/shared/pages.ts) says; the JSON-LD is the server's own
 * (structured-data.ts), written from the same input as the head.
 */
export async function buildPageMeta(
  db: Kysely<Database>,
  publicUrl: string,
  pathname: string,
  query: Record<string, string | undefined>,
  paymentProvider: CheckoutProvider,
): Promise<PageMeta> {
  // Every page's first data: the footer (in every page's HTML) names the payment provider.
  const settings = await getPublicSettings(db, paymentProvider);
  const initialData: InitialQuery[] = [{ key: pageData.settings().key, data: { settings } }];
  const pageQuery = { get: (name: string) => query[name] ?? null };
  const hostile = (v: string) => v.includes('\u0000') || v.includes('%00');
  const base = { query: pageQuery, settings, publicUrl };
  if (hostile(pathname) || Object.values(query).some((v) => v !== undefined && hostile(v))) {
    return toMeta(NOT_FOUND, { ...base, params: {}, data: {} }, initialData);
  }
  const { page, params } = matchPage(PAGES, pathname) ?? { page: NOT_FOUND, params: {} };
  const refs = page.data?.({ params, query: pageQuery }) ?? {};
  const resolved = await resolvePageData(db, refs, page.main);
  initialData.push(...resolved.initialData);
  const input: HeadInput<typeof refs> = { ...base, params, data: resolved.data as HeadInput<typeof refs>['data'] };
  return toMeta(page, input, initialData);
}
