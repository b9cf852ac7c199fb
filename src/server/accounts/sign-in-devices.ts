import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { serverSecret } from '../lib/server-secrets.js';
import { queueEmail } from '../email/outbox.js';
import { tooManyRequests } from '../http/errors.js';
import { hitRateLimit, hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import { SIGN_IN_LINK_MESSAGES, SIGN_IN_LINK_TTL_MINUTES } from '../../shared/schemas/auth.js';

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

const deviceSecret = (db: Kysely<Database>) => serverSecret(db, SECRET_NAME);

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

/**
 * Sign-in links (decision 0040). Guesses from rotating addresses slow an account down for every
 * browser it does not know, the owner's new phone included, and an attacker can keep claiming
 * every slot. What the attacker cannot do is read the owner's mail: a link sent there, opened in
 * the new browser, gives that browser a device cookie, and its sign-ins are then counted against
 * that cookie alone. The link only vouches for the browser; the password is still needed.
 *
 * The link's token is `base64url(user id).issued-at seconds.nonce.mac` like a device token, its
 * MAC made with another purpose (so neither kind passes for the other) and bound to the password
 * hash; it works for SIGN_IN_LINK_TTL_MINUTES, once (its nonce is claimed with an
 * insert-or-increment, so two tabs opening it at once cannot both use it).
 */
const LINK_TTL_MS = SIGN_IN_LINK_TTL_MINUTES * 60_000;
const LINK_PURPOSE = 'sign-in-link';

/** Sign-in links asked for, counted before anything is sent (as password resets are). */
export const SIGN_IN_LINK_LIMITS = {
  perAccount: { max: 3, windowMs: 15 * 60_000 },
  perIp: { max: 10, windowMs: 15 * 60_000 },
} as const;

function linkMac(secret: Buffer, userId: string, issuedAt: string, nonce: string, passwordHash: string): Buffer {
  return createHmac('sha256', secret).update(`${LINK_PURPOSE}\n${userId}\n${issuedAt}\n${nonce}\n${passwordHash}`).digest();
}

async function takeLinkAttempt(db: Kysely<Database>, key: string, limit: { max: number; windowMs: number }, now: Date): Promise<void> {
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, key, limit.windowMs, now);
  if (hits > limit.max) throw tooManyRequests(SIGN_IN_LINK_MESSAGES.tooMany, secondsUntilWindowEnds(windowStartedAt, limit.windowMs, now));
}

/**
 * E-mails a sign-in link to the account of `email`, if there is one; the answer is the same
 * either way (no account discovery). Counted per address and per account before anything is sent.
 */
export async function requestSignInLink(
  db: Kysely<Database>,
  email: string,
  ctx: { ip: string; publicUrl: string },
  now = new Date(),
): Promise<void> {
  await takeLinkAttempt(db, `signin-link:ip:${ctx.ip}`, SIGN_IN_LINK_LIMITS.perIp, now);
  await takeLinkAttempt(db, `signin-link:acct:${email}`, SIGN_IN_LINK_LIMITS.perAccount, now);
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!user) return;
  const secret = await deviceSecret(db);
  const issuedAt = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString('base64url');
  const tag = linkMac(secret, user.id, issuedAt, nonce, user.password_hash).toString('base64url');
  const token = `${Buffer.from(user.id).toString('base64url')}.${issuedAt}.${nonce}.${tag}`;
  await queueEmail(db, {
    to: user.email,
    templateId: 'sign-in-link',
    variables: {
      customerName: user.full_name,
      signInUrl: `${ctx.publicUrl}/auth?tab=signin&deviceToken=${token}`,
      expiresInMinutes: SIGN_IN_LINK_TTL_MINUTES,
    },
  });
}

/**
 * The account a sign-in link vouches for, the first time it is used within its time; null for
 * anything else (forged, expired, used, or the password changed since it was sent).
 */
export async function redeemSignInLink(
  db: Kysely<Database>,
  token: string,
  now = new Date(),
): Promise<Pick<UserRow, 'id' | 'email' | 'password_hash'> | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [encodedId, issuedAt, nonce, tag] = parts as [string, string, string, string];
  if (!/^\d{1,12}$/.test(issuedAt) || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return null;
  const age = now.getTime() - Number(issuedAt) * 1000;
  if (age > LINK_TTL_MS || age < -60_000) return null;
  const userId = Buffer.from(encodedId, 'base64url').toString();
  const user = await db.selectFrom('users').select(['id', 'email', 'password_hash']).where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const expected = linkMac(await deviceSecret(db), user.id, issuedAt, nonce, user.password_hash);
  const given = Buffer.from(tag, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  // Once: the first to count this nonce has it.
  if ((await hitRateLimit(db, `signin-link:used:${nonce}`, LINK_TTL_MS, now)) > 1) return null;
  return user;
}
