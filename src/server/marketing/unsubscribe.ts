import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { notFound, parseInput } from '../http/errors.js';
import { hmacOf, macMatches, serverSecret } from '../lib/server-secrets.js';
import { UNSUBSCRIBE_MESSAGES, type UnsubscribeState } from '../../shared/schemas/email-preferences.js';
import { withdrawMarketingConsent } from './consent.js';

/**
 * One-click unsubscribe from offers and reminders (issue [7/8], RFC 8058). Every marketing e-mail
 * carries a link to the storefront's page `/unsubscribe?token=…` (a button) and the API address as
 * its `List-Unsubscribe` header with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`: the mail
 * app POSTs there itself, without cookies or a sign-in.
 *
 * The token is `<consent id>.<mac>`, an HMAC-SHA256 of the consent row's id with a key of the shop's
 * own: it shows no address, nobody can make one for an address of their choosing, and it works for
 * as long as the e-mail sits in a mailbox. Reading it (GET) changes nothing (a mail scanner follows
 * links); only a POST unsubscribes, and again is fine.
 */
const SECRET_NAME = 'marketing-unsubscribe';
const PURPOSE = 'marketing-unsubscribe';
const TOKEN = /^(mkt_[a-z0-9]{8,40})\.([A-Za-z0-9_-]{43})$/;

const mac = async (db: Kysely<Database>, consentId: string) => hmacOf(await serverSecret(db, SECRET_NAME), PURPOSE, consentId);

/** The unsubscribe token of an address that consented (null for one that never did: it gets no marketing). */
export async function marketingUnsubscribeToken(db: Kysely<Database>, email: string): Promise<string | null> {
  const row = await db.selectFrom('marketing_consents').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (!row) return null;
  return `${row.id}.${(await mac(db, row.id)).toString('base64url')}`;
}

export const unsubscribePageUrl = (publicUrl: string, token: string) => `${publicUrl}/unsubscribe?token=${encodeURIComponent(token)}`;
export const unsubscribeApiUrl = (publicUrl: string, token: string) => `${publicUrl}/api/unsubscribe/${encodeURIComponent(token)}`;

/** The consent a genuine token names (checked before any row is read), or null. */
async function consentOfToken(db: Kysely<Database>, token: string) {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, tag] = match as unknown as [string, string, string];
  if (!macMatches(tag, await mac(db, id))) return null;
  return (await db.selectFrom('marketing_consents').select(['email', 'status']).where('id', '=', id).executeTakeFirst()) ?? null;
}

/** "j•••@example.com": enough for the person to know which address, not enough to give it away. */
export function maskAddress(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

async function stateOf(db: Kysely<Database>, email: string): Promise<UnsubscribeState> {
  const out = await db
    .selectFrom('email_opt_outs')
    .select('email')
    .where('email', '=', email)
    .where('kind', '=', 'marketing')
    .executeTakeFirst();
  return { address: maskAddress(email), unsubscribed: out !== undefined };
}

const TokenParam = z.object({ token: z.string().max(200) }).strict();

/** The store surface's unsubscribe: GET reads, POST (the page's button, a mail app's one-click post) unsubscribes. */
export async function registerUnsubscribeRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  const consentOf = async (params: unknown) => {
    const { token } = parseInput(TokenParam, params);
    const consent = await consentOfToken(db, token);
    if (!consent) throw notFound(UNSUBSCRIBE_MESSAGES.linkUnknown);
    return consent;
  };
  app.get('/api/unsubscribe/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return stateOf(db, (await consentOf(req.params)).email);
  });
  app.post('/api/unsubscribe/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { email } = await consentOf(req.params);
    await withdrawMarketingConsent(db, { email, via: 'unsubscribe', now: new Date() });
    return stateOf(db, email);
  });
}
