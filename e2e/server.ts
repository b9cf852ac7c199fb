import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/server/test/free-port.js';

export type ShopServer = { baseUrl: string; dataDir: string; stop: () => Promise<void> };

/**
 * Starts the real server (`src/server/main.ts`, the built client) on a free loopback port with a
 * fresh SQLite database in its own temporary directory, and waits until /api/health answers.
 * `env` adds to (or overrides) the environment every browser-journey server gets (undefined unsets
 * a variable, e.g. PUBLIC_URL to run on its default). `stop` ends the
 * process and removes its directory.
 */
export async function startShopServer(env: Record<string, string | undefined> = {}): Promise<ShopServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'shop.db')}`,
      UPLOAD_DIR: path.join(dataDir, 'uploads'),
      LOG_LEVEL: 'warn',
      // Every browser of the suite comes from 127.0.0.1: one shop-wide day of checkouts, not one shopper's.
      CHECKOUT_LIMIT_PER_IP: '100000',
      CHECKOUT_MAX_UNITS_HELD: '100000',
      // The same for reviews: a worker's shop takes the review journeys of several files within 15 minutes.
      REVIEW_WRITE_LIMIT_PER_IP: '100000',
      // And for accounts: the journeys of a worker's shop sign up more than ten people within 15 minutes.
      SIGN_UP_LIMIT_PER_IP: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`Server exited early:\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Server did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, dataDir, stop };
}
