// `npm run uploads:migrate`: copies the shop's uploaded images from the uploads folder (UPLOAD_DIR)
// into the bucket the S3_* settings name (FILE_STORE=s3), keeping their keys, so `/uploads/<key>`
// names the same image before and after (decision 0062). Safe to run again, and while the shop
// runs: a file the bucket already holds with the same size (and, where the bucket's ETag is the
// file's MD5, the same content) is skipped. Nothing is removed from the folder.
//
//   FILE_STORE=s3 S3_BUCKET=… npm run uploads:migrate
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { noteShopChange } from '../src/server/http/shop-changes.js';
import { createFileStore } from '../src/server/files/create-file-store.js';
import { contentTypeOf, type FileInfo } from '../src/server/files/file-store.js';
import { LocalFileStore } from '../src/server/files/local-store.js';
import { fail, formatBytes, ScriptError, sqlitePath } from './backup-common.js';

const USAGE = 'Usage: FILE_STORE=s3 S3_BUCKET=… npm run uploads:migrate';
/** Files sent at once: enough to hide each request's round trip, few enough for a small machine. */
const AT_ONCE = 4;

/** An ETag that is the MD5 of the content (a single-part upload without KMS): 32 hex digits. */
const MD5_ETAG = /^"?([0-9a-f]{32})"?$/i;

function sameFile(local: Buffer, there: FileInfo | undefined): boolean {
  if (!there || there.size !== local.length) return false;
  const md5 = MD5_ETAG.exec(there.etag)?.[1];
  return !md5 || md5.toLowerCase() === createHash('md5').update(local).digest('hex');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) return void console.log(USAGE);
  if (args.length) throw new ScriptError(`Unknown argument ${args[0]}. ${USAGE}`);
  const config = loadConfig(process.env);
  if (config.fileStore.kind !== 's3') {
    throw new ScriptError(
      'FILE_STORE is not s3: set FILE_STORE=s3 and the bucket (S3_BUCKET, and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY as your service needs) to copy the uploads into.',
    );
  }
  const from = new LocalFileStore(config.uploadDir);
  if (!fs.existsSync(from.root)) throw new ScriptError(`There is no uploads folder at ${from.root} (UPLOAD_DIR): nothing to copy from.`);
  const to = createFileStore(config.fileStore);
  console.log(`Copying the uploads from ${from.description} into ${to.description}`);

  try {
    // What the bucket holds already, in one listing (a page per thousand objects), not a request per file.
    const there = new Map<string, FileInfo>();
    try {
      for await (const info of to.list('')) there.set(info.key, info);
    } catch (err) {
      throw new ScriptError(`The bucket cannot be read: ${(err as Error).message}. Nothing was copied.`);
    }
    const keys: string[] = [];
    for await (const info of from.list('')) if (!info.key.endsWith('.tmp')) keys.push(info.key);

    let copied = 0;
    let skipped = 0;
    let bytes = 0;
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const key = keys[next++]!;
        const body = await fs.promises.readFile(from.fileOf(key));
        if (sameFile(body, there.get(key))) {
          skipped++;
          continue;
        }
        try {
          await to.put(key, body, contentTypeOf(key));
        } catch (err) {
          throw new ScriptError(
            `Could not copy ${key}: ${(err as Error).message}. ${copied} files were copied before it stopped; run the command again to go on (what is there already is skipped).`,
          );
        }
        copied++;
        bytes += body.length;
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    console.log(`  copied    ${copied} files, ${formatBytes(bytes)}`);
    console.log(`  skipped   ${skipped} files already in the bucket`);
    console.log(`  in all    ${keys.length} files in ${path.resolve(config.uploadDir)}`);
    if (copied) await tellRunningShops(config.databaseUrl);
  } finally {
    to.close();
  }
}

/**
 * A shop already on the bucket may have drawn pages saying an image is missing: a shop change makes
 * every process draw them again (as a back-office save does). Best-effort: the copy is done either way.
 */
async function tellRunningShops(databaseUrl: string): Promise<void> {
  // No shop has run on a SQLite file that is not there (and opening it would make one).
  if (databaseUrl.startsWith('sqlite:') && !fs.existsSync(sqlitePath(databaseUrl))) return;
  const { db, close } = openDatabase(databaseUrl);
  try {
    await noteShopChange(db);
  } catch (err) {
    console.log(`  (the running shop was not told: ${(err as Error).message}; a save in the back office, or a restart, shows the images)`);
  } finally {
    await close();
  }
}

main().catch(fail);
