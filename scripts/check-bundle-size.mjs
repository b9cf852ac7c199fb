// Fails when the storefront's first-load JavaScript (the entry and the chunks it imports
// statically, as index.html loads them) is over budget, gzipped, or in more than a few files; or
// when a storefront page that starts without zod (shared/pages.ts: no needsZod) imports it after
// all, through a module of shared words that also holds a schema: zod's evaluation and schemas then
// run in the page's start-up task (10–20 ms of this machine's CPU, four times that on Lighthouse's
// phone).
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
// Every file is a request on the phone's line before the first paint, beside the stylesheet and the
// page's picture (Lighthouse's simulated largest paint counts them all): the first load is the
// entry, the bundler's runtime, React, React DOM and start.tsx's modules in one chunk (vite.config.ts).
const MAX_FIRST_LOAD_FILES = 6;
console.log(`First-load scripts: ${files.size} files (at most ${MAX_FIRST_LOAD_FILES})`);
if (files.size > MAX_FIRST_LOAD_FILES) {
  console.error(`The first load is ${files.size} files: keep start.tsx's static imports in one chunk (firstLoadChunk in vite.config.ts).`);
  process.exit(1);
}

const assets = fs.readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js'));
const size = (f) => fs.statSync(path.join(dir, 'assets', f)).size;
/** zod itself: the largest chunk named after it (the others are the shop's zod settings). */
const zodChunk = assets.filter((f) => f.startsWith('zod-')).sort((a, b) => size(b) - size(a))[0];
/** A chunk and every chunk it imports statically (what the browser evaluates with it). */
function staticGraph(start) {
  const seen = new Set();
  const queue = [start];
  while (queue.length) {
    const f = queue.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    const code = fs.readFileSync(path.join(dir, 'assets', f), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) queue.push(m[1]);
  }
  return seen;
}
const WITHOUT_ZOD = ['product-page', 'checkout-page', 'cart-page', 'faq-page', 'about-page'];
const leaks = [];
for (const page of WITHOUT_ZOD) {
  const chunk = assets.find((f) => f.startsWith(`${page}-`));
  if (!chunk) {
    console.error(`No chunk named ${page}-… in ${dir}/assets: update WITHOUT_ZOD in scripts/check-bundle-size.mjs.`);
    process.exit(1);
  }
  if (zodChunk && staticGraph(chunk).has(zodChunk)) leaks.push(page);
}
for (const f of files) if (zodChunk && staticGraph(f.replace(/^\/assets\//, '')).has(zodChunk)) leaks.push(`first load (${f})`);
if (!zodChunk) console.log('zod: no chunk of its own found (nothing to check)');
if (leaks.length) {
  console.error(
    `zod is imported at start-up by: ${leaks.join(', ')}. Move the words or helpers these pages import out of modules that build schemas (e.g. shared/card-words.ts, shared/marketing-consent.ts).`,
  );
  process.exit(1);
}
console.log(`zod: not in the first load nor in ${WITHOUT_ZOD.join(', ')}`);
