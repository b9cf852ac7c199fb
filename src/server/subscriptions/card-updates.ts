import type { Kysely, Selectable } from 'kysely';
import type { AppDeps } from '../app.js';
import type { Database, SubscriptionCardUpdatesTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { queueEmail } from '../email/outbox.js';
import { randomString } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import type { OrderEventActor } from '../lib/actors.js';
import {
  PaymentProviderError,
  type CardSetupOutcomes,
  type CardSetupPageState,
  type PaymentProviders,
  type SavedCard,
} from '../payments/provider.js';
import { SUBSCRIPTION_MESSAGES, subscriptionLineText } from '../../shared/subscriptions.js';
import { CARD_RETURN_PARAMS, CARD_UPDATE_MESSAGES, cardBrandName, type CardUpdateOutcome } from '../../shared/subscription-card.js';
import { testPaymentMethodCard } from '../payments/test-payment-methods.js';
import { recordSubscriptionEvent } from './events.js';
import { manageUrl, newManageLink } from './manage-links.js';

/*
 * Updating the card renewals charge (issue [5/8]): the customer is sent to the provider's own page
 * to enter a card, and pays nothing (Stripe Checkout in setup mode; the built-in test card page in
 * setup mode). Each page is one row of `subscription_card_updates`, used once: the provider's word
 * (Stripe's webhook, read back from Stripe; the test page's POST) saves its card in one transaction
 * with the subscription locked first (the schedule's lock order): the subscription's method and
 * card, the timeline's `card.updated`, the e-mail, and a failing renewal tried again at once. A page
 * finished twice, after it ran out, or for a cancelled subscription changes nothing and says so;
 * two pages finished one after the other each save theirs, the last one wins.
 */

type CardUpdate = Selectable<SubscriptionCardUpdatesTable>;

/** How long the card page stays open (Stripe allows 30 minutes to 24 hours). */
export const CARD_UPDATE_TTL_MS = 60 * 60_000;

/** Where the customer came from, and goes back to: their account, or an e-mail link's page (its token). */
export type CardReturn = { kind: 'account' } | { kind: 'link'; token: string };

type StartDeps = { db: Kysely<Database>; payments: PaymentProviders; publicUrl: string };
type SaveDeps = { db: Kysely<Database>; dialect: Dialect; publicUrl: string };

const iso = (d: Date) => d.toISOString();

/** The account's page back from a card page: the dashboard's Subscriptions card, saying which update it was. */
function accountReturnPath(subscriptionId: string, setupId: string | null): string {
  const query = setupId
    ? `?${new URLSearchParams({ [CARD_RETURN_PARAMS.subscription]: subscriptionId, [CARD_RETURN_PARAMS.setup]: setupId }).toString()}`
    : '';
  return `/dashboard${query}#subscriptions`;
}

/** A link's page back from a card page (`base`: the link's page, with its token). */
function linkReturnPath(base: string, subscriptionId: string, setupId: string | null): string {
  if (!setupId) return base;
  return `${base}?${new URLSearchParams({ [CARD_RETURN_PARAMS.subscription]: subscriptionId, [CARD_RETURN_PARAMS.setup]: setupId }).toString()}`;
}

/**
 * "Update card" (POST …/card): a new card page for the subscription, nothing charged; answers the
 * page's address. The row is written first (it is what the provider's word is checked against),
 * then the provider opens its page outside any transaction. Refused for a cancelled subscription
 * (409) and for a provider without such a page (409, with what to do instead).
 */
export async function startCardUpdate(
  deps: StartDeps,
  subscriptionId: string,
  { now, actor, returnTo }: { now: Date; actor: OrderEventActor; returnTo: CardReturn },
): Promise<{ url: string }> {
  const sub = await deps.db
    .selectFrom('subscriptions')
    .select(['id', 'status', 'provider', 'customer_ref', 'email'])
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  if (!sub) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  if (sub.status === 'cancelled') throw new HttpError(409, SUBSCRIPTION_MESSAGES.cardCancelled);
  const provider = deps.payments.of(sub.provider);
  if (!provider.openCardSetup) throw new HttpError(409, SUBSCRIPTION_MESSAGES.cardNotOnline);
  const id = `csu_${randomString(24)}`;
  const expiresAt = new Date(now.getTime() + CARD_UPDATE_TTL_MS);
  await deps.db
    .insertInto('subscription_card_updates')
    .values({
      id,
      subscription_id: sub.id,
      provider: provider.name,
      provider_session_id: null,
      customer_ref: sub.customer_ref,
      return_to: returnTo.kind,
      actor_user_id: actor.userId,
      actor_label: actor.label,
      payment_method_ref: null,
      card_brand: null,
      card_last4: null,
      message: null,
      expires_at: iso(expiresAt),
      created_at: iso(now),
      completed_at: null,
    })
    .execute();
  // The link's own page (its token travels to the provider in the address it sends the customer back to; the shop keeps none).
  const linkBase = returnTo.kind === 'link' ? manageUrl(deps.publicUrl, returnTo.token) : null;
  const back = (setupId: string | null) =>
    linkBase ? linkReturnPath(linkBase, sub.id, setupId) : `${deps.publicUrl}${accountReturnPath(sub.id, setupId)}`;
  let opened;
  try {
    opened = await provider.openCardSetup({
      setupId: id,
      customerRef: sub.customer_ref,
      email: sub.email,
      successUrl: back(id),
      cancelUrl: back(null),
      expiresAt,
      metadata: { subscriptionId: sub.id, cardUpdateId: id },
    });
  } catch (err) {
    await endUpdate(deps.db, id, SUBSCRIPTION_MESSAGES.cardPageFailed);
    if (err instanceof PaymentProviderError) throw new HttpError(502, SUBSCRIPTION_MESSAGES.cardPageFailed);
    throw err;
  }
  await deps.db
    .updateTable('subscription_card_updates')
    .set({ provider_session_id: opened.id, customer_ref: opened.customerRef ?? sub.customer_ref })
    .where('id', '=', id)
    .execute();
  return { url: opened.url };
}

async function endUpdate(db: Kysely<Database>, id: string, message: string): Promise<void> {
  await db
    .updateTable('subscription_card_updates')
    .set({ status: 'ended', message })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .execute();
}

export type SaveOutcome = { saved: true; update: CardUpdate } | { saved: false; message: string; update: CardUpdate | null };

/**
 * Saves the card a provider's page saved, once: in one transaction, the subscription locked first,
 * then the page's row re-read. Nothing changes when the page was used already, ended, ran out
 * (`enforceExpiry`: the test page's POST; Stripe's own page closes when it runs out, so its word
 * arrives in time even when its webhook is late), or its subscription was cancelled meanwhile.
 * Otherwise the subscription charges the new card from now (its method, the provider's customer it
 * is attached to, and the card as the customer knows it), a failing flag is cleared, an open
 * renewal that failed (retrying, or waiting for the customer) is due again now so the schedule
 * charges the new card with its next attempt's key, and the timeline and the e-mail say so.
 */
export async function saveUpdatedCard(
  deps: SaveDeps,
  find: { id: string } | { providerSessionId: string },
  card: SavedCard,
  { now, enforceExpiry }: { now: Date; enforceExpiry: boolean },
): Promise<SaveOutcome> {
  return transactionWithRetry(deps.db, async (trx) => {
    let q = trx.selectFrom('subscription_card_updates').select(['id', 'subscription_id']);
    q = 'id' in find ? q.where('id', '=', find.id) : q.where('provider_session_id', '=', find.providerSessionId);
    const found = await q.executeTakeFirst();
    if (!found) return { saved: false, message: CARD_UPDATE_MESSAGES.notFound, update: null };
    const sub = await forUpdate(
      trx.selectFrom('subscriptions').selectAll().where('id', '=', found.subscription_id),
      deps.dialect,
    ).executeTakeFirst();
    const update = await forUpdate(
      trx.selectFrom('subscription_card_updates').selectAll().where('id', '=', found.id),
      deps.dialect,
    ).executeTakeFirstOrThrow();
    if (update.status === 'completed') return { saved: false, message: CARD_UPDATE_MESSAGES.alreadySaved, update };
    if (update.status === 'ended') return { saved: false, message: update.message ?? CARD_UPDATE_MESSAGES.expired, update };
    const refuse = async (message: string): Promise<SaveOutcome> => {
      await endUpdate(trx, update.id, message);
      return { saved: false, message, update: { ...update, status: 'ended', message } };
    };
    if (!sub || sub.status === 'cancelled') return refuse(CARD_UPDATE_MESSAGES.subscriptionCancelled);
    if (enforceExpiry && update.expires_at <= iso(now)) return refuse(CARD_UPDATE_MESSAGES.expired);

    const brand = cardBrandName(card.brand);
    const at = iso(now);
    const retry = await trx
      .selectFrom('subscription_cycles')
      .select(['cycle', 'status'])
      .where('subscription_id', '=', sub.id)
      .where('status', 'in', ['retrying', 'needs_customer'])
      .orderBy('cycle', 'desc')
      .executeTakeFirst();
    await trx
      .updateTable('subscriptions')
      .set({
        payment_method_ref: card.paymentMethodRef,
        customer_ref: card.customerRef ?? update.customer_ref ?? sub.customer_ref,
        card_brand: brand,
        card_last4: card.last4,
        // The card that failed is replaced: the subscription renews as usual, and the retry below (or the next renewal) tells.
        ...(sub.status === 'payment_failing' ? { status: 'active' as const, failing_since: null } : {}),
        updated_at: at,
      })
      .where('id', '=', sub.id)
      .execute();
    if (retry)
      await trx
        .updateTable('subscription_cycles')
        .set({ next_attempt_at: at, updated_at: at })
        .where('subscription_id', '=', sub.id)
        .where('cycle', '=', retry.cycle)
        .where('status', '=', retry.status)
        .execute();
    const completed: CardUpdate = {
      ...update,
      status: 'completed',
      payment_method_ref: card.paymentMethodRef,
      customer_ref: card.customerRef ?? update.customer_ref,
      card_brand: brand,
      card_last4: card.last4,
      completed_at: at,
    };
    await trx
      .updateTable('subscription_card_updates')
      .set({
        status: 'completed',
        payment_method_ref: completed.payment_method_ref,
        customer_ref: completed.customer_ref,
        card_brand: brand,
        card_last4: card.last4,
        completed_at: at,
      })
      .where('id', '=', update.id)
      .execute();
    await recordSubscriptionEvent(
      trx,
      sub.id,
      'card.updated',
      { userId: update.actor_user_id, label: update.actor_label },
      {
        brand,
        last4: card.last4,
        before: await cardBefore(trx, sub),
        cardUpdateId: update.id,
        retriedCycle: retry?.cycle ?? null,
      },
      now,
    );
    await queueEmail(trx, {
      to: sub.email,
      templateId: 'subscription-card-updated',
      variables: {
        customerName: parseJson<{ name?: string } | null>(sub.shipping_address, null)?.name?.trim() || 'there',
        terms: subscriptionLineText(sub.every_weeks, sub.discount_percent),
        cardBrand: brand,
        cardLast4: card.last4,
        retryNote: retry ? 'We are trying your unpaid delivery again with this card now.' : '',
        manageUrl: await newManageLink(trx, sub.id, now, deps.publicUrl),
      },
    });
    return { saved: true, update: completed };
  });
}

/** The card the subscription charged before: as it keeps it, or (a test card kept before it did) the test card's row. */
async function cardBefore(
  trx: Kysely<Database>,
  sub: { provider: string; payment_method_ref: string | null; card_brand: string | null; card_last4: string | null },
): Promise<{ brand: string; last4: string } | null> {
  if (sub.card_brand && sub.card_last4) return { brand: sub.card_brand, last4: sub.card_last4 };
  const test = sub.provider === 'test' && sub.payment_method_ref ? await testPaymentMethodCard(trx, sub.payment_method_ref) : null;
  return test ? { brand: cardBrandName(test.brand), last4: test.last4 } : null;
}

/** The page's state now: an open row past its time counts as run out. */
function closedWhy(update: CardUpdate, now: Date): string | null {
  if (update.status === 'completed') return CARD_UPDATE_MESSAGES.alreadySaved;
  if (update.status === 'ended') return update.message ?? CARD_UPDATE_MESSAGES.expired;
  if (update.expires_at <= iso(now)) return CARD_UPDATE_MESSAGES.expired;
  return null;
}

/**
 * Back from the card page (POST …/card/confirm): what became of this update. Saved (by the test
 * page, or Stripe's webhook already), or asked of the provider now when the customer is back before
 * its webhook (the same saving, once); still open and in time: waiting; otherwise ended and why.
 */
export async function confirmCardUpdate(
  deps: StartDeps & { dialect: Dialect },
  subscriptionId: string,
  setupId: string,
  now: Date,
): Promise<CardUpdateOutcome> {
  const update = await deps.db
    .selectFrom('subscription_card_updates')
    .selectAll()
    .where('id', '=', setupId)
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
  if (!update) throw new HttpError(404, SUBSCRIPTION_MESSAGES.cardUpdateNotFound);
  let current = update;
  if (update.status === 'open' && update.provider_session_id) {
    const provider = deps.payments.of(update.provider);
    const card = provider.lookUpCardSetup ? await provider.lookUpCardSetup(update.provider_session_id).catch(() => null) : null;
    if (card) {
      const result = await saveUpdatedCard(deps, { id: update.id }, card, { now, enforceExpiry: false });
      if (result.update) current = result.update;
    }
  }
  if (current.status === 'completed' && current.card_brand && current.card_last4)
    return { outcome: 'updated', card: { brand: current.card_brand, last4: current.card_last4 }, message: null };
  const why = closedWhy(current, now);
  if (why && current.status === 'open') await endUpdate(deps.db, current.id, why);
  return why ? { outcome: 'ended', card: null, message: why } : { outcome: 'waiting', card: null, message: null };
}

/** Where the customer goes back to from the test page: the account's card, or the link's page (a fresh link: the shop keeps no token). */
async function returnUrl(db: Kysely<Database>, update: CardUpdate, saved: boolean, now: Date): Promise<string> {
  const setupId = saved ? update.id : null;
  if (update.return_to === 'account') return accountReturnPath(update.subscription_id, setupId);
  return linkReturnPath(await newManageLink(db, update.subscription_id, now, ''), update.subscription_id, setupId);
}

/**
 * Subscriptions' answers to the payments module's card pages (wired by app.ts): the test card page
 * in setup mode reads a page's state, saves its card or is left; Stripe's webhook says a page is
 * complete, and the card is read back from Stripe and saved once.
 */
export function subscriptionCardSetups({ db, dialect, payments, config }: AppDeps): CardSetupOutcomes {
  const deps: SaveDeps = { db, dialect, publicUrl: config.publicUrl };
  return {
    async state(setupId, now = new Date()): Promise<CardSetupPageState | null> {
      const row = await db
        .selectFrom('subscription_card_updates as u')
        .innerJoin('subscriptions as s', 's.id', 'u.subscription_id')
        .selectAll('u')
        .select(['s.email', 's.every_weeks', 's.discount_percent', 's.status as subscription_status'])
        .where('u.id', '=', setupId)
        .where('u.provider', '=', 'test')
        .executeTakeFirst();
      if (!row) return null;
      const closed = closedWhy(row, now) ?? (row.subscription_status === 'cancelled' ? CARD_UPDATE_MESSAGES.subscriptionCancelled : null);
      return {
        email: row.email,
        terms: subscriptionLineText(row.every_weeks, row.discount_percent),
        closed,
        // A closed page offers the way back without a new link: the account's card, or the shop.
        backHref: row.return_to === 'account' ? accountReturnPath(row.subscription_id, null) : '/',
      };
    },
    async saved(setupId, card, now = new Date()) {
      const result = await saveUpdatedCard(deps, { id: setupId }, card, { now, enforceExpiry: true });
      if (!result.saved) return { saved: false, message: result.message };
      return { saved: true, returnUrl: await returnUrl(db, result.update, true, now) };
    },
    async left(setupId, now = new Date()) {
      const update = await db.selectFrom('subscription_card_updates').selectAll().where('id', '=', setupId).executeTakeFirst();
      if (!update || update.status !== 'open') return '/';
      await endUpdate(db, update.id, CARD_UPDATE_MESSAGES.left);
      return returnUrl(db, update, false, now);
    },
    async completed(providerSessionId, log) {
      const update = await db
        .selectFrom('subscription_card_updates')
        .select(['id', 'provider', 'status'])
        .where('provider_session_id', '=', providerSessionId)
        .executeTakeFirst();
      if (!update) {
        log.warn({ sessionId: providerSessionId }, 'webhook for an unknown card setup session');
        return;
      }
      // Stripe delivers an event more than once: a page already saved (or ended) is left as it is.
      if (update.status !== 'open') return;
      const provider = payments.of(update.provider);
      const card = provider.lookUpCardSetup ? await provider.lookUpCardSetup(providerSessionId) : null;
      if (!card) {
        log.warn({ sessionId: providerSessionId }, 'card setup session not complete at the provider');
        return;
      }
      await saveUpdatedCard(deps, { id: update.id }, card, { now: new Date(), enforceExpiry: false });
    },
  };
}
