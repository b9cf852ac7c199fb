// The measuring tools (Lighthouse, chrome-launcher, autocannon) are used by `npm run lighthouse`
// and `npm run bench` only. They are some 200 packages and 190 MB, so they are not among the
// project's dependencies, which every `npm install` and every first `npm start` would wait for:
// they have their own package.json and lockfile in scripts/tools and are installed there on the
// first run of either command (and again when that lockfile changes).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TOOLS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tools');

export function ensureTools() {
  const marker = path.join(TOOLS_DIR, 'node_modules', '.package-lock.json');
  const stale =
    !fs.existsSync(marker) ||
    ['package.json', 'package-lock.json'].some((f) => fs.statSync(path.join(TOOLS_DIR, f)).mtimeMs > fs.statSync(marker).mtimeMs + 1000);
  if (!stale) return;
  console.log('Installing the measuring tools into scripts/tools (first run only)…');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', TOOLS_DIR], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('npm install in scripts/tools failed');
    process.exit(r.status ?? 1);
  }
  const now = new Date();
  if (fs.existsSync(marker)) fs.utimesSync(marker, now, now);
}

/** One of the tools' modules (installing them first if needed): 'lighthouse', 'chrome-launcher' or 'autocannon'. */
export async function importTool(name) {
  ensureTools();
  const { tools } = await import('./tools/index.mjs');
  if (!tools[name]) throw new Error(`No such measuring tool: ${name}`);
  return tools[name]();
}
