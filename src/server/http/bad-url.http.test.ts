import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { BAD_URL_MESSAGE, LONG_URL_PART_MESSAGE } from './bad-url.js';

/**
 * The router's own refusals: an address with a broken escape, or with a part longer than the
 * router takes, answered as every refusal is (a sentence, the security headers), not with the
 * framework's default that echoed the address back.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe(`addresses the router cannot read, on ${testDialect()}`, () => {
  it('a broken escape: 400 with the sentence, on an API route and on a page', async () => {
    for (const url of ['/api/products/%zz', '/api/cart-restore/abc%', '/products/%E0%A4%A', '/%']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ error: BAD_URL_MESSAGE });
      expect(res.body, url).not.toContain(url);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('a part longer than any link the shop makes: 414 with the sentence', async () => {
    const long = 'a'.repeat(10_000);
    for (const url of [`/api/cart-restore/${long}`, `/api/products/${long}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url.slice(0, 40)).toBe(414);
      expect(res.json()).toEqual({ error: LONG_URL_PART_MESSAGE });
      expect(res.body).not.toContain(long);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
