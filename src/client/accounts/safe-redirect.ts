import { paths } from '../lib/paths.js';

const BASE = 'http://same-site.invalid';

/**
 * The path to return to after signing in: only a path on this site (never an absolute or
 * protocol-relative URL, which would make /auth an open redirect), and never /auth itself.
 */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return paths.home;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return paths.home;
  }
  if (url.origin !== BASE || url.pathname === paths.auth || url.pathname.startsWith(`${paths.auth}/`)) return paths.home;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where a guard sends a visitor who must sign in first, keeping the page they asked for. */
export function signInPathFor(pathAndSearch: string): string {
  return `${paths.auth}?redirect=${encodeURIComponent(pathAndSearch)}`;
}
