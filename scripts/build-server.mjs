// Compiles the server (src/server, src/shared) to one JavaScript file, dist/node/main.js, when any
// of its sources is newer than the last build, so `npm start` runs it with plain `node`: no
// TypeScript compiler in the serving process. `npm run dev` still runs the sources through tsx.
//
// One bundle, not a file per module: the process loads one module instead of some two hundred,
// which starts faster and holds less. Every package stays outside the bundle and is loaded from
// node_modules as usual (native modules such as better-sqlite3 and argon2 cannot be bundled; the
// others gain nothing from it). Migrations are imported by name in db/migrate.ts, so they are in the
// bundle; the server finds everything else (the built client and its server-rendering bundle,
// uploads, the SQLite file) from its settings relative to the working directory, as before.
//
// Not dist/server: that is the server-rendering bundle's directory, which its build empties.
import fs from 'node:fs';
import path from 'node:path';

export const SERVER_OUT = 'dist/node/main.js';
const SOURCES = ['src/server', 'src/shared', 'package.json', 'scripts/build-server.mjs'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return /\.test\.tsx?$/.test(p) ? 0 : st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, entry)));
  return max;
}

/** Builds dist/node/main.js (with a source map beside it) if it is missing or older than its sources. */
export async function ensureServerBuild({ force = false } = {}) {
  const built = fs.existsSync(SERVER_OUT) ? fs.statSync(SERVER_OUT).mtimeMs : 0;
  if (!force && built > Math.max(...SOURCES.map(newestMtime))) return false;
  console.log('Building the server…');
  const esbuild = await import('esbuild');
  // Written beside the target and renamed over it, so a process starting meanwhile never reads half a file.
  const tmp = path.join(path.dirname(SERVER_OUT), `.main-${process.pid}.js`);
  try {
    await esbuild.build({
      entryPoints: ['src/server/main.ts'],
      outfile: tmp,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      sourcesContent: false,
      // Names stay as written, so stack traces and logged errors read like the sources.
      keepNames: true,
      logLevel: 'warning',
      legalComments: 'none',
    });
  } catch {
    console.error('Server build failed');
    process.exit(1);
  }
  const map = fs.readFileSync(`${tmp}.map`, 'utf8');
  fs.writeFileSync(`${SERVER_OUT}.map`, map);
  const js = fs
    .readFileSync(tmp, 'utf8')
    .replace(/\/\/# sourceMappingURL=\S+\s*$/, `//# sourceMappingURL=${path.basename(SERVER_OUT)}.map\n`);
  fs.writeFileSync(tmp, js);
  fs.renameSync(tmp, SERVER_OUT);
  fs.rmSync(`${tmp}.map`, { force: true });
  return true;
}

/**
 * The flags `node` runs the compiled server with (npm start and the bench); see "Memory" in
 * docs/operations.md for the measurements behind them.
 * - Stack traces name the TypeScript sources (the map is read once, at start: about 0.3 MB).
 * - The young generation is capped at 4 MB a half (V8 grows it to 16 MB under load): 24 MB less,
 *   and no slower in side-by-side runs.
 * - The old generation may grow to 1.5× what the last full collection kept, instead of V8's up to
 *   4×: the same pages grew it to 90–160 MB for 40 MB of live objects. There is no ceiling, so
 *   nothing that really needs more memory (an export, a large report) can run out.
 */
export function serverNodeArgs() {
  // SERVER_NODE_ARGS (measuring only) adds Node options such as `--cpu-prof --cpu-prof-dir=/tmp/prof`,
  // which NODE_OPTIONS refuses.
  const extra = process.env.SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  return ['--enable-source-maps', '--max-semi-space-size=4', '--heap-growing-percent=50', ...extra];
}

/**
 * Environment for the server process: two malloc arenas instead of one per thread (compression
 * runs on libuv's worker threads; each thread's arena kept 10–30 MB of freed buffers after load),
 * blocks of 128 KB and more mapped on their own (so freeing one gives it back to the system at
 * once, not to an arena) and an arena's free top handed back past 128 KB: after the bench's load
 * the process held 144 MB instead of 191 MB (SQLite, small seed, 10 connections).
 */
export function serverEnv(env = process.env) {
  return { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072', ...env };
}

if (import.meta.url === `file://${path.resolve(process.argv[1] ?? '')}`) {
  await ensureServerBuild({ force: process.argv.includes('--force') });
}
