import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { BODY_TOO_LARGE_MESSAGE, FORM_TOO_LARGE_MESSAGE } from './body-too-large.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

const MB = 1024 * 1024;
const bigJson = () => JSON.stringify({ name: 'Big', email: 'big@example.com', subject: 'Big', message: 'x'.repeat(50 * MB) });
const bigForm = () => `card=${'4'.repeat(50 * MB)}`;
const ROUTES = [
  { url: '/api/contact', type: 'application/json', body: bigJson },
  { url: '/api/create-checkout-session', type: 'application/json', body: bigJson },
  { url: '/pay/pay_missing', type: 'application/x-www-form-urlencoded', body: bigForm },
] as const;

/**
 * A POST the way curl sends a large body: `Expect: 100-continue`, the body only after the server's
 * go-ahead, in 1 MB pieces. Rejects if the connection is reset or dropped before a full answer.
 */
function postExpectingContinue(url: string, type: string, body: string, accept = 'application/json') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const data = Buffer.from(body);
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': type, 'content-length': String(data.length), expect: '100-continue', accept },
    });
    req.on('continue', () => {
      let at = 0;
      const pump = () => {
        while (at < data.length) {
          const piece = data.subarray(at, at + MB);
          at += piece.length;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * A plain socket that sends the whole request and only then reads the answer, as a simple client
 * does: what it reads, or how the connection failed ("reset: ECONNRESET", "reset: EPIPE").
 */
function rawPost(path: string, type: string, body: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    let failed: string | null = null;
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (answer += c));
    socket.on('error', (err: NodeJS.ErrnoException) => (failed ??= `reset: ${err.code ?? err.message}`));
    socket.on('close', () => resolve(failed ? `${failed}: ${answer.slice(0, 60)}` : answer));
    // A connection neither answered nor closed is as bad as a dropped one.
    const timer = setTimeout(() => {
      failed ??= `no end after 90 s (${answer ? 'answer without end' : 'no answer'})`;
      socket.destroy();
    }, 90_000);
    socket.on('close', () => clearTimeout(timer));
    const data = Buffer.from(body);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: ${data.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.end(data);
  });
}

describe(`a body over the limit is answered 413, never dropped (${testDialect()})`, () => {
  it('through the harness: JSON with a sentence for the API, a page for the payment form', async () => {
    for (const route of ROUTES) {
      const res = await t.app.inject({ method: 'POST', url: route.url, headers: { 'content-type': route.type }, payload: route.body() });
      expect(res.statusCode, route.url).toBe(413);
      expect(res.json(), route.url).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
    }
    const page = await t.app.inject({
      method: 'POST',
      url: '/pay/pay_missing',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml' },
      payload: bigForm(),
    });
    expect(page.statusCode).toBe(413);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(FORM_TOO_LARGE_MESSAGE);
    expect(page.body).toContain('href="/pay/pay_missing"');
  }, 120_000);

  /*
   * This file runs with the timings at scale, alone (vitest.config.ts): among the HTTP suites (both
   * databases' side by side on 2 cores) this test failed with "fetch failed" (ECONNRESET while reading
   * the answer) after 14–18 s in all four local full runs of 2026-11-29 and 2026-11-30, and never
   * alone or under a moderate load; the plain-socket test below, which sends the same bodies to the
   * same routes, never did. The cause is not found yet (building the bodies before the first request
   * did not change it): a failure is printed with its route and cause for whoever takes it up.
   */
  it(
    'over a real socket with fetch: every route answers 413 and the connection is not closed on the caller',
    { timeout: 180_000 },
    async () => {
      const bodies = ROUTES.map((route) => route.body());
      for (const [i, route] of ROUTES.entries()) {
        const res = await fetch(`${base}${route.url}`, { method: 'POST', headers: { 'content-type': route.type }, body: bodies[i] }).catch(
          (err: unknown) => {
            console.warn(
              `body-too-large over fetch: ${route.url} (request ${i + 1} on this connection) failed:`,
              err,
              (err as Error).cause,
            );
            throw err;
          },
        );
        expect(res.status, route.url).toBe(413);
        expect(await res.json(), route.url).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
        // The whole body was read, so the connection can stay open for the next request.
        expect(res.headers.get('connection'), route.url).not.toBe('close');
      }
      // Sent in pieces without a length (chunked): counted as it arrives, answered the same.
      const chunk = new TextEncoder().encode('x'.repeat(MB));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ < 50) c.enqueue(chunk);
          else c.close();
        },
      });
      const chunked = await fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      expect(chunked.status).toBe(413);
      expect(await chunked.json()).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
    },
  );

  it('over a plain socket, and as curl sends it (Expect: 100-continue): the answer arrives instead of a broken pipe', async () => {
    const json = await postExpectingContinue(`${base}/api/contact`, 'application/json', bigJson());
    expect(json.status).toBe(413);
    expect(JSON.parse(json.text)).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
    const page = await postExpectingContinue(`${base}/pay/pay_missing`, 'application/x-www-form-urlencoded', bigForm(), 'text/html');
    expect(page.status).toBe(413);
    expect(page.text).toContain(FORM_TOO_LARGE_MESSAGE);
    // Answered without reading the rest, a client that sends its whole body first saw EPIPE here.
    for (const route of ROUTES) {
      const answer = await rawPost(route.url, route.type, route.body());
      expect(answer.slice(0, 40), route.url).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer, route.url).toContain(BODY_TOO_LARGE_MESSAGE);
    }
    // The shop goes on answering.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  }, 180_000);
});
