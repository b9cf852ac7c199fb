#!/usr/bin/env node
// Generates the flat-style SVG illustrations used by the shop:
//   public/images/products/{id}.svg   (one per seed product, 800x800)
//   public/images/categories/{id}.svg (one per seed category, 800x600)
//   public/images/hero.svg, about.svg, about-hero.svg, placeholder.svg
//   public/favicon.svg
// Product and category ids/names are read with simple regexes from
// src/server/db/seed/catalog-data.ts so every seeded product gets an image.
// Usage: node scripts/generate-images.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = (rel, svg) => {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, svg);
  return { rel, bytes: Buffer.byteLength(svg) };
};

// ---------------------------------------------------------------- data ----
const source = readFileSync(join(root, 'src/server/db/seed/catalog-data.ts'), 'utf8');
const section = (name) => {
  const start = source.indexOf(`export const ${name}`);
  if (start < 0) throw new Error(`${name} not found in catalog-data.ts`);
  const end = source.indexOf('\n];', start);
  return source.slice(start, end);
};
const unquote = (s) => s.replace(/\\'/g, "'");
const parseEntries = (block) => {
  const re = /\bid: '((?:[^'\\]|\\.)*)',\s*name:\s*'((?:[^'\\]|\\.)*)'/g;
  const entries = [];
  for (const m of block.matchAll(re)) entries.push({ id: unquote(m[1]), name: unquote(m[2]) });
  return entries;
};
const products = parseEntries(section('seedProducts'));
const categories = parseEntries(section('seedCategories'));
if (products.length === 0 || categories.length === 0) throw new Error('no products/categories parsed');

// -------------------------------------------------------------- helpers ----
const FONT = "font-family=\"'Helvetica Neue',Arial,'Liberation Sans','DejaVu Sans',sans-serif\"";
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const C = {
  green: '#2f7d4a',
  leaf: '#5fae7a',
  mint: '#a8dbb8',
  blue: '#6aa9d8',
  sky: '#bfe0f5',
  yellow: '#f2c94c',
  pink: '#e99aa6',
  kraft: '#c9995f',
  kraftDark: '#a87a44',
  ink: '#24382c',
  white: '#ffffff',
  steel: '#9aa6b2',
  steelDark: '#6b7785',
};
const CLOTH_COLORS = [C.leaf, C.blue, C.yellow, C.pink, C.mint];

const svgDoc = (w, h, title, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-labelledby="t"><title id="t">${esc(title)}</title>${body}</svg>\n`;

/** Soft background: flat colour, a lighter disc and a floor shadow. */
const backdrop = (bg, disc) =>
  `<rect width="800" height="800" fill="${bg}"/><circle cx="400" cy="380" r="300" fill="${disc}"/><ellipse cx="400" cy="660" rx="250" ry="26" fill="#000" opacity=".07"/>`;

const leaf = (x, y, s = 1, r = 0, fill = C.leaf) =>
  `<g transform="translate(${x} ${y}) rotate(${r}) scale(${s})"><path d="M0 0C20-46 70-58 110-54C104-12 70 24 0 0Z" fill="${fill}"/><path d="M4-2C40-20 70-36 100-50" stroke="#fff" stroke-opacity=".55" stroke-width="4" fill="none" stroke-linecap="round"/></g>`;

const sparkle = (x, y, s = 1, fill = '#fff') =>
  `<path transform="translate(${x} ${y}) scale(${s})" d="M0-30C4-6 6-4 30 0C6 4 4 6 0 30C-4 6-6 4-30 0C-6-4-4-6 0-30Z" fill="${fill}"/>`;

/** A count badge in the upper right corner. */
const badge = (n) => {
  const label = `${n}`;
  const fs = label.length >= 4 ? 50 : label.length === 3 ? 60 : 72;
  return `<circle cx="640" cy="170" r="86" fill="${C.green}"/><circle cx="640" cy="170" r="74" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="4" stroke-dasharray="8 7"/><text x="640" y="${170 + fs * 0.35}" text-anchor="middle" ${FONT} font-size="${fs}" font-weight="700" fill="#fff">${label}</text>`;
};

/** One folded cloth seen from slightly above (centred on 0,0). */
const flatCloth = (color) =>
  `<rect x="-170" y="-120" width="340" height="240" rx="26" fill="${color}"/><path d="M-170 30H170" stroke="#000" stroke-opacity=".12" stroke-width="8"/><rect x="-150" y="-100" width="300" height="200" rx="16" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="5" stroke-dasharray="12 9"/>`;

/** A stack of folded cloths seen from the front. */
const clothStack = (layers, colors = CLOTH_COLORS, x = 400, baseY = 640, w = 380, h = 62) => {
  let s = '';
  for (let i = 0; i < layers; i++) {
    const y = baseY - (i + 1) * (h - 4);
    const c = colors[i % colors.length];
    s += `<rect x="${x - w / 2}" y="${y}" width="${w}" height="${h}" rx="${h / 2}" fill="${c}"/><path d="M${x - w / 2 + 24} ${y + h * 0.62}H${x + w / 2 - 24}" stroke="#fff" stroke-opacity=".55" stroke-width="4" stroke-dasharray="11 8"/>`;
  }
  return s;
};

// -------------------------------------------------------------- drawings ----
// Each drawing returns the SVG body for the 800x800 canvas (no backdrop).
const draw = {
  clothPack(n) {
    if (n === 1) return `<g transform="translate(400 420) rotate(-8)">${flatCloth(C.leaf)}</g>${leaf(500, 300, 0.8, -20, C.green)}`;
    if (n === 2)
      return `<g transform="translate(350 450) rotate(-10)">${flatCloth(C.blue)}</g><g transform="translate(440 380) rotate(6)">${flatCloth(C.leaf)}</g>${badge(n)}`;
    const layers = n <= 5 ? n : n <= 12 ? 6 : 7;
    return clothStack(layers) + badge(n);
  },
  bulkBox(n) {
    return `<path d="M190 300L400 240L610 300L400 360Z" fill="#ddb57f"/><path d="M190 300L400 360V650L190 590Z" fill="${C.kraft}"/><path d="M610 300L400 360V650L610 590Z" fill="${C.kraftDark}"/><path d="M295 270L505 330" stroke="#e9cfa6" stroke-width="26"/><rect x="230" y="405" width="130" height="120" rx="10" fill="#fff" transform="skewY(16)" transform-origin="230 405"/><text x="295" y="470" text-anchor="middle" ${FONT} font-size="${String(n).length > 3 ? 40 : 48}" font-weight="700" fill="${C.green}" transform="skewY(16)" transform-origin="230 405">${n}</text><text x="295" y="505" text-anchor="middle" ${FONT} font-size="20" font-weight="700" fill="${C.ink}" transform="skewY(16)" transform-origin="230 405">CLOTHS</text>${leaf(455, 470, 0.9, -30, C.mint)}<path d="M330 280C350 220 420 200 450 232L430 262Z" fill="${C.leaf}"/><path d="M420 262C450 215 500 220 520 250Z" fill="${C.blue}"/>`;
  },
  mop() {
    return `<path d="M520 120L380 560" stroke="${C.steelDark}" stroke-width="22" stroke-linecap="round"/><path d="M506 164L482 238" stroke="${C.green}" stroke-width="34" stroke-linecap="round"/><circle cx="378" cy="566" r="26" fill="${C.ink}"/><rect x="200" y="570" width="380" height="56" rx="18" fill="${C.ink}"/><rect x="190" y="610" width="400" height="40" rx="14" fill="${C.leaf}"/><path d="M210 630H570" stroke="#fff" stroke-opacity=".55" stroke-width="5" stroke-dasharray="4 10" stroke-linecap="round"/>${leaf(560, 330, 0.8, -10)}`;
  },
  refill(n) {
    const pad = (x, y, r, c) =>
      `<g transform="translate(${x} ${y}) rotate(${r})"><rect x="-210" y="-70" width="420" height="140" rx="30" fill="${c}"/><rect x="-190" y="-50" width="380" height="100" rx="20" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width="5"/><path d="M-170-15H170M-170 15H170" stroke="#fff" stroke-opacity=".6" stroke-width="7" stroke-dasharray="3 13" stroke-linecap="round"/></g>`;
    if (n === 1) return pad(400, 430, -6, C.leaf);
    return pad(400, 540, 4, C.blue) + pad(400, 430, -4, C.mint) + pad(400, 320, -8, C.leaf) + badge(n);
  },
  handle() {
    return `<path d="M230 610L440 360" stroke="${C.steelDark}" stroke-width="40" stroke-linecap="round"/><path d="M440 360L600 170" stroke="${C.steel}" stroke-width="26" stroke-linecap="round"/><path d="M424 379L456 341" stroke="${C.green}" stroke-width="56" stroke-linecap="round"/><path d="M214 630L290 540" stroke="${C.green}" stroke-width="54" stroke-linecap="round"/><path d="M590 182L616 151" stroke="${C.ink}" stroke-width="18" stroke-linecap="round"/><path d="M520 420L600 330M590 360L600 330L570 338" stroke="${C.green}" stroke-width="8" fill="none" stroke-linecap="round" stroke-linejoin="round" opacity=".6"/>`;
  },
  spray(body = C.leaf, label = '#fff') {
    return `<path d="M340 300V232C340 212 355 200 375 200H486L524 214V242H472L452 300Z" fill="${C.ink}"/><rect x="520" y="212" width="22" height="28" rx="5" fill="${C.green}"/><path d="M462 252C488 272 494 302 480 330" stroke="${C.ink}" stroke-width="16" fill="none" stroke-linecap="round"/><rect x="352" y="296" width="96" height="40" rx="8" fill="${C.ink}"/><rect x="290" y="330" width="220" height="320" rx="44" fill="${body}"/><rect x="316" y="400" width="168" height="170" rx="18" fill="${label}"/>${leaf(358, 520, 1.1, -30, C.green)}<circle cx="572" cy="222" r="8" fill="${C.blue}"/><circle cx="604" cy="204" r="6" fill="${C.blue}"/><circle cx="600" cy="246" r="6" fill="${C.blue}"/>`;
  },
  jug() {
    return `<path d="M260 300C260 250 300 220 350 220H450L540 280V640C540 660 525 675 505 675H295C275 675 260 660 260 640Z" fill="#eef6f0"/><path d="M450 220L540 280V360H470C450 360 440 350 440 330V250Z" fill="#d6e9dc"/><rect x="330" y="160" width="90" height="70" rx="12" fill="${C.green}"/><rect x="290" y="420" width="220" height="180" rx="16" fill="${C.green}"/>${leaf(345, 585, 0.9, -15, C.mint)}<text x="400" y="478" text-anchor="middle" ${FONT} font-size="34" font-weight="700" fill="#fff">1 GAL</text><path d="M260 300C260 250 300 220 350 220H450L540 280V640C540 660 525 675 505 675H295C275 675 260 660 260 640Z" fill="none" stroke="#b9d3c1" stroke-width="6"/>`;
  },
  powder() {
    return `<path d="M250 260H520L560 230H290Z" fill="#e7e0d1"/><path d="M520 260L560 230V620L520 650Z" fill="#d2c7b1"/><rect x="250" y="260" width="270" height="390" rx="8" fill="#f5efe2"/><rect x="250" y="340" width="270" height="150" fill="${C.leaf}"/><text x="385" y="410" text-anchor="middle" ${FONT} font-size="40" font-weight="700" fill="#fff">LAUNDRY</text><text x="385" y="456" text-anchor="middle" ${FONT} font-size="32" font-weight="700" fill="#fff">POWDER</text>${leaf(300, 590, 0.9, -25)}<path d="M520 650C560 610 640 600 660 650Z" fill="#fff"/><circle cx="600" cy="628" r="6" fill="#e5e5e5"/><path d="M560 560H640V600C640 615 625 625 600 625C575 625 560 615 560 600Z" fill="${C.blue}"/><path d="M640 570H690" stroke="${C.blue}" stroke-width="14" stroke-linecap="round"/>`;
  },
  soap() {
    return `<ellipse cx="400" cy="600" rx="230" ry="40" fill="#d9cbb0"/><rect x="220" y="380" width="360" height="220" rx="50" fill="${C.yellow}"/><rect x="220" y="380" width="360" height="170" rx="50" fill="#f7dc85"/>${leaf(330, 500, 1.3, -20, C.yellow)}<circle cx="560" cy="330" r="40" fill="#fff" opacity=".9"/><circle cx="480" cy="280" r="26" fill="#fff" opacity=".8"/><circle cx="610" cy="250" r="18" fill="#fff" opacity=".8"/><circle cx="300" cy="320" r="22" fill="#fff" opacity=".7"/><circle cx="552" cy="318" r="10" fill="#fff"/>`;
  },
  glassCloths() {
    return (
      clothStack(4, [C.blue, '#8fc0e6', C.blue, '#8fc0e6']) +
      sparkle(250, 260, 1.6) +
      sparkle(560, 300, 1.1) +
      sparkle(600, 200, 0.8) +
      badge(4)
    );
  },
  squeegee() {
    return `<rect x="180" y="250" width="440" height="44" rx="14" fill="${C.green}"/><rect x="170" y="224" width="460" height="30" rx="10" fill="${C.ink}"/><path d="M400 294V620" stroke="${C.steelDark}" stroke-width="26" stroke-linecap="round"/><path d="M400 470V630" stroke="${C.green}" stroke-width="44" stroke-linecap="round"/>${sparkle(220, 170, 1.2)}${sparkle(590, 150, 0.9)}${sparkle(640, 420, 1.3)}`;
  },
  screws() {
    const screw = (x, y, r) =>
      `<g transform="translate(${x} ${y}) rotate(${r})"><path d="M-70-190H70C70-150 40-130 0-130S-70-150-70-190Z" fill="${C.steel}"/><rect x="-70" y="-200" width="140" height="24" rx="10" fill="${C.steelDark}"/><path d="M-36-130H36V140L0 200L-36 140Z" fill="${C.steel}"/><path d="M-36-100L36-84M-36-60L36-44M-36-20L36-4M-36 20L36 36M-36 60L36 76M-36 100L36 116" stroke="${C.steelDark}" stroke-width="10" stroke-linecap="round"/></g>`;
    return screw(320, 420, -12) + screw(490, 430, 14) + badge(2);
  },
  bag() {
    return `<defs><pattern id="m" width="28" height="28" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><path d="M0 0H28V28" fill="none" stroke="#fff" stroke-opacity=".7" stroke-width="4"/></pattern></defs><path d="M230 260H570L600 620C602 645 585 660 560 660H240C215 660 198 645 200 620Z" fill="${C.blue}"/><path d="M230 260H570L600 620C602 645 585 660 560 660H240C215 660 198 645 200 620Z" fill="url(#m)"/><rect x="220" y="230" width="360" height="44" rx="14" fill="${C.ink}"/><path d="M240 252H560" stroke="#fff" stroke-width="4" stroke-dasharray="6 6"/><rect x="530" y="260" width="26" height="54" rx="8" fill="${C.yellow}"/>`;
  },
  bundle(lid = C.leaf, box = '#7fbf94', big = false) {
    const small = big
      ? `<rect x="150" y="500" width="200" height="150" rx="8" fill="${C.blue}"/><rect x="140" y="470" width="220" height="50" rx="10" fill="#8fc0e6"/><rect x="232" y="470" width="36" height="180" fill="#fff"/>`
      : '';
    return `<path d="M240 240C220 160 330 170 400 250C470 170 580 160 560 240Z" fill="${C.yellow}"/><path d="M300 230C300 200 350 210 400 250C450 210 500 200 500 230Z" fill="#f7dc85"/><rect x="200" y="250" width="400" height="90" rx="14" fill="${lid}"/><rect x="230" y="340" width="340" height="300" rx="10" fill="${box}"/><rect x="370" y="250" width="60" height="390" fill="${C.yellow}"/>${leaf(480, 610, 0.8, -25, C.green)}${small}`;
  },
};

const productArt = (id) => {
  let m;
  if ((m = /^cloth-(\d+)-pack$/.exec(id))) return { bg: '#e8f4ec', disc: '#d3ebdb', body: draw.clothPack(Number(m[1])) };
  if ((m = /^bulk-(\d+)-pack$/.exec(id))) return { bg: '#f3ece1', disc: '#e9dcc6', body: draw.bulkBox(Number(m[1])) };
  if (id === 'sweep-and-mop') return { bg: '#e8f1f7', disc: '#d3e6f3', body: draw.mop() };
  if (id === 'mop-refill') return { bg: '#e8f4ec', disc: '#d3ebdb', body: draw.refill(1) };
  if ((m = /^mop-refill-(\d+)-pack$/.exec(id))) return { bg: '#e8f4ec', disc: '#d3ebdb', body: draw.refill(Number(m[1])) };
  if (/handle$/.test(id)) return { bg: '#eef0f3', disc: '#dfe3e9', body: draw.handle() };
  if (/screw/.test(id)) return { bg: '#eef0f3', disc: '#dfe3e9', body: draw.screws() };
  if (id === 'commercial-cleaner-gallon' || /gallon|jug/.test(id)) return { bg: '#e8f4ec', disc: '#d3ebdb', body: draw.jug() };
  if (/laundry-powder|powder/.test(id)) return { bg: '#f6f1e6', disc: '#ece2cc', body: draw.powder() };
  if (/soap/.test(id)) return { bg: '#fbf4dc', disc: '#f6e7b5', body: draw.soap() };
  if (id === 'glass-cleaning-cloths') return { bg: '#e6f1fa', disc: '#cfe4f5', body: draw.glassCloths() };
  if (/squeegee/.test(id)) return { bg: '#e6f1fa', disc: '#cfe4f5', body: draw.squeegee() };
  if (/glass-cleaner/.test(id)) return { bg: '#e6f1fa', disc: '#cfe4f5', body: draw.spray(C.blue) };
  if (/spray-bottle/.test(id)) return { bg: '#f6efe6', disc: '#eddcc6', body: draw.spray('#b86b2b') };
  if (/cleaner/.test(id)) return { bg: '#e8f4ec', disc: '#d3ebdb', body: draw.spray(C.leaf) };
  if (/bag/.test(id)) return { bg: '#e6f1fa', disc: '#cfe4f5', body: draw.bag() };
  if (id === 'kitchen-bundle') return { bg: '#e6f1fa', disc: '#cfe4f5', body: draw.bundle(C.blue, '#8fc0e6') };
  if (id === 'whole-home-bundle') return { bg: '#e8f4ec', disc: '#d3ebdb', body: draw.bundle(C.leaf, '#7fbf94', true) };
  if (/bundle/.test(id)) return { bg: '#fbf4dc', disc: '#f6e7b5', body: draw.bundle() };
  return null;
};

// ------------------------------------------------------------- products ----
const written = [];
const fallbacks = [];
for (const p of products) {
  let art = productArt(p.id);
  if (!art) {
    fallbacks.push(p.id);
    art = { bg: '#e8f4ec', disc: '#d3ebdb', body: leaf(300, 520, 3, -25) };
  }
  written.push(out(`public/images/products/${p.id}.svg`, svgDoc(800, 800, p.name, backdrop(art.bg, art.disc) + art.body)));
}

// ----------------------------------------------------------- categories ----
const categoryArt = {
  'cleaning-cloths': { bg: '#e8f4ec', disc: '#d3ebdb', body: clothStack(5) },
  mops: { bg: '#e8f1f7', disc: '#d3e6f3', body: draw.mop() },
  cleaners: { bg: '#e8f4ec', disc: '#d3ebdb', body: draw.spray(C.leaf) },
  'glass-cleaning': { bg: '#e6f1fa', disc: '#cfe4f5', body: draw.squeegee() },
  commercial: { bg: '#f3ece1', disc: '#e9dcc6', body: draw.bulkBox(500) },
  accessories: { bg: '#eef0f3', disc: '#dfe3e9', body: draw.screws().replace(/<circle cx="640"[\s\S]*$/, '') },
  bundles: { bg: '#fbf4dc', disc: '#f6e7b5', body: draw.bundle() },
};
for (const c of categories) {
  const art = categoryArt[c.id] ?? { bg: '#e8f4ec', disc: '#d3ebdb', body: leaf(300, 520, 3, -25) };
  // Full-width background, the 800x800 drawing scaled into the 600px height.
  const body = `<rect width="800" height="600" fill="${art.bg}"/><circle cx="400" cy="290" r="230" fill="${art.disc}"/><ellipse cx="400" cy="505" rx="200" ry="20" fill="#000" opacity=".07"/><g transform="translate(100 -15) scale(.75)">${art.body}</g>`;
  written.push(out(`public/images/categories/${c.id}.svg`, svgDoc(800, 600, c.name, body)));
}

// ------------------------------------------------------- scene pictures ----
const hills = (w, h, y) =>
  `<path d="M0 ${y}C${w * 0.2} ${y - 70} ${w * 0.4} ${y - 40} ${w * 0.55} ${y - 10}S${w * 0.85} ${y - 90} ${w} ${y - 30}V${h}H0Z" fill="#bfe3c9"/><path d="M0 ${y + 60}C${w * 0.25} ${y + 10} ${w * 0.5} ${y + 70} ${w * 0.7} ${y + 40}S${w * 0.9} ${y + 10} ${w} ${y + 30}V${h}H0Z" fill="#9fd1ae"/>`;

// hero: a shelf with products in front of a soft green wall
const hero = svgDoc(
  1600,
  900,
  'EcoClean reusable cleaning cloths, mop and cleaners',
  `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#eaf6ee"/><stop offset="1" stop-color="#d3ebdb"/></linearGradient></defs><rect width="1600" height="900" fill="url(#g)"/><circle cx="860" cy="190" r="110" fill="#f7e7a6"/>${hills(1600, 900, 640)}` +
    `` +
    `<g transform="translate(170 225) scale(.62)">${clothStack(6)}</g>` +
    `<g transform="translate(520 210) scale(.64)">${draw.spray(C.leaf)}</g>` +
    `<g transform="translate(760 270) scale(.56)">${draw.powder()}</g>` +
    `<g transform="translate(1030 170) scale(.7)">${draw.mop()}</g>` +
    `<rect x="160" y="626" width="1280" height="30" rx="10" fill="#c9995f"/><rect x="170" y="654" width="1260" height="16" fill="#a87a44"/>` +
    leaf(110, 300, 1.6, -30) +
    leaf(1450, 210, 1.1, -20, C.green) +
    leaf(1490, 580, 0.9, -80) +
    leaf(150, 560, 1, 10, C.green),
);
written.push(out('public/images/hero.svg', hero));

// about: a sunny window with a plant and a drying cloth
const about = svgDoc(
  1200,
  900,
  'A bright window with a plant and a drying cleaning cloth',
  `<rect width="1200" height="900" fill="#f3f7f1"/><rect x="250" y="110" width="700" height="520" rx="24" fill="#fff"/><rect x="280" y="140" width="640" height="460" rx="12" fill="#cfe4f5"/><circle cx="760" cy="280" r="80" fill="#f7e7a6"/>` +
    `<path d="M280 520C420 440 560 500 700 450S880 430 920 460V600H280Z" fill="#bfe3c9"/><path d="M600 140V600M280 370H920" stroke="#fff" stroke-width="22"/>` +
    `<rect x="200" y="610" width="800" height="40" rx="12" fill="#c9995f"/><rect x="200" y="650" width="800" height="250" fill="#e7dfd0"/>` +
    `<path d="M330 470C330 430 400 430 400 470L390 610H340Z" fill="#d9774b"/><rect x="318" y="450" width="94" height="30" rx="8" fill="#c2643b"/>${leaf(365, 452, 1.2, -80)}${leaf(365, 452, 1.1, -120, C.green)}${leaf(365, 452, 0.9, -30, C.green)}${leaf(365, 452, 1, -160)}` +
    `<path d="M620 470H900" stroke="#6b7785" stroke-width="6"/><path d="M660 470H800L790 600C760 590 700 600 670 590Z" fill="${C.leaf}"/><path d="M680 490H785" stroke="#fff" stroke-opacity=".6" stroke-width="5" stroke-dasharray="12 9"/>` +
    `<g transform="translate(820 470) scale(.28)">${draw.spray(C.blue)}</g>` +
    `${sparkle(470, 240, 1.3)}${sparkle(520, 300, 0.8)}`,
);
written.push(out('public/images/about.svg', about));

// about-hero: wide landscape with leaves and rolling hills
const aboutHero = svgDoc(
  1600,
  700,
  'Rolling green hills under a soft sky',
  `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#dff0f8"/><stop offset="1" stop-color="#f3f9f1"/></linearGradient></defs><rect width="1600" height="700" fill="url(#s)"/><circle cx="1220" cy="190" r="110" fill="#f7e7a6"/>` +
    `<ellipse cx="340" cy="170" rx="120" ry="34" fill="#fff"/><ellipse cx="420" cy="150" rx="80" ry="34" fill="#fff"/><ellipse cx="900" cy="120" rx="90" ry="26" fill="#fff"/>` +
    `<path d="M0 470C260 360 520 420 760 440S1300 340 1600 400V700H0Z" fill="#bfe3c9"/><path d="M0 560C300 480 620 560 900 530S1400 470 1600 520V700H0Z" fill="#9fd1ae"/><path d="M0 640C400 600 800 660 1200 620S1500 610 1600 630V700H0Z" fill="#7fbf94"/>` +
    `<path d="M1280 470V380" stroke="#a87a44" stroke-width="14"/><circle cx="1280" cy="350" r="60" fill="${C.leaf}"/><path d="M260 520V450" stroke="#a87a44" stroke-width="12"/><circle cx="260" cy="425" r="46" fill="${C.green}"/>` +
    leaf(120, 180, 1.4, -20) +
    leaf(1460, 560, 1.2, -140, C.green) +
    leaf(700, 250, 0.8, 10, C.mint),
);
written.push(out('public/images/about-hero.svg', aboutHero));

// placeholder: neutral grey with a simple image icon
const placeholder = svgDoc(
  800,
  800,
  'Image not available',
  `<rect width="800" height="800" fill="#e5e7eb"/><rect x="250" y="270" width="300" height="240" rx="24" fill="none" stroke="#9ca3af" stroke-width="18"/><circle cx="335" cy="345" r="28" fill="#9ca3af"/><path d="M268 490L375 385L445 450L480 415L532 470V492H268Z" fill="#9ca3af"/>`,
);
written.push(out('public/images/placeholder.svg', placeholder));

// favicon: a green leaf
const favicon = svgDoc(
  64,
  64,
  'EcoClean',
  `<rect width="64" height="64" rx="14" fill="${C.green}"/><path d="M14 50C14 28 28 14 52 12C52 36 38 50 14 50Z" fill="#a8dbb8"/><path d="M16 48C26 36 36 26 46 18" stroke="${C.green}" stroke-width="3.5" fill="none" stroke-linecap="round"/>`,
);
written.push(out('public/favicon.svg', favicon));

// --------------------------------------------------------------- report ----
for (const w of written) console.log(`${String(w.bytes).padStart(6)}  ${w.rel}`);
console.log(`\n${products.length} products, ${categories.length} categories, ${written.length} files written.`);
if (fallbacks.length) console.warn(`No specific drawing for: ${fallbacks.join(', ')} (used a generic leaf).`);
const big = written.filter((w) => w.rel.includes('/products/') && w.bytes > 4096);
if (big.length) console.warn(`Over 4 KB: ${big.map((w) => w.rel).join(', ')}`);
