import { describe, expect, it } from 'vitest';
import { safeRedirectPath, signInPathFor } from './safe-redirect.js';

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
