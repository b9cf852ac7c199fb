import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/server/test/free-port.js';

/** A real server process (what `npm start` runs), for the fault suite: it can be killed and restarted. */
export type ServerProcess = {
  base: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

export async function startServer(databaseUrl: string, env: Record<string, string> = {}, port?: number): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const base = `http://127.0.0.1:${p}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(p),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATABASE_URL: databaseUrl,
      UPLOAD_DIR: path.join(os.tmpdir(), 'shop-fault-uploads'),
      CLIENT_DIR: 'dist/client-not-needed-by-the-fault-suite',
      LOG_LEVEL: 'warn',
      // Every shopper of the fault suite comes from 127.0.0.1: the per-IP checkout limit would
      // stop a stream of test payments long before the fault under test (per browser still applies).
      CHECKOUT_LIMIT_PER_IP: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited while starting:\n${output}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start in 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    base,
    port: p,
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}

/** A fresh SQLite file in a temporary folder. */
export function sqliteUrl(): { url: string; drop: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-fault-'));
  return { url: `sqlite:${path.join(dir, 'shop.db')}`, drop: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A browser-like HTTP client for a server process: keeps cookies, sends the shop's Origin. */
export class Browserish {
  cookies = new Map<string, string>();
  constructor(private base: string) {}
  pointAt(base: string): this {
    this.base = base;
    return this;
  }
  /** Signs in as `who` (with the form's timing, as a person's browser sends it); the answer's status. */
  async signIn(who: { email: string; password: string }): Promise<number> {
    return (await this.request('POST', '/api/auth/sign-in', { email: who.email, password: who.password, elapsedMs: 5000 })).status;
  }
  async request(method: string, url: string, body?: unknown, form = false): Promise<Response> {
    const headers: Record<string, string> = { origin: this.base };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      payload = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
    }
    const res = await fetch(`${this.base}${url}`, { method, headers, body: payload, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = (pair ?? '').split('=');
      if (k) this.cookies.set(k, v ?? '');
    }
    return res;
  }
}
