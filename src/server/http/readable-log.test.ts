import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './log-redaction.js';
import { readableLine, readableLogStream } from './readable-log.js';

const at = new Date(2026, 0, 5, 14, 3, 7).getTime();

describe('the readable development log', () => {
  it('prints one line per request, with its status, method, path and time', () => {
    const pending = new Map<string, string>();
    const incoming = JSON.stringify({
      level: 30,
      time: at,
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      req: { method: 'GET', url: '/api/products?page=2' },
      msg: 'incoming request',
    });
    expect(readableLine(incoming, pending)).toBeNull();
    const done = JSON.stringify({
      level: 30,
      time: at,
      reqId: 'req-1',
      res: { statusCode: 200 },
      responseTime: 4.123,
      msg: 'request completed',
    });
    expect(readableLine(done, pending)).toBe('14:03:07       200 GET /api/products?page=2 4.1 ms\n');
    expect(pending.size).toBe(0);
  });

  it('marks refused and failed answers, and prints messages with their fields and stack', () => {
    const pending = new Map([['req-2', 'POST /api/cart']]);
    expect(
      readableLine(JSON.stringify({ level: 30, time: at, reqId: 'req-2', res: { statusCode: 503 }, msg: 'request completed' }), pending),
    ).toBe('14:03:07 ERROR 503 POST /api/cart\n');
    expect(
      readableLine(JSON.stringify({ level: 40, time: at, msg: 'Stripe refused the coupon', couponId: 'c1', stripe: { status: 'failed' } })),
    ).toBe('14:03:07 WARN  Stripe refused the coupon  couponId=c1 stripe={"status":"failed"}\n');
    const err = readableLine(
      JSON.stringify({
        level: 50,
        time: at,
        reqId: 'req-3',
        err: { type: 'TypeError', message: 'x', stack: 'TypeError: x\n    at f (a.ts:1:1)' },
        msg: 'unhandled error',
      }),
    );
    expect(err).toBe(`14:03:07 ERROR unhandled error  reqId=req-3\n${' '.repeat(15)}TypeError: x\n${' '.repeat(15)}    at f (a.ts:1:1)\n`);
    // Not JSON: passed through as it is.
    expect(readableLine('plain words')).toBe('plain words\n');
  });

  it('shows the server log readably, still without its secrets', async () => {
    let out = '';
    const app = Fastify({ logger: loggerOptions({ logLevel: 'info' }, readableLogStream({ write: (s: string) => (out += s) })) });
    app.get('/reset-password', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/reset-password?token=very-secret-token', headers: { cookie: 'sid=secret-session' } });
    await app.close();
    expect(out).toMatch(/^\d\d:\d\d:\d\d {7}200 GET \/reset-password\?token=\[REDACTED\] \d+\.\d ms$/m);
    expect(out).not.toContain('very-secret-token');
    expect(out).not.toContain('secret-session');
    expect(out).not.toContain('{"level"');
  });
});
