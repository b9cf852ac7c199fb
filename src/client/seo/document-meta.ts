import { SITE_DESCRIPTION } from '../../shared/page-declaration.js';

type DocumentMeta = {
  /** Full title, e.g. "Shop All Products | EcoClean". */
  title: string;
  description?: string | undefined;
  /** Path (with optional query) of the canonical URL, e.g. "/products"; omitted on pages that are not indexed. */
  canonicalPath?: string | undefined;
  noindex?: boolean | undefined;
};

function upsertMeta(attr: 'name' | 'property', key: string, content: string): void {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
}

function updateIfPresent(attr: 'name' | 'property', key: string, content: string): void {
  const el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (el) el.content = content;
}

function removeCanonical(): void {
  document.head.querySelector('link[rel="canonical"]')?.remove();
}

function upsertCanonical(href: string): void {
  let el = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!el) {
    el = document.createElement('link');
    el.rel = 'canonical';
    document.head.appendChild(el);
  }
  el.href = href;
}

/**
 * Brings the head tags the server wrote in step with client-side navigation: the tags are
 * updated in place, never duplicated. Called by PageHead (page-head.tsx) with the page table's head.
 */
export function applyDocumentMeta({ title, description, canonicalPath, noindex = false }: DocumentMeta): void {
  document.title = title;
  const desc = description ?? SITE_DESCRIPTION;
  upsertMeta('name', 'description', desc);
  upsertMeta('name', 'robots', noindex ? 'noindex, nofollow' : 'index, follow');
  updateIfPresent('property', 'og:title', title);
  updateIfPresent('property', 'og:description', desc);
  updateIfPresent('name', 'twitter:title', title);
  updateIfPresent('name', 'twitter:description', desc);
  if (canonicalPath !== undefined) {
    const url = new URL(canonicalPath, window.location.origin).toString();
    upsertCanonical(url);
    updateIfPresent('property', 'og:url', url);
  } else {
    removeCanonical();
  }
}
