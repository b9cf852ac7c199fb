import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/private-files.js';
import { randomString } from '../lib/ids.js';
import {
  contentTypeOf,
  isFileKey,
  type FileBody,
  type FileInfo,
  type FileStore,
  type GetConditions,
  type NotModified,
} from './file-store.js';

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * The uploads folder on this machine (UPLOAD_DIR), as the shop kept images before object storage:
 * `<root>/<folder>/<file>`, files 0600 and folders 0700 (lib/private-files.ts).
 */
export class LocalFileStore implements FileStore {
  readonly root: string;
  readonly description: string;

  constructor(dir: string) {
    this.root = path.resolve(dir);
    this.description = `folder ${this.root}`;
  }

  /** The file a key names; a key that is not one of ours names none. */
  fileOf(key: string): string {
    if (!isFileKey(key)) throw new Error(`Not a file key: ${JSON.stringify(key)}`);
    return path.join(this.root, ...key.split('/'));
  }

  private info(key: string, stat: fs.Stats): FileInfo {
    return {
      key,
      size: stat.size,
      etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      lastModified: stat.mtime,
      contentType: contentTypeOf(key),
    };
  }

  async put(key: string, body: Buffer, _contentType: string): Promise<void> {
    const file = this.fileOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Written beside it and renamed into place: a half-written file is never served.
    const tmp = `${file}.${process.pid}-${randomString(6)}.tmp`;
    try {
      await fs.promises.writeFile(tmp, body, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true }).catch(() => {});
      throw err;
    }
  }

  async head(key: string): Promise<FileInfo | null> {
    if (!isFileKey(key)) return null;
    try {
      const stat = await fs.promises.stat(this.fileOf(key));
      return stat.isFile() ? this.info(key, stat) : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async get(key: string, conditions: GetConditions = {}): Promise<FileBody | NotModified | null> {
    const info = await this.head(key);
    if (!info) return null;
    if (
      (conditions.ifNoneMatch !== undefined && conditions.ifNoneMatch.split(/\s*,\s*/).some((t) => t === info.etag || t === '*')) ||
      (conditions.ifNoneMatch === undefined &&
        conditions.ifModifiedSince !== undefined &&
        Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(conditions.ifModifiedSince.getTime() / 1000))
    ) {
      return { notModified: true, etag: info.etag, lastModified: info.lastModified };
    }
    return { ...info, body: fs.createReadStream(this.fileOf(key)) };
  }

  async delete(key: string): Promise<void> {
    if (!isFileKey(key)) return;
    await fs.promises.rm(this.fileOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<FileInfo> {
    // Only the folder the prefix lies in is walked (`products/` reads products/ alone).
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash);
    const keys: string[] = [];
    const walk = async (rel: string) => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(rel ? path.join(this.root, ...rel.split('/')) : this.root, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const e of entries) {
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(key);
        else if (e.isFile() && key.startsWith(prefix) && isFileKey(key)) keys.push(key);
      }
    };
    if (base === '' || isFileKey(base)) await walk(base);
    keys.sort();
    for (const key of keys) {
      const info = await this.head(key);
      if (info) yield info;
    }
  }

  close(): void {}
}
