import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { recordMarketingConsent, mayMarketTo } from './consent.js';
import { marketingUnsubscribeToken, maskAddress, unsubscribeApiUrl, unsubscribePageUrl } from './unsubscribe.js';
import { UNSUBSCRIBE_MESSAGES } from '../../shared/schemas/email-preferences.js';

/**
 * Issue [7/8]: the one-click unsubscribe of offers and reminders (RFC 8058). A GET reads, a POST
 * (the page's button, or a mail app's `List-Unsubscribe=One-Click` post without cookies) unsubscribes,
 * again and at once are fine; a token that is not the shop's is refused and changes nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`;
async function consenting(label: string): Promise<{ email: string; token: string }> {
  const email = address(label);
  await recordMarketingConsent(t.db, { email, userId: null, source: 'checkout', now: new Date() });
  const token = await marketingUnsubscribeToken(t.db, email);
  expect(token).toMatch(/^mkt_[a-z0-9]+\.[A-Za-z0-9_-]{43}$/);
  return { email, token: token! };
}
const read = (token: string) => t.app.inject({ method: 'GET', url: `/api/unsubscribe/${encodeURIComponent(token)}` });
/** As a mail app sends it: a form post, no cookie, no Origin. */
const oneClick = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/unsubscribe/${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });

describe('one-click unsubscribe', () => {
  it('reading the link changes nothing; the one-click post unsubscribes, and again is fine', async () => {
    const { email, token } = await consenting('reader');
    expect(unsubscribePageUrl('http://shop.test', token)).toBe(`http://shop.test/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(unsubscribeApiUrl('http://shop.test', token)).toBe(`http://shop.test/api/unsubscribe/${encodeURIComponent(token)}`);
    for (let i = 0; i < 3; i++) {
      const res = await read(token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ address: maskAddress(email), unsubscribed: false });
    }
    expect(await mayMarketTo(t.db, email)).toBe(true);

    const res = await oneClick(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ address: maskAddress(email), unsubscribed: true });
    expect(await mayMarketTo(t.db, email)).toBe(false);
    const row = await t.db.selectFrom('marketing_consents').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'withdrawn', withdrawn_via: 'unsubscribe', source: 'checkout' });
    expect((await oneClick(token)).json()).toEqual({ address: maskAddress(email), unsubscribed: true });
    expect((await read(token)).json()).toEqual({ address: maskAddress(email), unsubscribed: true });
    // The storefront's button posts JSON-less, with the page's origin: the same.
    const button = await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${token}`, headers: { origin: 'http://shop.test' } });
    expect(button.statusCode).toBe(200);
  });

  it('twenty posts at once: all answered, one opt-out, the consent withdrawn once', async () => {
    const { email, token } = await consenting('racer');
    const answers = await Promise.all(Array.from({ length: 20 }, () => oneClick(token)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const outs = await t.db.selectFrom('email_opt_outs').selectAll().where('email', '=', email).execute();
    expect(outs.map((o) => o.kind)).toEqual(['marketing']);
    expect(await mayMarketTo(t.db, email)).toBe(false);
  });

  it('a token not made by the shop is refused with a sentence and changes nothing', async () => {
    const { email, token } = await consenting('forged');
    const [id, tag] = token.split('.') as [string, string];
    const other = await consenting('other');
    const otherId = other.token.split('.')[0]!;
    const flipped = `${tag.slice(0, -2)}${tag.endsWith('AA') ? 'BA' : 'AA'}`;
    for (const bad of [
      `${id}.${flipped}`,
      `${otherId}.${tag}`,
      id,
      `${id}.`,
      'mkt_nothing.' + 'A'.repeat(43),
      'x'.repeat(201),
      `${id}.${tag}.extra`,
    ]) {
      for (const res of [await read(bad), await oneClick(bad)]) {
        // Longer than any token: refused before the route (414, the router's limit on a path segment).
        if (bad.length > 200) expect([400, 414], bad).toContain(res.statusCode);
        else expect(res.statusCode, bad).toBe(404);
        if (res.statusCode === 404) expect(res.json()).toEqual({ error: UNSUBSCRIBE_MESSAGES.linkUnknown });
      }
    }
    expect(await mayMarketTo(t.db, email)).toBe(true);
    expect(await mayMarketTo(t.db, other.email)).toBe(true);
  });

  it('an address that never consented has no token (it is sent no offers to unsubscribe from)', async () => {
    expect(await marketingUnsubscribeToken(t.db, address('never'))).toBeNull();
    expect(maskAddress('jane.doe@example.com')).toBe('j•••@example.com');
  });
});
