import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hashToken, newToken, TOKEN_PATTERN } from '../lib/tokens.js';

/** Where a subscription is managed (and cancelled) without signing in: the page of one link. */
export function manageUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/subscriptions/manage/${token}`;
}

/**
 * A new link to manage a subscription, for one e-mail (the confirmation, a reminder, a failed
 * payment): its token's hash is kept, the token itself only in the e-mail. Every link of a
 * subscription stays good while it exists; a cancelled one's link shows it cancelled.
 */
export async function newManageLink(trx: Kysely<Database>, subscriptionId: string, now: Date, publicUrl: string): Promise<string> {
  const token = newToken();
  await trx
    .insertInto('subscription_links')
    .values({ token_hash: hashToken(token), subscription_id: subscriptionId, created_at: now.toISOString() })
    .execute();
  return manageUrl(publicUrl, token);
}

/** The subscription a link's token names, or null (malformed or unknown: the caller answers 404 either way). */
export async function subscriptionOfLink(db: Kysely<Database>, token: string): Promise<string | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('subscription_links')
    .select('subscription_id')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  return row?.subscription_id ?? null;
}
