// Builds the client when any of its sources is newer than the last build.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import zlib from 'node:zlib';

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
  // The server-rendering bundle first: the browser build's index.html marks a finished build.
  const builds = [
    ['vite', 'build', '--logLevel', 'warn', '--ssr', 'entry-server.tsx', '--outDir', path.resolve('dist/server')],
    ['vite', 'build', '--logLevel', 'warn'],
  ];
  // Always a production build: under vitest (NODE_ENV=test, the e2e setup) Vite would otherwise
  // build React's development JSX, whose server bundle then fails every render in a production
  // server (`jsxDEV is not a function`: pages served without their HTML, and measured as such).
  const env = { ...process.env, NODE_ENV: 'production' };
  for (const args of builds) {
    const r = spawnSync('npx', args, { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error('Client build failed');
      process.exit(r.status ?? 1);
    }
  }
  precompress('dist/client');
  return true;
}

/** Writes .br and .gz beside every text asset, so the server sends them without compressing per request. */
function precompress(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) precompress(p);
    else if (/\.(js|css|svg|json|txt|xml)$/.test(entry.name)) {
      const buf = fs.readFileSync(p);
      if (buf.length < 1024) continue;
      fs.writeFileSync(`${p}.br`, zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      fs.writeFileSync(`${p}.gz`, zlib.gzipSync(buf, { level: 9 }));
    }
  }
}
