#!/usr/bin/env node
// Renders public/og-image.png (1200x630 Open Graph image) from an inline SVG
// using the system Chromium through playwright-core.
// Usage: node scripts/generate-og-image.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(root, 'public/og-image.png');
const W = 1200;
const H = 630;

const FONT = "'Helvetica Neue',Arial,'Liberation Sans','DejaVu Sans',sans-serif";
const leaf = (x, y, s, r, fill) =>
  `<g transform="translate(${x} ${y}) rotate(${r}) scale(${s})"><path d="M0 0C20-46 70-58 110-54C104-12 70 24 0 0Z" fill="${fill}"/><path d="M4-2C40-20 70-36 100-50" stroke="#fff" stroke-opacity=".55" stroke-width="4" fill="none" stroke-linecap="round"/></g>`;
const stack = ['#5fae7a', '#6aa9d8', '#f2c94c', '#e99aa6', '#a8dbb8', '#5fae7a']
  .map(
    (c, i) =>
      `<rect x="780" y="${470 - i * 54}" width="300" height="58" rx="29" fill="${c}"/><path d="M802 ${506 - i * 54}H1058" stroke="#fff" stroke-opacity=".6" stroke-width="4" stroke-dasharray="11 8"/>`,
  )
  .join('');

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<rect width="${W}" height="${H}" fill="#2f7d4a"/>
<circle cx="930" cy="330" r="250" fill="#3a8c57"/>
<path d="M0 560C250 510 520 590 760 560S1100 520 1200 545V630H0Z" fill="#276a3e"/>
<ellipse cx="930" cy="532" rx="175" ry="14" fill="#000" opacity=".15"/>
${stack}
${leaf(1020, 180, 1.1, -20, '#a8dbb8')}
${leaf(70, 120, 0.9, -30, '#5fae7a')}
<text x="80" y="290" font-family="${FONT}" font-size="120" font-weight="700" fill="#ffffff">EcoClean</text>
<text x="84" y="362" font-family="${FONT}" font-size="40" fill="#e3f3e8">Reusable cleaning cloths &amp;</text>
<text x="84" y="414" font-family="${FONT}" font-size="40" fill="#e3f3e8">low-waste cleaners for every home</text>
<rect x="84" y="458" width="220" height="6" rx="3" fill="#f2c94c"/>
</svg>`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: W, height: H }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;overflow:hidden">${svg}</body></html>`);
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: W, height: H }, type: 'png' });
  writeFileSync(outFile, png);
} finally {
  await browser.close();
}

// Verify dimensions from the PNG IHDR chunk.
const buf = readFileSync(outFile);
const signature = buf.subarray(0, 8).toString('hex');
const width = buf.readUInt32BE(16);
const height = buf.readUInt32BE(20);
if (signature !== '89504e470d0a1a0a' || buf.subarray(12, 16).toString('ascii') !== 'IHDR') {
  throw new Error('og-image.png is not a valid PNG');
}
if (width !== W || height !== H) throw new Error(`og-image.png is ${width}x${height}, expected ${W}x${H}`);
console.log(`wrote public/og-image.png (${width}x${height}, ${buf.length} bytes)`);
