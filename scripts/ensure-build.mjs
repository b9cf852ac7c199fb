// Builds the client when any of its sources is newer than the last build.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const SOURCES = ['src/client', 'src/shared', 'public', 'vite.config.ts', 'package.json'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, entry)));
  return max;
}

export function ensureClientBuild({ force = false } = {}) {
  const out = 'dist/client/index.html';
  const built = fs.existsSync(out) ? fs.statSync(out).mtimeMs : 0;
  const newest = Math.max(...SOURCES.map(newestMtime));
  if (!force && built > newest) return false;
  console.log('Building the client…');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('Client build failed');
    process.exit(r.status ?? 1);
  }
  return true;
}
