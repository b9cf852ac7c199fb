import net from 'node:net';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access, checkRoutePolicies, registerSurface } from '../http/access.js';
import { registerSessionDecorator } from '../http/auth.js';
import { loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { spellings } from './path-spellings.js';

/** A bare Fastify app with the route-policy check, as buildApp sets it up. */
async function bareApp(): Promise<FastifyInstance> {
  const app = Fastify();
  checkRoutePolicies(app);
  registerSessionDecorator(app);
  await app.register(fastifyCookie);
  return app;
}
const deps = { db: null as never, config: loadConfig({ PUBLIC_URL: 'http://shop.test' }) };

describe('the server refuses to start with a route that has no proper policy', () => {
  it('a route without a declared policy', async () => {
    const app = await bareApp();
    await registerSurface(app, 'store', deps, (s) => {
      s.get('/api/forgotten', async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow(/GET \/api\/forgotten declares no access policy/);
  });

  it('a route outside every surface', async () => {
    const app = await bareApp();
    app.get('/api/stray', access.public, async () => ({ ok: true }));
    await expect(app.ready()).rejects.toThrow(/outside every surface/);
  });

  it('a back-office path registered in the store', async () => {
    const app = await bareApp();
    await registerSurface(app, 'store', deps, (s) => {
      s.get('/api/admin/leak', access.public, async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow(/belongs in the admin surface/);
  });

  it('a public route declared in the admin surface', async () => {
    const app = await bareApp();
    await expect(
      registerSurface(app, 'admin', deps, (s) => {
        s.get('/api/admin/open', access.public, async () => ({ ok: true }));
      }),
    ).rejects.toThrow(/does not allow/);
  });
});

/** Sends a request line exactly as written (no client normalises it) and answers the status. */
function rawStatus(port: number, method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, agent: false, headers: method === 'GET' ? {} : { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : '{}');
  });
}

describe('over a real socket', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('spelled-differently back-office paths answer 401 to anonymous callers, as curl would send them', async () => {
    const answers = new Map<string, number>();
    for (const [method, path] of [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/audit-log'],
      ['GET', '/api/admin/payment-mode'],
      ['GET', '/api/admin/products/p1/stock'],
      ['POST', '/api/admin/products/p1/stock'],
      ['PUT', '/api/admin/products/p1/stock/threshold'],
      ['GET', '/api/admin/orders/o1/stock-lines'],
      ['POST', '/api/admin/coupons'],
      ['PUT', '/api/admin/email-templates'],
      ['PUT', '/api/admin/settings/integrations'],
      ['POST', '/api/admin/uploads'],
      ['GET', '/api/shipstation/carriers'],
    ] as const) {
      for (const spelled of [path, ...spellings(path)]) answers.set(`${method} ${spelled}`, await rawStatus(port, method, spelled));
    }
    const leaks = [...answers].filter(([, status]) => status < 300 || status >= 500);
    expect(leaks).toEqual([]);
    expect(answers.size).toBeGreaterThan(100);
    // The issue's own examples.
    for (const path of ['/api/%61dmin/users', '/%61pi/admin/users', '/api/adm%69n/users', '/api/%73hipstation/carriers']) {
      expect(await rawStatus(port, 'GET', path), path).toBe(401);
    }
  });

  it('an unknown path is told apart by its decoded spelling: an API path, however encoded, gets JSON, never a page', async () => {
    for (const url of ['/api/nope', '/%61pi/nope', '/%61%70%69/nope', '//api/admin/users']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
    }
    // A malformed escape is the caller's mistake: 400, not a page and not a 500.
    expect((await t.app.inject({ method: 'GET', url: '/%E0%A4%A' })).statusCode).toBe(400);
    const page = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('a client that trickles its headers is cut off at the headers timeout', async () => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('GET /api/health HTTP/1.1\r\nHost: shop.test\r\n');
    let received = '';
    socket.on('data', (d) => (received += d));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
    // One header line every 200 ms, for up to 10 s: a well-behaved server closes long before.
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(`X-Slow-${Date.now()}: 1\r\n`);
    }, 200);
    const after = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
    clearInterval(trickle);
    socket.destroy();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(4000);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a client that trickles its body is cut off at the request timeout', async () => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
    socket.on('data', () => {});
    socket.on('error', () => {});
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(' ');
    }, 200);
    const after = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
    clearInterval(trickle);
    socket.destroy();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(5000);
  });

  it('an idle kept-alive connection is closed after the keep-alive timeout', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const started = Date.now();
    socket.on('data', () => {});
    socket.write('GET /api/health HTTP/1.1\r\nHost: shop.test\r\n\r\n');
    const after = await Promise.race([
      new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started))),
      new Promise<number>((r) => setTimeout(() => r(-1), 10_000)),
    ]);
    socket.destroy();
    expect(after).toBeGreaterThan(500);
    expect(after).toBeLessThan(4000);
  });

  it('sends HSTS only when the shop is served over https', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const https = await createTestApp({ seed: false, env: { PUBLIC_URL: 'https://shop.example' } });
    try {
      const secure = await https.app.inject({ method: 'GET', url: '/api/health' });
      expect(secure.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    } finally {
      await https.close();
    }
  });
});
