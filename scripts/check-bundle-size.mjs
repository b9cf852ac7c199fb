// Fails when the storefront's first-load JavaScript (the entry and the chunks it imports
// statically, as index.html loads them) is over budget, gzipped.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = Number(process.env.FIRST_LOAD_JS_BUDGET_KB ?? 120);
const dir = 'dist/client';
const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
const files = new Set();
for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) files.add(m[1]);
for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) files.add(m[1]);

let total = 0;
const rows = [];
for (const f of files) {
  const buf = fs.readFileSync(path.join(dir, f.replace(/^\//, '')));
  const gz = zlib.gzipSync(buf, { level: 9 }).length;
  total += gz;
  rows.push(`${(gz / 1024).toFixed(1).padStart(7)} KB  ${f}`);
}
console.log(rows.join('\n'));
console.log(`First-load JS: ${(total / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB)`);
if (total / 1024 > BUDGET_KB) {
  console.error('Over budget: move code out of the storefront entry (lazy routes, smaller dependencies).');
  process.exit(1);
}
