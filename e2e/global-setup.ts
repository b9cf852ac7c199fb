import type { TestProject } from 'vitest/node';
import { startFakes } from './fakes.js';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureClientBuild } from '../scripts/ensure-build.mjs';
import { startShopServer } from './server.js';

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
  const fakes = await startFakes();
  const { baseUrl, dataDir, stop } = await startShopServer({
    SMTP_URL: fakes.smtpUrl,
    SHIPSTATION_V2_BASE: fakes.shipstationUrl,
    SHIPSTATION_V1_BASE: fakes.shipstationUrl,
  });
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('fakesUrl', fakes.controlUrl);
  project.provide('workflowUrl', fakes.workflowUrl);

  return async () => {
    await stop();
    await fakes.close();
  };
}
