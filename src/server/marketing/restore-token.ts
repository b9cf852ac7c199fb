import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hmacOf, macMatches, serverSecret } from '../lib/server-secrets.js';

/**
 * The restore link's token (marketing/restore.ts): `<recovery id>.<mac>`, an HMAC-SHA256 of the
 * checkout recovery's id with a key of the shop's own, so a link names one checkout and nobody can
 * make one for another.
 */
const SECRET_NAME = 'cart-restore';
const PURPOSE = 'cart-restore';
const TOKEN = /^(rcv_[a-z0-9]{8,40})\.([A-Za-z0-9_-]{43})$/;

const mac = async (db: Kysely<Database>, id: string) => hmacOf(await serverSecret(db, SECRET_NAME), PURPOSE, id);

export async function restoreToken(db: Kysely<Database>, recoveryId: string): Promise<string> {
  return `${recoveryId}.${(await mac(db, recoveryId)).toString('base64url')}`;
}

/** The recovery a genuine token names (checked before any row is read), or null. */
export async function recoveryIdOfToken(db: Kysely<Database>, token: string): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, tag] = match as unknown as [string, string, string];
  return macMatches(tag, await mac(db, id)) ? id : null;
}
