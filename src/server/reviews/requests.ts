import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { queueEmail } from '../email/outbox.js';
import { emailOnTimeline } from '../orders/events.js';
import { TOOK_MONEY_STATUSES } from '../orders/money-taken.js';
import { newId } from '../lib/ids.js';
import { startIntervalWorker } from '../lib/interval-worker.js';
import { parseJson } from '../lib/json.js';
import { hashToken, newToken } from '../lib/tokens.js';
import { imageVariantPath, imageVariants } from '../../shared/image-variants.js';
import { REVIEW_LIMITS } from '../../shared/reviews.js';
import { readReviewSettings } from './settings.js';
import { hasOptedOut, reviewOptOutApiUrl, reviewOptOutPageUrl, reviewOptOutToken } from './opt-out.js';

/**
 * The review request e-mail (issue [6/8] item 3, decision 0059): some days after an order ships
 * (the owner's `requestAfterDays`, default 10), once per order, a list of its products each with a
 * signed link to review it (valid REVIEW_LIMITS.linkDays days, single use per product, signing
 * nobody in). Never for a cancelled or fully refunded order, nor to an address that opted out.
 *
 * Work on a schedule, durable and done once (ARCHITECTURE 10): every process runs the pass; the
 * order's `review_requests` row (its `order_id` unique) is written first in the transaction that
 * sends, so two processes reaching one order at once write one row and one e-mail (the second's
 * insert finds the first's and does nothing). A request is a row even when nothing is sent
 * ('skipped', with why), so an order is decided once and never looked at again. Only orders shipped
 * in the 30 days up to the setting's day are read: switching the feature on does not mail the
 * whole history, and a shop back from downtime still catches up on the last month.
 */

const DAY_MS = 86_400_000;
/** How far back past the setting's day an order is still asked about. */
export const REQUEST_CATCH_UP_DAYS = 30;
/** Orders decided per batch (a transaction each); a full batch is followed at once by the next, after a short pause. */
export const REQUESTS_PER_TURN = 50;

type Log = { error: (o: object, msg: string) => void };

export type ReviewRequestDeps = { db: Kysely<Database>; dialect: Dialect; publicUrl: string; log: Log };

export type RequestOutcome = 'sent' | 'skipped' | 'taken' | 'gone';

/** Why no e-mail went (review_requests.skip_reason). */
export type SkipReason = 'cancelled' | 'refunded' | 'opted-out' | 'no-address' | 'nothing-to-review';

const iso = (d: Date) => d.toISOString();

/** The window of shipping instants asked about now: from `days + 30` days ago to `days` days ago. */
export function requestWindow(now: Date, requestAfterDays: number): { from: string; to: string } {
  return {
    from: iso(new Date(now.getTime() - (requestAfterDays + REQUEST_CATCH_UP_DAYS) * DAY_MS)),
    to: iso(new Date(now.getTime() - requestAfterDays * DAY_MS)),
  };
}

/** Orders in the window with no request yet, oldest shipped first (a range of `orders_shipped_at_idx`). */
async function dueOrders(db: Kysely<Database>, window: { from: string; to: string }, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('orders as o')
    .select('o.id')
    .where('o.shipped_at', '>=', window.from)
    .where('o.shipped_at', '<=', window.to)
    // An order the owner entered and has not been paid for yet is asked about once it is (while in the window).
    .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('review_requests as r').select('r.id').whereRef('r.order_id', '=', 'o.id'))))
    .orderBy('o.shipped_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** A picture an e-mail can show: an absolute address, the 320-pixel copy of an uploaded photo. */
function emailImage(publicUrl: string, src: string | null | undefined): string {
  if (!src) return '';
  if (/^https?:\/\//i.test(src)) return src;
  if (!src.startsWith('/')) return '';
  return `${publicUrl}${imageVariants(src) ? imageVariantPath(src, 320) : src}`;
}

/** The name an e-mail greets: the shipping address's first name, else the account's, else "there". */
function greetingName(shippingAddress: string | null, accountName: string | null | undefined): string {
  const address = parseJson<{ name?: unknown } | null>(shippingAddress, null);
  const full = (typeof address?.name === 'string' && address.name.trim()) || accountName?.trim() || '';
  return full.split(/\s+/)[0] || 'there';
}

type ProductToReview = { productId: string; name: string; variantLabel: string; image: string };

/**
 * The order's products to ask about: each product once (the first line's variant), still in the
 * catalogue, and not already reviewed by this customer (by their account or their address).
 */
async function productsToReview(
  trx: Transaction<Database>,
  order: { id: string; user_id: string | null },
  email: string,
  publicUrl: string,
): Promise<ProductToReview[]> {
  const lines = await trx
    .selectFrom('order_items as i')
    .innerJoin('products as p', 'p.id', 'i.product_id')
    .select(['i.product_id', 'i.variant_label', 'i.product_image', 'p.name', 'p.images', 'p.status'])
    .where('i.order_id', '=', order.id)
    .orderBy('i.id')
    .execute();
  const byProduct = new Map<string, ProductToReview>();
  for (const l of lines) {
    if (l.status !== 'active' || byProduct.has(l.product_id)) continue;
    const image = parseJson<string[]>(l.images, [])[0] ?? l.product_image;
    byProduct.set(l.product_id, {
      productId: l.product_id,
      name: l.name,
      variantLabel: l.variant_label,
      image: emailImage(publicUrl, image),
    });
  }
  if (byProduct.size === 0) return [];
  const authorKeys = [`email:${email}`, ...(order.user_id ? [`user:${order.user_id}`] : [])];
  const reviewed = await trx
    .selectFrom('reviews')
    .select('product_id')
    .where('product_id', 'in', [...byProduct.keys()])
    .where((eb) => eb.or([eb('author_key', 'in', authorKeys), ...(order.user_id ? [eb('user_id', '=', order.user_id)] : [])]))
    .execute();
  for (const r of reviewed) byProduct.delete(r.product_id);
  return [...byProduct.values()];
}

/**
 * Decides one order, in one transaction: its request row first (the claim: a conflict means another
 * process has it), then skipped with a reason, or sent: one link per product and the e-mail queued
 * through the outbox with them, so the links exist exactly when the e-mail does.
 */
export async function requestReviewsForOrder(deps: ReviewRequestDeps, orderId: string, now: Date): Promise<RequestOutcome> {
  const { db, publicUrl } = deps;
  // Made before the transaction: its key is read (the first time, written) outside it.
  const requestId = newId('revreq');
  const optOutToken = await reviewOptOutToken(db, requestId);
  return transactionWithRetry(db, async (trx) => {
    const order = await trx
      .selectFrom('orders as o')
      .leftJoin('users as u', 'u.id', 'o.user_id')
      .select([
        'o.id',
        'o.order_number',
        'o.user_id',
        'o.email',
        'o.status',
        'o.payment_status',
        'o.total_cents',
        'o.refunded_cents',
        'o.shipping_address',
        'u.email as account_email',
        'u.full_name',
      ])
      .where('o.id', '=', orderId)
      .executeTakeFirst();
    if (!order) return 'gone';
    const email = (order.email || order.account_email || '').trim().toLowerCase();
    const claimed = await trx
      .insertInto('review_requests')
      .values({
        id: requestId,
        order_id: order.id,
        email,
        user_id: order.user_id,
        status: 'sent',
        skip_reason: null,
        created_at: iso(now),
        first_review_at: null,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return 'taken';

    const total = Number(order.total_cents);
    const skip = async (reason: SkipReason): Promise<RequestOutcome> => {
      await trx.updateTable('review_requests').set({ status: 'skipped', skip_reason: reason }).where('id', '=', requestId).execute();
      return 'skipped';
    };
    if (order.status === 'cancelled') return skip('cancelled');
    if (order.payment_status === 'refunded' || (total > 0 && Number(order.refunded_cents) >= total)) return skip('refunded');
    if (!email) return skip('no-address');
    if (await hasOptedOut(trx, email)) return skip('opted-out');
    const products = await productsToReview(trx, order, email, publicUrl);
    if (products.length === 0) return skip('nothing-to-review');

    const expiresAt = iso(new Date(now.getTime() + REVIEW_LIMITS.linkDays * DAY_MS));
    const links = products.map((p) => ({ ...p, token: newToken() }));
    await trx
      .insertInto('review_links')
      .values(
        links.map((l) => ({
          token_hash: hashToken(l.token),
          request_id: requestId,
          order_id: order.id,
          product_id: l.productId,
          variant_label: l.variantLabel,
          email,
          expires_at: expiresAt,
          used_at: null,
          review_id: null,
        })),
      )
      .execute();
    await queueEmail(trx, {
      to: email,
      templateId: 'review-request',
      // On the order's timeline: the owner sees when the customer was asked.
      order: emailOnTimeline(order.id),
      variables: {
        customerName: greetingName(order.shipping_address, order.full_name),
        orderNumber: order.order_number,
        products: links.map((l) => ({
          name: l.name,
          variant: l.variantLabel,
          image: l.image,
          reviewUrl: `${publicUrl}/review/${l.token}`,
        })),
        optOutUrl: reviewOptOutPageUrl(publicUrl, optOutToken),
      },
      listUnsubscribe: reviewOptOutApiUrl(publicUrl, optOutToken),
    });
    return 'sent';
  });
}

/**
 * One pass of the schedule at `now`: the orders shipped between `requestAfterDays + 30` and
 * `requestAfterDays` days ago that have no request yet, oldest first, at most `limit`, each decided.
 * `more` when the batch was full (the caller runs again soon).
 */
export async function runReviewRequests(
  deps: ReviewRequestDeps,
  now: Date,
  limit = REQUESTS_PER_TURN,
): Promise<{ sent: number; skipped: number; more: boolean }> {
  const { requestAfterDays } = await readReviewSettings(deps.db);
  const due = await dueOrders(deps.db, requestWindow(now, requestAfterDays), limit);
  let sent = 0;
  let skipped = 0;
  for (const id of due) {
    const outcome = await requestReviewsForOrder(deps, id, now);
    if (outcome === 'sent') sent++;
    else if (outcome === 'skipped') skipped++;
  }
  return { sent, skipped, more: due.length >= limit };
}

/**
 * The request pass on its own timer, in every process (main.ts), as the renewals' is
 * (lib/interval-worker.ts): a turn every `intervalMs`, or at once after a short pause while a
 * backlog clears. `clock` is the schedule's time (tests move it instead of waiting).
 */
export function startReviewRequestsWorker(
  deps: ReviewRequestDeps,
  { intervalMs, clock = () => new Date() }: { intervalMs: number; clock?: () => Date },
): { stop: () => Promise<void> } {
  return startIntervalWorker({ intervalMs, log: deps.log }, [
    { run: async () => (await runReviewRequests(deps, clock())).more, failed: 'review requests turn failed' },
  ]);
}
