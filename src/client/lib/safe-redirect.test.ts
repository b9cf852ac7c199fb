import { describe, expect, it } from 'vitest';
import { safeRedirectPath, signInLinkFrom, signInPathFor } from './safe-redirect.js';

describe('safeRedirectPath', () => {
  it('keeps a path on this site, with its query and hash', () => {
    expect(safeRedirectPath('/dashboard')).toBe('/dashboard');
    expect(safeRedirectPath('/admin/orders?page=2#top')).toBe('/admin/orders?page=2#top');
  });

  it('falls back to / for anything that could leave the site or loop', () => {
    for (const bad of [
      null,
      undefined,
      '',
      'dashboard',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      '/auth',
      '/auth?tab=signup',
    ]) {
      expect(safeRedirectPath(bad), String(bad)).toBe('/');
    }
  });

  it('round-trips through the guard', () => {
    const target = '/orders?status=shipped';
    const redirect = new URL(signInPathFor(target), 'http://x').searchParams.get('redirect');
    expect(safeRedirectPath(redirect)).toBe(target);
  });
});

describe('safeRedirectPath: spellings that fold into another site', () => {
  it('never answers a protocol-relative or absolute address', () => {
    for (const bad of [
      '/.//evil.example',
      '/..//evil.example',
      '/%2e//evil.example',
      '/a/..//evil.example',
      '/./\\evil.example',
      '/\n/evil.example',
      '/ /evil.example',
      'HTTPS://evil.example',
      '\\\\evil.example',
      ' /dashboard',
    ]) {
      const out = safeRedirectPath(bad);
      expect(out, JSON.stringify(bad)).toBe('/');
    }
  });

  it('keeps an encoded slash as a path on this site', () => {
    expect(safeRedirectPath('/%2F/evil.example')).toBe('/%2F/evil.example');
    expect(new URL(safeRedirectPath('/%2F/evil.example'), 'https://shop.example').origin).toBe('https://shop.example');
  });
});

describe('sign-in links that come back', () => {
  it('the checkout banner returns to /checkout on the tab it names', () => {
    const link = new URL(signInPathFor('/checkout', 'signup'), 'http://x');
    expect(link.pathname).toBe('/auth');
    expect(link.searchParams.get('tab')).toBe('signup');
    expect(safeRedirectPath(link.searchParams.get('redirect'))).toBe('/checkout');
  });

  it("the header's link returns to the page it was on, except home and the account pages", () => {
    const link = new URL(signInLinkFrom('/products/sweep-and-mop', '?color=blue'), 'http://x');
    expect(safeRedirectPath(link.searchParams.get('redirect'))).toBe('/products/sweep-and-mop?color=blue');
    expect(signInLinkFrom('/', '')).toBe('/auth');
    expect(signInLinkFrom('/auth', '?tab=signup')).toBe('/auth');
    expect(signInLinkFrom('/reset-password', '')).toBe('/auth');
  });
});
