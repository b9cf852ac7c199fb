// Link-preview copies of the seeded product pictures (decision 0043): a chat app or a social site
// draws no SVG, so each public/images/products/<name>.svg has a <name>.png beside it, 800×800,
// which the product page names as its og:image. Run after scripts/generate-images.mjs:
//   node scripts/generate-previews.mjs
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const dir = path.resolve('public/images/products');
let written = 0;
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.svg'))) {
  const png = path.join(dir, file.replace(/\.svg$/, '.png'));
  await sharp(path.join(dir, file), { density: 72 }).resize(800, 800).png({ compressionLevel: 9, palette: true, quality: 90 }).toFile(png);
  written++;
}
console.log(`wrote ${written} preview PNGs in ${path.relative(process.cwd(), dir)}`);
