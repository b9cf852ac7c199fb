import type { FileStoreConfig } from '../config.js';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-store.js';
import { S3FileStore } from './s3-store.js';

/** The store the configuration names: the uploads folder (the default) or the bucket. */
export function createFileStore(config: FileStoreConfig, options: { pageSize?: number; maxAttempts?: number } = {}): FileStore {
  if (config.kind === 'local') return new LocalFileStore(config.dir);
  return new S3FileStore(config, options);
}
