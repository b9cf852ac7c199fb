import type { Readable } from 'node:stream';

/**
 * Where uploaded images live (decision 0062): a folder on this machine (the default) or a bucket of
 * an S3-compatible service, behind one interface. A key is the path under the uploads root,
 * `<folder>/<file>` (`products/lxk2-ab12.jpg`); its public address is always `/uploads/<key>`, so
 * the rows that name an image never change when the store does.
 */
export type FileInfo = {
  key: string;
  size: number;
  /** The store's entity tag, quoted as HTTP sends it (S3: the MD5 of a single-part upload). */
  etag: string;
  lastModified: Date;
  /** The type the object was stored with; '' when the store keeps none (a folder). */
  contentType: string;
};

export type FileBody = FileInfo & { body: Readable };

/** What `get` answers when the caller's copy is current (If-None-Match / If-Modified-Since). */
export type NotModified = { notModified: true; etag: string; lastModified: Date };

export type GetConditions = { ifNoneMatch?: string; ifModifiedSince?: Date };

export interface FileStore {
  /** Where the files are, for log lines and scripts' output (never a secret). */
  readonly description: string;
  /** Stores the bytes under `key`, whole or not at all (a half-written file is never served). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file with its facts, or null when there is none. */
  get(key: string, conditions?: GetConditions): Promise<FileBody | NotModified | null>;
  /** The file's facts, or null when there is none. */
  head(key: string): Promise<FileInfo | null>;
  /** Removes the file; one already gone is no fault. */
  delete(key: string): Promise<void>;
  /** Every file whose key starts with `prefix`, in key order, read a page at a time. */
  list(prefix: string): AsyncIterable<FileInfo>;
  /** Lets go of kept-alive connections (a script's end, a test's). */
  close(): void;
}

/**
 * The store did not do what was asked: it does not answer (`unreachable`: a network fault, a
 * timeout, the service's own 5xx) or it refuses the shop (`refused`: wrong keys, no such bucket, no
 * permission). Routes answer 503 with a sentence the owner can act on; the cause goes to the log.
 */
export class FileStoreError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'refused',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FileStoreError';
  }
}

export function isFileStoreError(err: unknown): err is FileStoreError {
  return err instanceof FileStoreError;
}

/**
 * A key the shop may read or write: segments of letters, digits, dot, dash and underscore, none of
 * them `.` or `..`, so no spelling of a key reaches outside the uploads root or the bucket's folders.
 */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function isFileKey(key: string): boolean {
  return key.length > 0 && key.length <= 512 && KEY.test(key) && !key.split('/').some((s) => s === '.' || s === '..');
}

/** The public address of a stored file. */
export function uploadUrl(key: string): string {
  return `/uploads/${key}`;
}

/** The key an `/uploads/…` address names, or null for any other address (or one no key can have). */
export function keyOfUploadUrl(url: string): string | null {
  if (!url.startsWith('/uploads/')) return null;
  const key = url.slice('/uploads/'.length);
  return isFileKey(key) ? key : null;
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  avif: 'image/avif',
};

/** The type a file is served with, by its extension (the shop names every file it stores). */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/** The whole file as bytes, or null when there is none. */
export async function readFile(store: FileStore, key: string): Promise<Buffer | null> {
  const file = await store.get(key);
  if (!file || 'notModified' in file) return null;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of file.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  } catch (err) {
    throw new FileStoreError('unreachable', `reading ${key} from ${store.description} was cut off`, { cause: err });
  }
  return Buffer.concat(chunks);
}
