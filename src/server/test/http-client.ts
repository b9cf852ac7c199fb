import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './harness.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';

/** A tiny cookie-keeping client over app.inject, like a browser talking to the server. */
export class TestClient {
  cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '10.0.0.1',
  ) {}

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const isForm = body instanceof URLSearchParams;
    // A browser names the page's origin on every write (the server refuses cookie-carrying writes
    // without it); a test that sets Origin or Sec-Fetch-Site itself sends exactly those.
    const sendsOrigin = !['GET', 'HEAD'].includes(method) && !Object.keys(headers).some((h) => /^(origin|sec-fetch-site)$/i.test(h));
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      remoteAddress: this.ip,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(sendsOrigin ? { origin: `http://${headers.host ?? 'localhost:80'}` } : {}),
        ...(body !== undefined ? { 'content-type': isForm ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: isForm ? body.toString() : JSON.stringify(body) } : {}),
    });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now());
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }
  async signIn(email: string, password: string): Promise<LightMyRequestResponse> {
    return this.post('/api/auth/sign-in', { email, password, elapsedMs: 5000 });
  }
}

/** A fresh app with the demo admin signed in: the set-up of every back-office test file. */
async function createAdminTestApp(): Promise<{ t: TestApp; admin: TestClient }> {
  const t = await createTestApp();
  const admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  return { t, admin };
}

/**
 * A test file's set-up: before its tests, a fresh app with the demo admin signed in, handed to
 * `receive`; after them, the app closed (its uploads, in a folder of its own, removed with it).
 */
export function useAdminTestApp(receive: (app: { t: TestApp; admin: TestClient }) => void): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    const app = await createAdminTestApp();
    t = app.t;
    receive(app);
  });
  afterAll(async () => {
    await t?.close();
  });
}
