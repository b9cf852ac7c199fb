import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { PaymentModeResponse, TEST_PAYMENT_TEXTS } from '../../shared/schemas/payments.js';

/**
 * How the real server process starts (src/server/main.ts): a production shop without real payment
 * keys refuses to, unless its owner opted into test payments, and then its startup log and its
 * back office say so; a development shop listens on this machine only.
 */
type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };
const running: ChildProcess[] = [];
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-start-'));
});
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function startServer(env: Record<string, string>): Started {
  const inherited = { ...process.env };
  for (const name of [
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'ALLOW_TEST_PAYMENTS',
    'HOST',
    'PUBLIC_URL',
    'DATABASE_URL',
    'SMTP_URL',
  ])
    delete inherited[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...inherited,
      DATABASE_URL: `sqlite:${path.join(dataDir, `${Math.random().toString(36).slice(2)}.db`)}`,
      UPLOAD_DIR: path.join(dataDir, 'uploads'),
      CLIENT_DIR: 'dist/client-absent-in-tests',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(s: Started, text: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!s.output().includes(text)) {
    if (s.child.exitCode !== null) throw new Error(`The server exited (${s.child.exitCode}):\n${s.output()}`);
    if (Date.now() > deadline) throw new Error(`No "${text}" within ${ms} ms:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('production without real payment keys', () => {
  it('refuses to start, and says what to set', async () => {
    const s = startServer({ NODE_ENV: 'production', PORT: String(await freePort()) });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('STRIPE_SECRET_KEY: must be set in production');
    expect(s.output()).toContain('ALLOW_TEST_PAYMENTS=true');
    expect(s.output()).not.toContain('is running at');
  });

  it('starts with ALLOW_TEST_PAYMENTS=true, and its startup log says payments are not real', async () => {
    const s = startServer({ NODE_ENV: 'production', PORT: String(await freePort()), HOST: '127.0.0.1', ALLOW_TEST_PAYMENTS: 'true' });
    await waitForOutput(s, TEST_PAYMENT_TEXTS.title.toUpperCase());
    expect(s.output()).toContain('is running at');
    expect(s.output()).toContain('(ALLOW_TEST_PAYMENTS=true)');
    expect(s.output()).toContain(TEST_PAYMENT_TEXTS.test);
  });
});

describe('development', () => {
  it('listens on the loopback address only unless HOST says otherwise', async () => {
    const port = await freePort();
    const s = startServer({ NODE_ENV: 'development', PORT: String(port) });
    await waitForOutput(s, 'is running at');
    expect(await canConnect('127.0.0.1', port)).toBe(true);
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    // A machine with a network address: the shop is not reachable there.
    if (outside) expect(await canConnect(outside, port)).toBe(false);
  });
});

describe('the back office knows whether payments are real', () => {
  let test: TestApp;
  let live: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
    live = await createTestApp({ env: { STRIPE_SECRET_KEY: 'sk_live_not_called_here', STRIPE_WEBHOOK_SECRET: 'whsec_not_used_here' } });
  });
  afterAll(async () => {
    await test?.close();
    await live?.close();
  });

  it('answers the admin from the server’s configuration, and nobody else', async () => {
    for (const [app, expected] of [
      [test, { provider: 'test', testPayments: true }],
      [live, { provider: 'stripe', testPayments: false }],
    ] as const) {
      const admin = new TestClient(app.app);
      await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
      const res = await admin.get('/api/admin/payment-mode');
      expect(res.statusCode).toBe(200);
      expect(PaymentModeResponse.parse(res.json())).toEqual(expected);
      expect((await new TestClient(app.app).get('/api/admin/payment-mode')).statusCode).toBe(401);
    }
  });
});
