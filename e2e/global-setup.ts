import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakes } from './fakes.js';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureClientBuild } from '../scripts/ensure-build.mjs';
import { freePort } from '../src/server/test/free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** The fakes' control API (e2e/fakes.ts): /mail, /workflow/received, /workflow/down, /workflow/up. */
    fakesUrl: string;
    /** Where the contact form's workflow endpoint is (the admin enters it in Settings). */
    workflowUrl: string;
  }
}

/** Starts the real server (built client, fresh SQLite database) for the browser journeys. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureClientBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-'));
  const fakes = await startFakes();
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
      SMTP_URL: fakes.smtpUrl,
      SHIPSTATION_V2_BASE: fakes.shipstationUrl,
      SHIPSTATION_V1_BASE: fakes.shipstationUrl,
      LOG_LEVEL: 'warn',
      // Every browser of the suite comes from 127.0.0.1: one shop-wide day of checkouts, not one shopper's.
      CHECKOUT_LIMIT_PER_IP: '100000',
      CHECKOUT_MAX_UNITS_HELD: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('fakesUrl', fakes.controlUrl);
  project.provide('workflowUrl', fakes.workflowUrl);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await fakes.close();
  };
}
