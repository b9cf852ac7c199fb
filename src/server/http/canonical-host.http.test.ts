import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../test/harness.js';

const PUBLIC = 'https://shop.example.com';
const SIGN_UP = { fullName: 'Host Tester', password: 'long-enough-pass', elapsedMs: 5000, website: '' };

async function get(t: TestApp, host: string, url = '/api/session', headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
}

async function usersNamed(t: TestApp, email: string): Promise<number> {
  const rows = await t.db.selectFrom('users').select('id').where('email', '=', email).execute();
  return rows.length;
}

describe('production: one address, PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: PUBLIC } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers on the public host however it is spelled', async () => {
    for (const host of ['shop.example.com', 'SHOP.Example.COM', 'shop.example.com.', 'shop.example.com:443', 'Shop.Example.Com.:443']) {
      const res = await get(t, host);
      expect(res.statusCode, host).toBe(200);
      expect(res.json(), host).toEqual({ user: null, impersonatorEmail: null });
    }
  });

  it('sends a page asked on another host to the same path at PUBLIC_URL, permanently', async () => {
    for (const host of [
      '127.0.0.1:3000',
      '127.0.0.1',
      '[::1]:3000',
      'localhost:3000',
      'shop.example.com:3000',
      'shop.example.com:80',
      'www.shop.example.com',
      'shop.example.com.evil.example',
      'evil.example',
      'shop.example.com@evil.example',
      'shop.example.com/evil',
      'shop.example.com..',
    ]) {
      const res = await get(t, host, '/products?category=cloths&page=2');
      expect(res.statusCode, host).toBe(301);
      expect(res.headers.location, host).toBe(`${PUBLIC}/products?category=cloths&page=2`);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/faq', headers: { host: '10.1.2.3:3000' } });
    expect(head.statusCode).toBe(301);
    expect(head.headers.location).toBe(`${PUBLIC}/faq`);
  });

  it('never sends the visitor to a host they named', async () => {
    const res = await get(t, 'evil.example', '//evil.example/x');
    expect(res.statusCode).toBe(301);
    expect(new URL(String(res.headers.location)).origin).toBe(PUBLIC);
  });

  it('refuses a write on another host with 421 and the address to use, before anything is stored', async () => {
    const email = 'host-tester@example.com';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      headers: { host: '203.0.113.7', 'content-type': 'application/json', origin: 'http://203.0.113.7' },
      payload: { ...SIGN_UP, email },
    });
    expect(res.statusCode).toBe(421);
    expect(res.json()).toEqual({ error: `This shop answers at ${PUBLIC}. Open it there and try again.` });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await usersNamed(t, email)).toBe(0);

    // The same request at the public address is served.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      headers: { host: 'shop.example.com', 'content-type': 'application/json', origin: PUBLIC },
      payload: { ...SIGN_UP, email },
    });
    expect(ok.statusCode).toBe(201);
    expect(await usersNamed(t, email)).toBe(1);
  });

  it('answers the health check and the signed webhook on any host', async () => {
    const health = await get(t, '10.0.0.12:3000', '/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { host: '10.0.0.12:3000', 'content-type': 'application/json' },
      payload: {},
    });
    expect([301, 308, 421]).not.toContain(hook.statusCode);
  });

  it('does not take X-Forwarded-Host from a client when no proxy is trusted', async () => {
    const res = await get(t, '127.0.0.1:3000', '/api/session', { 'x-forwarded-host': 'shop.example.com' });
    expect(res.statusCode).toBe(301);
  });
});

describe('production behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: PUBLIC, TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads the host the shopper used from X-Forwarded-Host', async () => {
    const ok = await get(t, '127.0.0.1:3000', '/api/session', { 'x-forwarded-host': 'shop.example.com' });
    expect(ok.statusCode).toBe(200);
    const other = await get(t, 'shop.example.com', '/api/session', { 'x-forwarded-host': 'old-shop.example.com' });
    expect(other.statusCode).toBe(301);
    expect(other.headers.location).toBe(`${PUBLIC}/api/session`);
  });
});

describe("development without PUBLIC_URL: the machine's other names go to localhost", () => {
  let t: TestApp;
  beforeAll(async () => {
    // PUBLIC_URL unset: the default http://localhost:$PORT.
    t = await createTestApp({ env: { NODE_ENV: 'development', PORT: '4321', PUBLIC_URL: undefined as unknown as string } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is served on localhost, on any port of it (the Vite dev server proxies from :5173)', async () => {
    expect(t.config.publicUrl).toBe('http://localhost:4321');
    for (const host of ['localhost:4321', 'LOCALHOST:4321', 'localhost.:4321', 'localhost:5173', 'localhost']) {
      expect((await get(t, host)).statusCode, host).toBe(200);
    }
  });

  it('sends 127.0.0.1, ::1 and other names to http://localhost:PORT, temporarily, before a cookie is set', async () => {
    for (const host of ['127.0.0.1:4321', '[::1]:4321', '192.168.1.20:4321', 'my-laptop.local:4321', '0.0.0.0:4321']) {
      const res = await get(t, host, '/checkout');
      expect(res.statusCode, host).toBe(307);
      expect(res.headers.location, host).toBe('http://localhost:4321/checkout');
      expect(res.headers['cache-control'], host).toBe('no-store');
      expect(res.headers['set-cookie'], host).toBeUndefined();
    }
  });

  it('refuses a write on 127.0.0.1 (nothing stored) and serves it on localhost', async () => {
    const email = 'dev-host@example.com';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      headers: { host: '127.0.0.1:4321', 'content-type': 'application/json', origin: 'http://127.0.0.1:4321' },
      payload: { ...SIGN_UP, email },
    });
    expect(res.statusCode).toBe(421);
    expect(res.json()).toEqual({ error: 'This shop answers at http://localhost:4321. Open it there and try again.' });
    expect(await usersNamed(t, email)).toBe(0);
  });
});

describe('tests build the app on any host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('NODE_ENV=test keeps the check off (injected requests name localhost:80)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
  });
});
