import type { TestProject } from 'vitest/node';
import { startFakes } from './fakes.js';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureClientBuild } from '../scripts/ensure-build.mjs';
import { startShopServer } from './server.js';

/** One shop of the browser journeys: its server, its data, its fakes (see worker-shop.ts). */
export type E2eShop = {
  baseUrl: string;
  dataDir: string;
  /** The fakes' control API (e2e/fakes.ts): /mail, /workflow/received, /workflow/down, /workflow/up. */
  fakesUrl: string;
  /** Where the contact form's workflow endpoint is (the admin enters it in Settings). */
  workflowUrl: string;
};

declare module 'vitest' {
  export interface ProvidedContext extends E2eShop {
    /** One shop per worker: worker N (VITEST_POOL_ID) drives shops[N - 1]. */
    shops: E2eShop[];
  }
}

/**
 * Starts the real servers (built client, each its own fresh SQLite database and its own fakes)
 * for the browser journeys: one per worker, so that files run side by side without seeing each
 * other's orders, e-mails or settings. A file sees its worker's shop through inject('baseUrl') and
 * the rest, as before (worker-shop.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureClientBuild();
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const started = await Promise.all(
    Array.from({ length: workers }, async () => {
      const fakes = await startFakes();
      const server = await startShopServer({
        SMTP_URL: fakes.smtpUrl,
        SHIPSTATION_V2_BASE: fakes.shipstationUrl,
        SHIPSTATION_V1_BASE: fakes.shipstationUrl,
      });
      const shop: E2eShop = {
        baseUrl: server.baseUrl,
        dataDir: server.dataDir,
        fakesUrl: fakes.controlUrl,
        workflowUrl: fakes.workflowUrl,
      };
      return { shop, stop: async () => (await server.stop(), await fakes.close()) };
    }),
  );
  const shops = started.map((s) => s.shop);
  project.provide('shops', shops);
  // The first shop is also every worker's default (worker-shop.ts replaces it with the worker's own).
  project.provide('baseUrl', shops[0]!.baseUrl);
  project.provide('dataDir', shops[0]!.dataDir);
  project.provide('fakesUrl', shops[0]!.fakesUrl);
  project.provide('workflowUrl', shops[0]!.workflowUrl);

  return async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
}
