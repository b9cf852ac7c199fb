import { paths } from './paths.js';

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
  // Dot segments can fold into a protocol-relative path (`/.//evil.example` is `//evil.example`).
  if (url.pathname.startsWith('//')) return paths.home;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The sign-in page that returns to `pathAndSearch` afterwards (a guard, the checkout banner, the
 * header's sign-in link), on the given tab if any.
 */
export function signInPathFor(pathAndSearch: string, tab?: 'signin' | 'signup'): string {
  const redirect = `redirect=${encodeURIComponent(pathAndSearch)}`;
  return tab ? `${paths.auth}?tab=${tab}&${redirect}` : `${paths.auth}?${redirect}`;
}

/** Pages a sign-in link does not come back to: the home page (the default) and the account pages themselves. */
const NO_RETURN = new Set<string>([paths.home, paths.auth, paths.passwordReset, paths.resetPassword]);

/** The header's sign-in link from the page at `pathname` + `search`: back to that page afterwards. */
export function signInLinkFrom(pathname: string, search: string): string {
  return NO_RETURN.has(pathname) ? paths.auth : signInPathFor(`${pathname}${search}`);
}
