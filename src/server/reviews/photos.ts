import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import { MAX_IMAGE_BYTES, storeSizedImage } from '../catalog/uploads.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { IMAGE_VARIANT_WIDTHS, imageVariantPath } from '../../shared/image-variants.js';
import { REVIEW_LIMITS, REVIEW_MESSAGES } from '../../shared/reviews.js';
import { ReviewInput } from '../../shared/schemas/reviews.js';
import { keyOfUploadUrl, type FileStore } from '../files/file-store.js';

/**
 * A review's form as the storefront sends it (issue [6/8]): multipart form data with the fields of
 * `ReviewInput` and up to REVIEW_LIMITS.photosMax files named `photos`, each through the shop's
 * image pipeline (storeImage: type from the bytes, pixel limits, metadata stripped, smaller sizes
 * beside it). A JSON or urlencoded body is taken too (a review without photos).
 *
 * Files are stored BEFORE the review's transaction (an image is checked and written in a few
 * hundred milliseconds, which no transaction should wait on); when the transaction fails the files
 * written for it are removed again, and photos an edit dropped are removed only once it committed.
 */

/** The multipart parser's limits for a review (the route plugin registers @fastify/multipart with them). */
export const REVIEW_MULTIPART_LIMITS = {
  fileSize: MAX_IMAGE_BYTES,
  files: REVIEW_LIMITS.photosMax,
  fields: 30,
  parts: 40,
  // 5,000 characters of text can take 20,000 bytes of UTF-8; a longer field is refused, never cut.
  fieldSize: 64 * 1024,
} as const;

const MULTIPART_MESSAGES = {
  tooManyFields: 'The review form has too many fields',
  cutOff: ADMIN_MESSAGES.uploadCutOff,
  fieldTooLong: 'A field of the review is too long',
} as const;

/** A review's form as received: its fields (every value of a repeated one) and its photos' bytes. */
export type ReviewUpload = { fields: Record<string, string[]>; files: Buffer[] };

/** What a too-long field's own sentence is. */
const TOO_LONG: Record<string, string> = {
  title: REVIEW_MESSAGES.titleTooLong,
  body: REVIEW_MESSAGES.bodyTooLong,
  displayName: REVIEW_MESSAGES.displayNameTooLong,
};

/** Reads and throws away the rest of a refused body (bounded), so the answer reaches the caller instead of a reset connection. */
function drainRest(raw: IncomingMessage, maxBytes = 32 * 1024 * 1024): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      raw.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        raw.pause();
        done();
      }
    };
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}

function multipartRefusal(req: FastifyRequest, err: unknown): HttpError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') return new HttpError(400, REVIEW_MESSAGES.tooManyPhotos);
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, ADMIN_MESSAGES.imageSize);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return new HttpError(400, MULTIPART_MESSAGES.tooManyFields);
  if (code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_JSON_FIELD_ERROR')
    return new HttpError(400, MULTIPART_MESSAGES.tooManyFields);
  if (req.raw.destroyed || /unexpected end of (multipart data|form)|terminated early/i.test(err instanceof Error ? err.message : ''))
    return new HttpError(400, MULTIPART_MESSAGES.cutOff);
  return null;
}

/** The review's fields and photos from the request: multipart (with photos), or a JSON/urlencoded body (without). */
export async function readReviewUpload(req: FastifyRequest): Promise<ReviewUpload> {
  const fields: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const add = (name: string, value: string) => (fields[name] ??= []).push(value);
  if (!req.isMultipart()) {
    const body = req.body;
    if (body !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) {
      for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
        for (const v of Array.isArray(value) ? value : [value]) {
          if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') add(name, String(v));
        }
      }
    }
    return { fields, files: [] };
  }
  const files: Buffer[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const buf = await part.toBuffer();
        // A browser's file input left empty still sends a part: no name, no bytes.
        if (buf.length === 0 && !part.filename) continue;
        if (part.fieldname !== 'photos') throw new HttpError(400, `Send photos in the field named "photos"`);
        files.push(buf);
      } else {
        if (part.valueTruncated) throw new HttpError(400, TOO_LONG[part.fieldname] ?? MULTIPART_MESSAGES.fieldTooLong);
        add(part.fieldname, typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
      }
    }
  } catch (err) {
    const refusal = err instanceof HttpError ? err : multipartRefusal(req, err);
    if (!refusal) throw err;
    await drainRest(req.raw);
    throw refusal;
  }
  return { fields, files };
}

/**
 * `keepPhotos` as the form sends it: repeated fields (`keepPhotos=a&keepPhotos=b`), or one JSON
 * array (`keepPhotos=["a","b"]`). One empty value (or `[]`) keeps none; no field at all keeps every
 * photo (a form that never showed them changes none). Each entry is a photo's id or its address.
 */
function keepPhotosOf(values: string[] | undefined): unknown {
  if (values === undefined) return undefined;
  if (values.length === 1 && values[0]!.trim().startsWith('[')) {
    try {
      return JSON.parse(values[0]!) as unknown;
    } catch {
      throw new HttpError(400, 'keepPhotos must list the photos to keep');
    }
  }
  return values.filter((v) => v !== '');
}

/** Whether a string anywhere holds a NUL character (no database text column takes one). */
function hasNul(fields: Record<string, string[]>): boolean {
  return Object.entries(fields).some(([k, vs]) => k.includes('\u0000') || vs.some((v) => v.includes('\u0000')));
}

export type ReviewFields = { input: ReviewInput; keepPhotos: string[] | undefined; productId: string | undefined };

/**
 * The review's fields checked against the shared schema. A refusal is the limit's own sentence,
 * exactly as the form shows it (not prefixed with the field's name), and comes before any photo is
 * stored. The photos' count is checked here as well: the new ones and those kept together.
 */
export function reviewFieldsOf(upload: ReviewUpload): ReviewFields {
  if (hasNul(upload.fields)) throw new HttpError(400, 'Text cannot contain NUL characters');
  const first = (name: string) => upload.fields[name]?.[0];
  const result = ReviewInput.safeParse({
    rating: first('rating'),
    title: first('title'),
    body: first('body'),
    displayName: first('displayName'),
    keepPhotos: keepPhotosOf(upload.fields.keepPhotos),
    elapsedMs: first('elapsedMs'),
    website: first('website'),
  });
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? REVIEW_MESSAGES.ratingRequired);
  if (upload.files.length + (result.data.keepPhotos?.length ?? 0) > REVIEW_LIMITS.photosMax)
    throw new HttpError(400, REVIEW_MESSAGES.tooManyPhotos);
  const productId = first('productId');
  return { input: result.data, keepPhotos: result.data.keepPhotos, productId: productId === '' ? undefined : productId };
}

export type StoredPhoto = { url: string; width: number; height: number };

/** The keys of a review photo's original and its smaller sizes (image-variants.ts names them from it). */
function keysOf(url: string): string[] {
  const key = /^\/uploads\/reviews\/[A-Za-z0-9._-]+$/.test(url) ? keyOfUploadUrl(url) : null;
  if (!key) return [];
  const variants = IMAGE_VARIANT_WIDTHS.flatMap((w) => [imageVariantPath(key, w, 'webp'), imageVariantPath(key, w)]);
  return [key, ...new Set(variants.filter((k) => k !== key))];
}

/**
 * Removes review photos' files from the store, best-effort (a file already gone, or a store that
 * does not answer, is no fault): a row is the truth, a stray file harms nobody.
 */
export async function removePhotoFiles(files: FileStore, urls: readonly string[]): Promise<void> {
  await Promise.all(urls.flatMap((url) => keysOf(url).map((key) => files.delete(key).catch(() => {}))));
}

/**
 * Stores the photos (one after another, each through the pipeline), runs `write` with them, and
 * cleans up: the files written are removed when `write` fails, and the files of the photos it
 * dropped (`removed`) once it succeeded. A photo the pipeline refuses is the sender's mistake: 400
 * with the pipeline's sentence (a file too large in bytes stays 413, as everywhere).
 */
export async function withStoredPhotos<T>(
  files: FileStore,
  photos: readonly Buffer[],
  write: (photos: StoredPhoto[]) => Promise<{ result: T; removed: string[] }>,
): Promise<T> {
  const stored: StoredPhoto[] = [];
  try {
    for (const buf of photos) stored.push(await storeSizedImage(files, 'reviews', buf));
  } catch (err) {
    await removePhotoFiles(
      files,
      stored.map((p) => p.url),
    );
    if (err instanceof HttpError && err.statusCode === 415) throw new HttpError(400, err.message);
    throw err;
  }
  let outcome: { result: T; removed: string[] };
  try {
    outcome = await write(stored);
  } catch (err) {
    await removePhotoFiles(
      files,
      stored.map((p) => p.url),
    );
    throw err;
  }
  await removePhotoFiles(files, outcome.removed);
  return outcome.result;
}
