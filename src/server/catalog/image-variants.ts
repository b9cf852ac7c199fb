import fs from 'node:fs/promises';
import path from 'node:path';
import type Sharp from 'sharp';
import { IMAGE_VARIANT_WIDTHS, VARIANT_SUFFIX, imageVariantPath } from '../../shared/image-variants.js';
import { PRIVATE_FILE_MODE } from '../lib/private-files.js';

/**
 * sharp (libvips) is loaded the first time an image needs its variants, not when the shop starts:
 * it adds some 14 MB to the process (its libraries and their set-up), which a shop that is not
 * receiving photos at that moment does not need.
 */
let loaded: Promise<typeof Sharp> | undefined;
function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then((m) => m.default);
  return loaded;
}

/** Originals that get variants, by extension (what storeImage names them). */
const RASTER = /\.(jpg|jpeg|png|webp)$/i;
/** The folders uploads go to (storeImage's `folder`). */
const UPLOAD_FOLDERS = ['products', 'categories', 'content', 'reviews'] as const;

/**
 * Every variant a stored original should have: file path (beside it) and how to encode it. WebP
 * for all; the original's own format too, for browsers without WebP (none for a WebP original).
 */
type Variant = { file: string; width: number; format: 'webp' | 'jpeg' | 'png' };

function plannedVariants(file: string): Variant[] {
  const ext = path.extname(file).slice(1).toLowerCase();
  const own: Variant['format'] | null = ext === 'png' ? 'png' : ext === 'webp' ? null : 'jpeg';
  return IMAGE_VARIANT_WIDTHS.flatMap((width): Variant[] => [
    { file: imageVariantPath(file, width, 'webp'), width, format: 'webp' },
    ...(own ? [{ file: imageVariantPath(file, width), width, format: own }] : []),
  ]);
}

/**
 * Writes the variants of the original at `file` (all, or only those missing), answering how many
 * it wrote. Each is turned upright by the EXIF orientation, never wider than the original (a
 * small photo's wide variants are the photo at its own size, so any width the client asks for
 * exists) and carries no metadata (sharp writes none unless asked).
 */
export async function writeImageVariants(file: string, { onlyMissing = false } = {}): Promise<number> {
  let planned = plannedVariants(file);
  if (onlyMissing) {
    const exists = await Promise.all(
      planned.map((v) =>
        fs.access(v.file).then(
          () => true,
          () => false,
        ),
      ),
    );
    planned = planned.filter((_, i) => !exists[i]);
    if (!planned.length) return 0;
  }
  // Decoded and turned upright once, at the largest width needed; the smaller ones are made from that.
  const largest = Math.max(...planned.map((v) => v.width));
  const sharp = await loadSharp();
  const { data, info } = await sharp(await fs.readFile(file), { failOn: 'error' })
    .autoOrient()
    .resize({ width: largest, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  await Promise.all(
    planned.map(async (v) => {
      let pipeline = sharp(data, raw).resize({ width: v.width, withoutEnlargement: true });
      pipeline =
        v.format === 'webp'
          ? pipeline.webp({ quality: 78, effort: 2 })
          : v.format === 'png'
            ? pipeline.png({ compressionLevel: 8 })
            : pipeline.jpeg({ quality: 80, mozjpeg: true, progressive: true });
      const tmp = `${v.file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, await pipeline.toBuffer(), { mode: PRIVATE_FILE_MODE });
      // Renamed into place: a half-written variant is never served, and a failed run leaves none.
      await fs.rename(tmp, v.file);
    }),
  );
  return planned.length;
}

/**
 * Writes the variants missing for every original in the upload folders (images uploaded before
 * variants existed, or whose variants were lost); answers how many it wrote. Safe to run again: a
 * second run writes none. An unreadable file is logged and skipped.
 */
export async function backfillImageVariants(uploadDir: string, log: (msg: string, err?: unknown) => void = () => {}): Promise<number> {
  let written = 0;
  for (const folder of UPLOAD_FOLDERS) {
    const dir = path.resolve(uploadDir, folder);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!RASTER.test(name) || VARIANT_SUFFIX.test(name)) continue;
      try {
        written += await writeImageVariants(path.join(dir, name), { onlyMissing: true });
      } catch (err) {
        log(`could not make the variants of ${folder}/${name}`, err);
      }
    }
  }
  return written;
}
