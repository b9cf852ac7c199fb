import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { REVIEW_OPT_OUT_KIND } from '../reviews/opt-out.js';
import { closeRecoveries } from './close-recoveries.js';
import {
  EMAIL_PREFERENCES_MESSAGES,
  type ConsentSource,
  type EmailPreferences,
  type EmailPreferencesInput,
} from '../../shared/schemas/email-preferences.js';

/**
 * Marketing consent (issue [7/8], decision 0060). An address may get offers and reminders only
 * while it has a consent that was given (an unticked box ticked at sign-up or checkout, or the
 * account's preference) and no marketing opt-out. The opt-out (`email_opt_outs`, kind 'marketing')
 * is what every send checks and what wins: written by an unsubscribe or the account's switch, it is
 * lifted only by the account holder, signed in, with a confirmed address. A guest ticking the box
 * again at checkout cannot lift it (anyone can type anyone's address there).
 */
export const MARKETING_OPT_OUT_KIND = 'marketing';

const normal = (email: string) => email.trim().toLowerCase();

async function optedOut(db: Kysely<Database>, email: string, kind: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_opt_outs')
    .select('email')
    .where('email', '=', normal(email))
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records "yes" from a ticked box. The first consent's time and source stand while it holds (a
 * second tick changes nothing). Returns whether the address may now be e-mailed offers: false when
 * it had unsubscribed and the yes did not come from its signed-in, confirmed account.
 */
export async function recordMarketingConsent(
  db: Kysely<Database>,
  o: { email: string; userId: string | null; source: ConsentSource; now: Date },
): Promise<boolean> {
  const email = normal(o.email);
  const at = o.now.toISOString();
  return db.transaction().execute(async (trx) => {
    if (o.source === 'account') {
      await trx.deleteFrom('email_opt_outs').where('email', '=', email).where('kind', '=', MARKETING_OPT_OUT_KIND).execute();
    } else if (await optedOut(trx, email, MARKETING_OPT_OUT_KIND)) {
      return false;
    }
    await trx
      .insertInto('marketing_consents')
      .values({
        email,
        id: newId('mkt'),
        user_id: o.userId,
        status: 'granted',
        source: o.source,
        granted_at: at,
        withdrawn_at: null,
        withdrawn_via: null,
      })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet((eb) => ({
          // A consent that holds keeps its first time and source; a withdrawn one is given anew.
          source: eb
            .case()
            .when('marketing_consents.status', '=', 'granted')
            .then(eb.ref('marketing_consents.source'))
            .else(eb.ref('excluded.source'))
            .end(),
          granted_at: eb
            .case()
            .when('marketing_consents.status', '=', 'granted')
            .then(eb.ref('marketing_consents.granted_at'))
            .else(eb.ref('excluded.granted_at'))
            .end(),
          status: 'granted',
          user_id: eb.fn.coalesce('excluded.user_id', 'marketing_consents.user_id'),
          withdrawn_at: null,
          withdrawn_via: null,
        })),
      )
      .execute();
    return true;
  });
}

/** "No more": the opt-out every send checks, and the consent marked withdrawn (kept as the record). Idempotent. */
export async function withdrawMarketingConsent(
  db: Kysely<Database>,
  o: { email: string; via: 'account' | 'unsubscribe'; now: Date },
): Promise<void> {
  await db.transaction().execute((trx) => withdrawMarketingConsentIn(trx, o));
}

/**
 * The same inside the caller's transaction. An account's deletion passes `forgetAccount`: a consent
 * it gave is withdrawn and its record kept without the account; an address that never said yes is
 * not put on the opt-out list for it (a later tick at checkout still counts).
 */
export async function withdrawMarketingConsentIn(
  trx: Kysely<Database>,
  o: { email: string; via: 'account' | 'unsubscribe'; now: Date; forgetAccount?: boolean },
): Promise<void> {
  const email = normal(o.email);
  const at = o.now.toISOString();
  if (o.forgetAccount) {
    const held = await trx.selectFrom('marketing_consents').select('status').where('email', '=', email).executeTakeFirst();
    if (!held) return;
    await trx.updateTable('marketing_consents').set({ user_id: null }).where('email', '=', email).execute();
    if (held.status !== 'granted') return;
  }
  await trx
    .insertInto('email_opt_outs')
    .values({ email, kind: MARKETING_OPT_OUT_KIND, created_at: at })
    .onConflict((oc) => oc.columns(['email', 'kind']).doNothing())
    .execute();
  await trx
    .updateTable('marketing_consents')
    .set({ status: 'withdrawn', withdrawn_at: at, withdrawn_via: o.via })
    .where('email', '=', email)
    .where('status', '=', 'granted')
    .execute();
  // No recovery e-mail goes to it any more, one still queued included.
  await closeRecoveries(trx, { email }, { state: 'opted-out', reason: null }, o.now);
}

/** The address's consent record, as stored (the account's data export). */
export function marketingConsentOf(db: Kysely<Database>, email: string) {
  return db.selectFrom('marketing_consents').selectAll().where('email', '=', normal(email)).executeTakeFirst();
}

/** Whether offers and reminders may go to this address now: a consent given and no opt-out. */
export async function mayMarketTo(db: Kysely<Database>, email: string): Promise<boolean> {
  const address = normal(email);
  const [consent, out] = await Promise.all([
    db.selectFrom('marketing_consents').select('status').where('email', '=', address).executeTakeFirst(),
    optedOut(db, address, MARKETING_OPT_OUT_KIND),
  ]);
  return consent?.status === 'granted' && !out;
}

export async function readEmailPreferences(db: Kysely<Database>, user: Pick<UserRow, 'email'>): Promise<EmailPreferences> {
  const email = normal(user.email);
  const [consent, outs] = await Promise.all([
    db.selectFrom('marketing_consents').selectAll().where('email', '=', email).executeTakeFirst(),
    db.selectFrom('email_opt_outs').select('kind').where('email', '=', email).execute(),
  ]);
  const kinds = new Set(outs.map((o) => o.kind));
  const marketing = consent?.status === 'granted' && !kinds.has(MARKETING_OPT_OUT_KIND);
  return {
    email,
    marketing,
    marketingSince: marketing ? consent.granted_at : null,
    marketingSource: marketing ? consent.source : null,
    unsubscribed: kinds.has(MARKETING_OPT_OUT_KIND),
    reviewRequests: !kinds.has(REVIEW_OPT_OUT_KIND),
  };
}

/**
 * The account's switches, saved as given (two tabs: the last save holds). Turning offers back on
 * after an unsubscribe needs a confirmed address: it is the only way to lift the opt-out.
 */
export async function saveEmailPreferences(
  db: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'email' | 'email_verified'>,
  input: EmailPreferencesInput,
  now: Date,
): Promise<EmailPreferences> {
  const before = await readEmailPreferences(db, user);
  if (input.marketing && !before.marketing) {
    if (before.unsubscribed && !user.email_verified) throw new HttpError(403, EMAIL_PREFERENCES_MESSAGES.verifyFirst);
    await recordMarketingConsent(db, { email: user.email, userId: user.id, source: 'account', now });
  } else if (!input.marketing && before.marketing) {
    await withdrawMarketingConsent(db, { email: user.email, via: 'account', now });
  }
  const email = normal(user.email);
  if (input.reviewRequests) {
    await db.deleteFrom('email_opt_outs').where('email', '=', email).where('kind', '=', REVIEW_OPT_OUT_KIND).execute();
  } else {
    await db
      .insertInto('email_opt_outs')
      .values({ email, kind: REVIEW_OPT_OUT_KIND, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['email', 'kind']).doNothing())
      .execute();
  }
  return readEmailPreferences(db, user);
}
