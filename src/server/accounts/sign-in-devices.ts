import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { nowIso } from '../lib/ids.js';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * has signed in to an account gets a signed token naming that account. Its later sign-in attempts
 * at that account are counted against the token alone, so the owner keeps signing in while
 * guesses from elsewhere are refused or slowed.
 *
 * The token is `base64url(user id).issued-at seconds.nonce.mac`, the MAC an HMAC-SHA256 over the
 * user id, issue time, nonce and the user's current password hash, keyed with a secret every
 * process reads from `server_secrets`. Binding the password hash means any password change (a reset
 * included) invalidates every device cookie of that user at once, with nothing else to store.
 */
export const DEVICE_TOKEN_TTL_MS = 365 * 24 * 3_600_000;
const SECRET_NAME = 'sign-in-device';
const MAX_TOKEN_LENGTH = 300;

const secrets = new WeakMap<Kysely<Database>, Promise<Buffer>>();

async function loadOrCreateSecret(db: Kysely<Database>): Promise<Buffer> {
  // Whichever process comes first creates it; the others keep the row it wrote.
  await db
    .insertInto('server_secrets')
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url'), created_at: nowIso() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}

function deviceSecret(db: Kysely<Database>): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = loadOrCreateSecret(db);
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

function mac(secret: Buffer, userId: string, issuedAt: string, nonce: string, passwordHash: string): Buffer {
  return createHmac('sha256', secret).update(`${userId}\n${issuedAt}\n${nonce}\n${passwordHash}`).digest();
}

/** A new device token for this user (a fresh nonce every sign-in). */
export async function issueDeviceToken(
  db: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'password_hash'>,
  now = new Date(),
): Promise<string> {
  const secret = await deviceSecret(db);
  const issuedAt = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString('base64url');
  const tag = mac(secret, user.id, issuedAt, nonce, user.password_hash).toString('base64url');
  return `${Buffer.from(user.id).toString('base64url')}.${issuedAt}.${nonce}.${tag}`;
}

/**
 * The nonce of a device token that is genuine, unexpired and names this user with their current
 * password; null for anything else (another account's token, a forged or old one).
 */
export async function readDeviceToken(
  db: Kysely<Database>,
  token: string | undefined,
  user: Pick<UserRow, 'id' | 'password_hash'>,
  now = new Date(),
): Promise<string | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [encodedId, issuedAt, nonce, tag] = parts as [string, string, string, string];
  if (Buffer.from(encodedId, 'base64url').toString() !== user.id) return null;
  if (!/^\d{1,12}$/.test(issuedAt) || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return null;
  const age = now.getTime() - Number(issuedAt) * 1000;
  if (age > DEVICE_TOKEN_TTL_MS || age < -60_000) return null;
  const expected = mac(await deviceSecret(db), user.id, issuedAt, nonce, user.password_hash);
  const given = Buffer.from(tag, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return nonce;
}
