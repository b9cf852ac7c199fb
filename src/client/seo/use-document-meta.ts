import { useEffect } from 'react';

export const SITE_NAME = 'EcoClean';
/** Same text as the server's site description (metadata only: it mentions free shipping over $100). */
export const SITE_DESCRIPTION =
  'Eco-friendly cleaning products: reusable cleaning cloths, sweep-and-mop tools, refills, laundry powder and concentrated cleaner. Free shipping on orders over $100.';
/** The server cuts meta descriptions at this length too. */
export const META_DESCRIPTION_MAX = 158;

export type DocumentMeta = {
  /** Full title, e.g. "Shop All Products | EcoClean". */
  title: string;
  description?: string;
  /** Path (with optional query) of the canonical URL, e.g. "/products"; omitted on pages that are not indexed. */
  canonicalPath?: string;
  noindex?: boolean;
};

export function pageTitle(name: string): string {
  return `${name} | ${SITE_NAME}`;
}

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
 * Keeps the head tags the server wrote in step with client-side navigation: the tags are
 * updated in place, never duplicated.
 */
export function useDocumentMeta({ title, description, canonicalPath, noindex = false }: DocumentMeta): void {
  useEffect(() => {
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
  }, [title, description, canonicalPath, noindex]);
}
