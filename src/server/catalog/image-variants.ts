import type Sharp from 'sharp';
import { IMAGE_VARIANT_WIDTHS, VARIANT_SUFFIX, imageVariantPath } from '../../shared/image-variants.js';
import { isFileStoreError, readFile, type FileStore } from '../files/file-store.js';

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

const TYPE_OF_FORMAT = { webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png' } as const;

/**
 * Every variant a stored original should have: its key (beside the original's) and how to encode
 * it. WebP for all; the original's own format too, for browsers without WebP (none for a WebP original).
 */
type Variant = { key: string; width: number; format: 'webp' | 'jpeg' | 'png' };

function plannedVariants(key: string): Variant[] {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  const own: Variant['format'] | null = ext === 'png' ? 'png' : ext === 'webp' ? null : 'jpeg';
  return IMAGE_VARIANT_WIDTHS.flatMap((width): Variant[] => [
    { key: imageVariantPath(key, width, 'webp'), width, format: 'webp' },
    ...(own ? [{ key: imageVariantPath(key, width), width, format: own }] : []),
  ]);
}

/**
 * Writes the variants of the original stored at `key` (whose bytes are `original`) into the file
 * store, all of them or those `exists` does not know of; answers how many it wrote. Each is turned
 * upright by the EXIF orientation, never wider than the original (a small photo's wide variants are
 * the photo at its own size, so any width the client asks for exists) and carries no metadata
 * (sharp writes none unless asked). The store writes each whole or not at all, so a half-made
 * variant is never served and a failed run leaves none.
 */
export async function writeImageVariants(
  store: FileStore,
  key: string,
  original: Buffer,
  { exists }: { exists?: (key: string) => boolean } = {},
): Promise<number> {
  const planned = plannedVariants(key).filter((v) => !exists?.(v.key));
  if (!planned.length) return 0;
  // Decoded and turned upright once, at the largest width needed; the smaller ones are made from that.
  const largest = Math.max(...planned.map((v) => v.width));
  const sharp = await loadSharp();
  const { data, info } = await sharp(original, { failOn: 'error' })
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
      await store.put(v.key, await pipeline.toBuffer(), TYPE_OF_FORMAT[v.format]);
    }),
  );
  return planned.length;
}

/**
 * Writes the variants missing for every original in the upload folders (images uploaded before
 * variants existed, or whose variants were lost); answers how many it wrote. Safe to run again: a
 * second run writes none. It reads each folder's listing a page at a time (one request per
 * thousand files in a bucket) and downloads only the originals that lack a variant. An unreadable
 * file is logged and skipped; a store that does not answer ends the run (the next start tries again).
 */
export async function backfillImageVariants(store: FileStore, log: (msg: string, err?: unknown) => void = () => {}): Promise<number> {
  let written = 0;
  for (const folder of UPLOAD_FOLDERS) {
    const keys = new Set<string>();
    for await (const file of store.list(`${folder}/`)) keys.add(file.key);
    for (const key of keys) {
      const name = key.slice(folder.length + 1);
      if (name.includes('/') || !RASTER.test(name) || VARIANT_SUFFIX.test(name)) continue;
      if (plannedVariants(key).every((v) => keys.has(v.key))) continue;
      const original = await readFile(store, key);
      if (!original) continue;
      try {
        written += await writeImageVariants(store, key, original, { exists: (k) => keys.has(k) });
      } catch (err) {
        if (isFileStoreError(err)) throw err;
        log(`could not make the variants of ${key}`, err);
      }
    }
  }
  return written;
}
