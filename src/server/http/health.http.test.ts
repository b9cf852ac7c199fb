import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe(`health on ${testDialect()}`, () => {
  it('liveness answers without the database; readiness says the database answers', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ ok: true });
    expect(live.headers['cache-control']).toBe('no-store');

    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ ok: true, database: 'up' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('both are answered on any host name (a load balancer asks by the machine’s address)', async () => {
    for (const url of ['/api/health', '/api/health/ready']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { host: '10.0.0.7:3000' } });
      expect(res.statusCode, url).toBe(200);
    }
  });
});
