import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { newToken } from '../lib/tokens.js';
import { NO_PASSWORD_PREFIX } from '../lib/passwordless.js';
import { newCustomerRow } from './users.js';

/*
 * Accounts of shoppers who subscribe as guests (issue [4/8]). A subscription belongs to an account
 * (the customer manages and cancels it there), so a guest who subscribes gets one when the payment
 * is taken, for the order's e-mail address, without a password: they sign in later with an e-mail
 * link (decision 0040) or set a password through "forgot password". A guest whose e-mail already
 * has an account is asked to sign in at checkout instead (checkout/create/check-subscriptions.ts).
 */

/** The account of this e-mail address (stored lower-case), if any. */
export async function findUserIdByEmail(db: Kysely<Database>, email: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * A password no password can match: not an argon2 hash, so `verifyPassword` answers false (and no
 * hashing runs inside the payment's transaction). Random, so the sign-in link's token, bound to the
 * hash, differs between accounts; a password reset replaces it.
 */
const unusablePasswordHash = () => `${NO_PASSWORD_PREFIX}${newToken()}`;

/**
 * The account a guest's subscription belongs to, made in the payment's transaction: the e-mail's
 * account if one was made since the checkout (the unique e-mail decides a race), else a new client
 * account without a password, its e-mail not yet verified. Answers its id and whether it is new.
 */
export async function accountForSubscriber(
  trx: Kysely<Database>,
  o: { email: string; fullName: string; now: Date },
): Promise<{ userId: string; created: boolean }> {
  const email = o.email.trim().toLowerCase();
  const at = o.now.toISOString();
  const id = newId('user');
  await trx
    .insertInto('users')
    .values(newCustomerRow({ id, email, fullName: o.fullName.trim().slice(0, 100) || email, passwordHash: unusablePasswordHash(), at }))
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const row = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { userId: row.id, created: row.id === id };
}
