import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { notFound, parseInput } from '../http/errors.js';
import { REVIEW_MESSAGES } from '../../shared/reviews.js';
import { hmacOf, macMatches, serverSecret } from '../lib/server-secrets.js';

/**
 * "Not sent … to customers who opted out" (issue [6/8]). Each request e-mail carries a link to stop
 * them: the storefront's page `/reviews/opt-out?token=…` (a button) and the same token as a
 * one-click `List-Unsubscribe` header (RFC 8058: the mail app POSTs to the API itself).
 *
 * The token is `<request id>.<mac>`: an HMAC-SHA256 of the request's id, keyed with a secret every
 * process reads from `server_secrets`. It names a request, not an address, so it shows no address
 * in a URL or a log, and nobody can make one for an address they choose: only the shop holds the
 * key, and the address opted out is the one the request was sent to. Nothing to store per e-mail,
 * and it keeps working however long the e-mail sits in a mailbox.
 */
export const REVIEW_OPT_OUT_KIND = 'review-requests';

const SECRET_NAME = 'review-opt-out';
const PURPOSE = 'review-opt-out';
/** A request id (newId('revreq')), a dot, and 32 bytes of MAC in base64url. */
const TOKEN = /^(revreq_[a-z0-9]{8,40})\.([A-Za-z0-9_-]{43})$/;

const optOutSecret = (db: Kysely<Database>) => serverSecret(db, SECRET_NAME);

const mac = (secret: Buffer, requestId: string) => hmacOf(secret, PURPOSE, requestId);

/** The opt-out token of a request e-mail. */
export async function reviewOptOutToken(db: Kysely<Database>, requestId: string): Promise<string> {
  return `${requestId}.${mac(await optOutSecret(db), requestId).toString('base64url')}`;
}

/** The storefront's page that asks "Stop review requests?" (the e-mail's link). */
export function reviewOptOutPageUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reviews/opt-out?token=${encodeURIComponent(token)}`;
}

/** The address a mail app POSTs to for one-click opt-out (the List-Unsubscribe header). */
export function reviewOptOutApiUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/reviews/opt-out/${encodeURIComponent(token)}`;
}

/** The request a genuine token names, or null (malformed, forged, or its request gone): checked before any row is read. */
async function requestOfToken(db: Kysely<Database>, token: string): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, requestId, tag] = match as unknown as [string, string, string];
  if (!macMatches(tag, mac(await optOutSecret(db), requestId))) return null;
  return requestId;
}

/** The address of a genuine token's request, or null. */
async function addressOfToken(db: Kysely<Database>, token: string): Promise<string | null> {
  const requestId = await requestOfToken(db, token);
  if (!requestId) return null;
  const request = await db.selectFrom('review_requests').select('email').where('id', '=', requestId).executeTakeFirst();
  return request?.email.trim().toLowerCase() || null;
}

/**
 * Opts the address of the token's request out of review requests (again is fine: one row per
 * address and kind). False for a token that is not genuine.
 */
export async function optOutByToken(db: Kysely<Database>, token: string, now: Date = new Date()): Promise<boolean> {
  const email = await addressOfToken(db, token);
  if (!email) return false;
  await db
    .insertInto('email_opt_outs')
    .values({ email, kind: REVIEW_OPT_OUT_KIND, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['email', 'kind']).doNothing())
    .execute();
  return true;
}

/** Whether this address asked not to get review requests (addresses compared in lower case). */
export async function hasOptedOut(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_opt_outs')
    .select('email')
    .where('email', '=', email.trim().toLowerCase())
    .where('kind', '=', REVIEW_OPT_OUT_KIND)
    .executeTakeFirst();
  return Boolean(row);
}

const TokenParam = z.object({ token: z.string().max(200) }).strict();

/**
 * The opt-out on the store surface, for anyone holding a request e-mail's token: GET (a link
 * followed) and POST (the storefront's button, and a mail app's one-click `List-Unsubscribe=One-Click`
 * form post, which carries no cookie and no Origin). Answers are never cached.
 */
export async function registerReviewOptOutRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  const optOut = async (params: unknown) => {
    const { token } = parseInput(TokenParam, params);
    if (!(await optOutByToken(db, token))) throw notFound(REVIEW_MESSAGES.linkUnknown);
    return { message: REVIEW_MESSAGES.optedOut };
  };
  // Reading the link changes nothing (a mail scanner follows links): it says where the address stands.
  app.get('/api/reviews/opt-out/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { token } = parseInput(TokenParam, req.params);
    const email = await addressOfToken(db, token);
    if (!email) throw notFound(REVIEW_MESSAGES.linkUnknown);
    return { message: (await hasOptedOut(db, email)) ? REVIEW_MESSAGES.optedOut : REVIEW_MESSAGES.optOutOpen };
  });
  app.post('/api/reviews/opt-out/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return optOut(req.params);
  });
}
