import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The shop's own keys, one per purpose, in `server_secrets`: made once by whichever process asks
 * first, read by every other (so a token signed by one process is checked by any), and kept in
 * memory per database after the first read.
 */
const cache = new WeakMap<Kysely<Database>, Map<string, Promise<Buffer>>>();

async function loadOrCreate(db: Kysely<Database>, name: string): Promise<Buffer> {
  // Whichever process comes first creates it; the others keep the row it wrote.
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}

/** The key named `name` (a failed read is not kept: the next call asks again). */
export function serverSecret(db: Kysely<Database>, name: string): Promise<Buffer> {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let secret = byName.get(name);
  if (!secret) {
    secret = loadOrCreate(db, name);
    byName.set(name, secret);
    secret.catch(() => byName.delete(name));
  }
  return secret;
}

/** HMAC-SHA256 of the parts, one per line. */
export function hmacOf(secret: Buffer, ...parts: string[]): Buffer {
  return createHmac('sha256', secret).update(parts.join('\n')).digest();
}

/**
 * Whether a MAC given in base64url is the expected one, as its one spelling (in constant time).
 * Compared as text: decoding would also take other spellings of the same bytes (the last
 * character of 32 bytes carries two unused bits, so 'A' and 'B' there decode alike), and a link
 * has one token.
 */
export function macMatches(givenBase64url: string, expected: Buffer): boolean {
  const given = Buffer.from(givenBase64url, 'utf8');
  const wanted = Buffer.from(expected.toString('base64url'), 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
