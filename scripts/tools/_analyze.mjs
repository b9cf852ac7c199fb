import { build } from 'vite';
import zlib from 'node:zlib';
const out = [];
await build({
  configFile: '/work/main/vite.config.ts',
  logLevel: 'silent',
  build: { outDir: '/tmp/analyze-dist', emptyOutDir: true, write: true },
  plugins: [{
    name: 'sizes',
    generateBundle(_, bundle) {
      for (const [file, c] of Object.entries(bundle)) {
        if (c.type !== 'chunk') continue;
        for (const [id, m] of Object.entries(c.modules)) out.push([file, id.replace('/work/main/', ''), m.renderedLength, m.code ? zlib.gzipSync(m.code).length : 0]);
      }
    },
  }],
});
const fs = await import('node:fs');
const html = fs.readFileSync('/tmp/analyze-dist/index.html', 'utf8');
const files = new Set();
for (const m of html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g)) files.add(m[1]);
for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)) files.add(m[1]);
const first = out.filter(([f]) => files.has(f)).filter(([, id]) => !id.includes('node_modules'));
first.sort((a, b) => b[3] - a[3]);
for (const r of first.slice(0, 45)) console.log(String(r[3]).padStart(6), r[0].padEnd(30), r[1]);
