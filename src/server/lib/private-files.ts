import fs from 'node:fs';

/**
 * The database (and every backup of it) holds password hashes, customers' addresses, the
 * cookie-signing key and the ShipStation keys: the shop's files are readable by its own user only,
 * and the folders it creates for them are 0700. Uploaded images are kept the same way.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Takes group and other permissions off a file that exists; one that does not is left alone. */
export function makePrivate(file: string): void {
  let mode: number;
  try {
    mode = fs.statSync(file).mode;
  } catch {
    return;
  }
  if (mode & 0o077) fs.chmodSync(file, mode & 0o700);
}

/**
 * Before SQLite opens `file`: a new database is created 0600 (SQLite then gives its -wal and -shm
 * files the database file's permissions), and one left readable by others, with its -wal and -shm,
 * is made private.
 */
export function keepSqliteFilesPrivate(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) makePrivate(f);
}
