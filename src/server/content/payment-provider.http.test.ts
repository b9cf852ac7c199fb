import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { FAKE_STRIPE_SECRET_KEY } from '../test/fake-stripe.js';
import { PAYMENT_PROVIDER_KEY } from '../../shared/payment-provider.js';

const initialSettings = (body: string) => {
  const entries = JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(body)![1]!) as {
    key: unknown[];
    data: unknown;
  }[];
  return (entries.find((e) => e.key[0] === 'settings')!.data as { settings: Record<string, string> }).settings;
};

/** The storefront names the payment provider the server is configured with (issue 18, item 8). */
describe(`the payment provider in the public settings on ${testDialect()}`, () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it.each([
    ['the built-in test card page without a Stripe key', {}, 'test'],
    ['Stripe with STRIPE_SECRET_KEY set', { STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY }, 'stripe'],
  ])('is %s, in /api/settings and in every page’s first data', async (_what, env: Record<string, string>, provider) => {
    t = await createTestApp({ env });
    const api = await t.app.inject({ method: 'GET', url: '/api/settings' });
    expect(api.statusCode).toBe(200);
    expect((api.json() as { settings: Record<string, string> }).settings[PAYMENT_PROVIDER_KEY]).toBe(provider);
    for (const url of ['/', '/cart', '/faq']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(initialSettings(page.body)[PAYMENT_PROVIDER_KEY], url).toBe(provider);
    }
  });
});
