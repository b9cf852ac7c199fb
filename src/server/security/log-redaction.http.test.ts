import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createUser } from '../db/seed/factories.js';
import { spellings } from './path-spellings.js';

/**
 * No log line carries a secret: the request log at info level (every request's URL), lines logged
 * by hand, and errors. The password-reset link's token is the one the shop itself hands out.
 */
let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } });
});
afterAll(async () => {
  await t?.close();
});

const logged = () => lines.join('');

describe('the log keeps secrets out', () => {
  it('opening a password-reset link logs its path, never its token', async () => {
    const user = await createUser(t.db, { email: 'log.reset@example.com', password: 'Old-Password-1' });
    const c = new TestClient(t.app, '10.90.0.1');
    expect((await c.post('/api/auth/password-reset', { email: user.email, elapsedMs: 3000 })).statusCode).toBe(200);
    const mail = await t.db.selectFrom('email_outbox').select('text').where('to_address', '=', user.email).executeTakeFirstOrThrow();
    const link = /http:\/\/shop\.test(\/reset-password\?token=[A-Za-z0-9_-]{43})/.exec(mail.text!)![1]!;
    const token = link.split('=')[1]!;
    lines.length = 0;
    await c.get(link, { accept: 'text/html' });
    await c.post('/api/auth/password-reset/validate', { token });
    // The same token in every other spelling of the page's path and of the parameter's name.
    for (const url of spellings('/reset-password')) await c.get(`${url.replace(/[?#].*$/, '')}?token=${token}`);
    await c.get(`/reset-password?%74oken=${token}`);
    await c.get(`/reset-password?a=1&Token=${token}`);
    await c.get(`/reset-password/${token}`);
    await c.get(`/api/nope?token=${token}`);
    expect(lines.length).toBeGreaterThan(20);
    expect(logged()).toContain('/reset-password?token=[REDACTED]');
    expect(logged()).toContain('/api/auth/password-reset/validate');
    expect(logged()).not.toContain(token);
  });

  it('session cookies, authorization and set-cookie never reach the log', async () => {
    const user = await createUser(t.db, { email: 'log.session@example.com', password: 'Session-Password-1' });
    const c = new TestClient(t.app, '10.90.0.2');
    lines.length = 0;
    await c.signIn(user.email, 'Session-Password-1');
    const sid = c.cookies.get('sid')!;
    expect(sid).toBeTruthy();
    await c.get('/api/account/summary');
    await c.request('PUT', '/api/account/contact', { fullName: 'Log Session', email: user.email, phone: '' });
    // Lines written by hand with headers in them, and an error quoting a URL.
    t.app.log.info({ headers: { cookie: `sid=${sid}`, authorization: `Bearer ${sid}`, 'set-cookie': [`sid=${sid}`] } }, 'headers');
    t.app.log.info({ req: { method: 'GET', url: `/reset-password?token=${sid}`, headers: { cookie: `sid=${sid}` } } }, 'a request');
    t.app.log.info({ url: `/reset-password?token=${sid}` }, 'a url');
    t.app.log.error({ err: new Error(`could not open http://shop.test/reset-password?token=${sid}`) }, 'failed');
    t.app.log.warn(`cookie header was cart=x; sid=${sid}`);
    expect(lines.length).toBeGreaterThan(5);
    expect(logged()).not.toContain(sid);
  });
});
