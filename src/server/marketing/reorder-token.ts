import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hmacOf, macMatches, serverSecret } from '../lib/server-secrets.js';

/**
 * The reorder reminder's link token (marketing/reorder-link.ts): `<batch id>.<mac>`, an HMAC-SHA256
 * of the e-mail's batch id with a key of the shop's own (not the restore link's), so a link names
 * one e-mail's products and nobody can make one for another.
 */
const SECRET_NAME = 'reorder-link';
const PURPOSE = 'reorder-link';
const TOKEN = /^(rrb_[a-z0-9]{8,40})\.([A-Za-z0-9_-]{43})$/;

const mac = async (db: Kysely<Database>, id: string) => hmacOf(await serverSecret(db, SECRET_NAME), PURPOSE, id);

export async function reorderToken(db: Kysely<Database>, batchId: string): Promise<string> {
  return `${batchId}.${(await mac(db, batchId)).toString('base64url')}`;
}

/** The batch a genuine token names (checked before any row is read), or null. */
export async function batchIdOfToken(db: Kysely<Database>, token: string): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, tag] = match as unknown as [string, string, string];
  return macMatches(tag, await mac(db, id)) ? id : null;
}
