import fs from 'node:fs/promises';
import path from 'node:path';
import { HttpError } from '../http/errors.js';
import { randomString } from '../lib/ids.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin.js';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image type by its first bytes, whatever the file name or declared type claims. */
function sniffImageType(buf: Buffer): 'png' | 'jpg' | 'webp' | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 12 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Stores an uploaded image under the uploads folder with a random name; answers its public path. */
export async function storeImage(uploadDir: string, folder: 'products' | 'categories' | 'content', buf: Buffer): Promise<string> {
  if (buf.length > MAX_IMAGE_BYTES) throw new HttpError(413, ADMIN_MESSAGES.imageSize);
  const type = sniffImageType(buf);
  if (!type) throw new HttpError(415, ADMIN_MESSAGES.imageType);
  const dir = path.resolve(uploadDir, folder);
  await fs.mkdir(dir, { recursive: true });
  const name = `${Date.now().toString(36)}-${randomString(12)}.${type}`;
  await fs.writeFile(path.join(dir, name), buf, { flag: 'wx' });
  return `/uploads/${folder}/${name}`;
}
