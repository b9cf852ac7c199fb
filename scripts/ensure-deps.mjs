// Installs dependencies when they are missing or older than package.json / the lockfile.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

export function ensureDependencies() {
  const marker = 'node_modules/.package-lock.json';
  const stale =
    !fs.existsSync(marker) ||
    ['package.json', 'package-lock.json'].some((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs > fs.statSync(marker).mtimeMs + 1000);
  if (!stale) return;
  // Not `npm ci`: this registry mirror leaves other platforms' optional packages out of the lockfile, which ci rejects.
  const cmd = 'install';
  console.log(`Installing dependencies (npm ${cmd})…`);
  // The build needs the dev dependencies (Vite, TypeScript): with NODE_ENV=production, npm would leave them out, and remove them if installed.
  const r = spawnSync('npm', [cmd, '--include=dev', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('npm install failed');
    process.exit(r.status ?? 1);
  }
  // Touch the marker so an unchanged package.json does not trigger another install.
  const now = new Date();
  if (fs.existsSync(marker)) fs.utimesSync(marker, now, now);
}
