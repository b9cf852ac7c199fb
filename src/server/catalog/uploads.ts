import { HttpError } from '../http/errors.js';
import { randomString } from '../lib/ids.js';
import { ADMIN_MESSAGES, IMAGE_MAX_BYTES, IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE } from '../../shared/schemas/admin/messages.js';
import { MalformedImageError, readImage } from './image-files.js';
import { writeImageVariants } from './image-variants.js';
import { contentTypeOf, uploadUrl, type FileStore } from '../files/file-store.js';

/** Shared with the back office, which refuses a bigger file before sending it. */
export const MAX_IMAGE_BYTES = IMAGE_MAX_BYTES;

/** Whether a picture of this size can be drawn by a shopper's browser without trouble. */
export function imageFitsLimits(width: number, height: number): boolean {
  return width <= IMAGE_MAX_SIDE && height <= IMAGE_MAX_SIDE && width * height <= IMAGE_MAX_MEGAPIXELS * 1_000_000;
}

/** The folders under the uploads folder: the back office's, and shoppers' review photos (issue [6/8]). */
export type UploadFolder = 'products' | 'categories' | 'content' | 'reviews';

/**
 * Stores an uploaded image in the file store (the uploads folder or the bucket) with a random name;
 * answers its public path.
 * The type comes from the bytes, the pixel dimensions from the file's header (refused beyond the
 * limits, however small the file), and what is stored is the file without its metadata. Beside
 * it go its smaller variants (image-variants.ts), named from it, for the storefront's srcset.
 */
export async function storeImage(files: FileStore, folder: UploadFolder, buf: Buffer): Promise<string> {
  return (await storeSizedImage(files, folder, buf)).url;
}

/** `storeImage`, also answering the picture's size in pixels (a review photo's row keeps it). */
export async function storeSizedImage(
  files: FileStore,
  folder: UploadFolder,
  buf: Buffer,
): Promise<{ url: string; width: number; height: number }> {
  if (buf.length > MAX_IMAGE_BYTES) throw new HttpError(413, ADMIN_MESSAGES.imageSize);
  let image: ReturnType<typeof readImage>;
  try {
    image = readImage(buf);
  } catch (err) {
    if (err instanceof MalformedImageError) throw new HttpError(400, ADMIN_MESSAGES.imageUnreadable);
    throw err;
  }
  if (!image) throw new HttpError(415, ADMIN_MESSAGES.imageType);
  const { type, width, height } = image.info;
  if (!width || !height) throw new HttpError(400, ADMIN_MESSAGES.imageUnreadable);
  if (!imageFitsLimits(width, height)) throw new HttpError(400, ADMIN_MESSAGES.imageDimensions(width, height));
  const key = `${folder}/${Date.now().toString(36)}-${randomString(12)}.${type}`;
  const stripped = image.stripped();
  await files.put(key, stripped, contentTypeOf(key));
  // A file whose headers hold together but whose pixels do not decode keeps no variants (a browser
  // could not draw it either); the backfill at the next start tries again and logs it. So does one
  // whose variants the store failed to take after it took the original.
  await writeImageVariants(files, key, stripped).catch(() => 0);
  return { url: uploadUrl(key), width, height };
}
