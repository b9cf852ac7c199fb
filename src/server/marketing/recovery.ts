import { sql, type Kysely } from 'kysely';
import type { CheckoutRecoveriesTable, Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { writeTogether } from '../db/query-helpers.js';
import { emailWrites } from '../email/outbox.js';
import { TOOK_MONEY_STATUSES } from '../orders/money-taken.js';
import { newId, randomString } from '../lib/ids.js';
import { startIntervalWorker } from '../lib/interval-worker.js';
import { parseJson } from '../lib/json.js';
import { formatCents } from '../../shared/money.js';
import { imageVariantPath, imageVariants } from '../../shared/image-variants.js';
import { RECOVERY_LIMITS, type RecoveryReason, type RecoverySettings } from '../../shared/schemas/recovery.js';
import { MARKETING_OPT_OUT_KIND } from './consent.js';
import { OPEN_STATES } from './close-recoveries.js';
import { marketingFooter } from './footer.js';
import { readRecoverySettings } from './recovery-settings.js';
import { restoreToken } from './restore-token.js';
import { variantLevels } from '../inventory/stock.js';
import { reservedByVariant } from '../inventory/reservations.js';

/**
 * Checkout recovery (issue [7/8] item 3, decision 0061). A checkout not paid `firstAfterHours`
 * after it was made is decided once, by whichever process gets to it first: its
 * `checkout_recoveries` row is written first in the transaction that decides (order_id unique, as
 * the review requests' rows are), so two processes write one row and one e-mail. A row is kept for
 * every abandoned checkout, e-mailed or not, so the owner's list shows them all.
 *
 * Nothing goes when the shopper paid or ordered since, started a newer checkout, emptied the cart,
 * when every item sold out, to an address that never said yes to offers or unsubscribed, while the
 * owner has recovery off, or without the shop's postal address. Each of these is checked again in
 * the transaction that queues an e-mail. A payment, an unsubscribe or an emptied cart also closes
 * the row at once and deletes its e-mail if still queued (settleRecoveriesWrites, closeRecoveries).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** How far back past the first delay a checkout is still decided: a shop back from downtime catches up on two days, not its history. */
export const RECOVERY_CATCH_UP_HOURS = 48;
/** Checkouts decided (or second e-mails sent) per batch, a transaction each. */
export const RECOVERIES_PER_TURN = 50;

type Log = { error: (o: object, msg: string) => void };
export type RecoveryDeps = { db: Kysely<Database>; dialect: Dialect; publicUrl: string; log: Log };
export type RecoveryOutcome = 'emailed' | 'not-emailed' | 'taken' | 'gone';

const iso = (d: Date) => d.toISOString();
const normal = (email: string) => email.trim().toLowerCase();

/** Unpaid checkouts made in the window with no recovery row yet, oldest first (a range of orders_created_at_idx). */
async function dueCheckouts(db: Kysely<Database>, from: string, to: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('orders as o')
    .select('o.id')
    .where('o.created_at', '>=', from)
    .where('o.created_at', '<=', to)
    .where('o.origin', '=', 'checkout')
    .where('o.payment_status', 'in', ['unpaid', 'expired', 'failed'])
    .where('o.email', 'is not', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('checkout_recoveries as r').select('r.id').whereRef('r.order_id', '=', 'o.id'))))
    .orderBy('o.created_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export type RecoveryLine = {
  productId: string;
  variantId: string;
  name: string;
  variantLabel: string;
  image: string | null;
  quantity: number;
  size: string;
  color: string;
  everyWeeks: number | null;
  unitPriceCents: number;
  /** Units that can be bought now. */
  inventory: number;
  available: boolean;
};

/**
 * The checkout's lines as they would go back in the cart now: today's price and whether its variant
 * can be bought (the product on sale, the variant enabled, a unit free). The free gift is the
 * coupon's, not a line of its own.
 */
export async function recoveryLines(db: Kysely<Database>, orderId: string, now: Date): Promise<RecoveryLine[]> {
  const rows = await db
    .selectFrom('order_items as i')
    .innerJoin('products as p', 'p.id', 'i.product_id')
    .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
    .select([
      'i.product_id',
      'i.variant_id',
      'i.variant_label',
      'i.product_image',
      'i.quantity',
      'i.size',
      'i.color',
      'i.every_weeks',
      'i.price_cents',
      'p.name',
      'p.status',
      'p.images',
      'v.price_cents as variant_price',
      'v.enabled as variant_enabled',
      'v.image as variant_image',
    ])
    .where('i.order_id', '=', orderId)
    .where('i.is_free_gift', '=', 0)
    .orderBy('i.id')
    .execute();
  // What can be bought now: each variant's level less what open checkouts keep (the inventory's own reads).
  const keys = rows.flatMap((r) => (r.variant_id ? [{ productId: r.product_id, variantId: r.variant_id }] : []));
  const [levels, held] = await Promise.all([
    variantLevels(
      db,
      keys.map((k) => k.variantId),
    ),
    reservedByVariant(db, keys, now, orderId),
  ]);
  return rows.map((r) => {
    const free = r.variant_id ? (levels.get(r.variant_id) ?? 0) - (held.get(r.variant_id) ?? 0) : 0;
    const available = r.status === 'active' && r.variant_id !== null && Number(r.variant_enabled ?? 0) === 1 && free > 0;
    return {
      productId: r.product_id,
      variantId: r.variant_id ?? `var_${r.product_id}`,
      name: r.name,
      variantLabel: r.variant_label,
      image: r.variant_image ?? parseJson<string[]>(r.images, [])[0] ?? r.product_image,
      quantity: r.quantity,
      size: r.size,
      color: r.color,
      everyWeeks: r.every_weeks ?? null,
      unitPriceCents: r.variant_price === null ? r.price_cents : Number(r.variant_price),
      inventory: available ? free : 0,
      available,
    };
  });
}

/** A picture an e-mail can show: an absolute address, the 320-pixel copy of an uploaded photo. */
function emailImage(publicUrl: string, src: string | null): string {
  if (!src) return '';
  if (/^https?:\/\//i.test(src)) return src;
  if (!src.startsWith('/')) return '';
  return `${publicUrl}${imageVariants(src) ? imageVariantPath(src, 320) : src}`;
}

/** Why nothing may be sent now about this checkout, or null: every rule but the lines' stock. */
async function reasonNotToSend(
  db: Kysely<Database>,
  row: Pick<CheckoutRecoveriesTable, 'order_id' | 'email' | 'user_id' | 'device_id' | 'checkout_at'>,
  settings: RecoverySettings & { postalAddress: string },
  now: Date,
): Promise<{ state: CheckoutRecoveriesTable['state']; reason: RecoveryReason | null } | null> {
  // Orders by the same address since (a range of orders_created_at_idx: the days since the checkout).
  const later = await db
    .selectFrom('orders')
    .select('payment_status')
    .where('created_at', '>', row.checkout_at)
    .where('created_at', '<=', iso(now))
    .where('id', '!=', row.order_id)
    .where(sql`lower(email)`, '=', row.email)
    .execute();
  if (later.some((o) => (TOOK_MONEY_STATUSES as readonly string[]).includes(o.payment_status)))
    return { state: 'closed', reason: 'ordered' };
  if (later.length > 0) return { state: 'closed', reason: 'newer-checkout' };
  const holders = [...(row.device_id ? [`device:${row.device_id}`] : []), ...(row.user_id ? [`user:${row.user_id}`] : [])];
  if (holders.length) {
    const emptied = await db
      .selectFrom('emptied_carts')
      .select('holder')
      .where('holder', 'in', holders)
      .where('emptied_at', '>', row.checkout_at)
      .executeTakeFirst();
    if (emptied) return { state: 'closed', reason: 'emptied' };
  }
  const [consent, out] = await Promise.all([
    db.selectFrom('marketing_consents').select('status').where('email', '=', row.email).executeTakeFirst(),
    db
      .selectFrom('email_opt_outs')
      .select('email')
      .where('email', '=', row.email)
      .where('kind', '=', MARKETING_OPT_OUT_KIND)
      .executeTakeFirst(),
  ]);
  if (out) return { state: 'opted-out', reason: null };
  if (consent?.status !== 'granted') return { state: 'abandoned', reason: 'no-consent' };
  if (!settings.enabled) return { state: 'abandoned', reason: 'off' };
  if (!settings.postalAddress) return { state: 'abandoned', reason: 'no-postal-address' };
  return null;
}

/** The e-mail's variables: the lines still to be had, the restore link, the greeting. */
function recoveryEmail(deps: RecoveryDeps, token: string, lines: RecoveryLine[], orderNumber: string) {
  const available = lines.filter((l) => l.available);
  const totalCents = available.reduce((n, l) => n + l.unitPriceCents * l.quantity, 0);
  return {
    orderNumber,
    restoreUrl: `${deps.publicUrl}/cart/restore?token=${encodeURIComponent(token)}`,
    cartLines: lines.map((l) => ({
      name: l.name,
      variant: l.variantLabel,
      quantity: String(l.quantity),
      price: formatCents(l.unitPriceCents * l.quantity),
      image: emailImage(deps.publicUrl, l.image),
      soldOut: !l.available,
    })),
    cartTotal: formatCents(totalCents),
    linkDays: String(RECOVERY_LIMITS.linkDays),
  };
}

/** Greets by the checkout's shipping name, else "there". */
async function greetingOf(db: Kysely<Database>, orderId: string): Promise<{ customerName: string; orderNumber: string }> {
  const o = await db.selectFrom('orders').select(['shipping_address', 'order_number']).where('id', '=', orderId).executeTakeFirst();
  const address = parseJson<{ name?: unknown } | null>(o?.shipping_address ?? null, null);
  const first = (typeof address?.name === 'string' ? address.name.trim() : '').split(/\s+/)[0];
  return { customerName: first || 'there', orderNumber: o?.order_number ?? '' };
}

/** A one-use coupon for the second e-mail, or null: none set, or this address had one in the last 30 days. */
async function couponFor(
  trx: Kysely<Database>,
  email: string,
  settings: RecoverySettings,
  now: Date,
): Promise<{ id: string; code: string; validUntil: string } | null> {
  if (settings.couponPercent <= 0) return null;
  const since = iso(new Date(now.getTime() - RECOVERY_LIMITS.couponEveryDays * DAY_MS));
  const had = await trx
    .selectFrom('checkout_recoveries')
    .select('id')
    .where('email', '=', email)
    .where('coupon_id', 'is not', null)
    .where('last_email_at', '>', since)
    .executeTakeFirst();
  if (had) return null;
  const at = iso(now);
  const id = newId('coupon');
  const code = `BACK-${randomString(8).toUpperCase()}`;
  const validUntil = iso(new Date(now.getTime() + settings.couponDays * DAY_MS));
  await trx
    .insertInto('coupons')
    .values({
      id,
      code,
      description: `Checkout recovery: ${settings.couponPercent}% off, one use`,
      discount_type: 'percentage',
      discount_value: settings.couponPercent,
      min_order_cents: null,
      max_uses: 1,
      current_uses: 0,
      valid_from: at,
      valid_until: validUntil,
      is_active: 1,
      free_product_id: null,
      stripe_coupon_id: null,
      owner_user_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { id, code, validUntil };
}

/**
 * Decides one checkout, in one transaction: its row first (the claim), then not e-mailed with the
 * reason, or the first e-mail queued with the row's move to 'emailed'.
 */
export async function decideCheckout(deps: RecoveryDeps, orderId: string, now: Date): Promise<RecoveryOutcome> {
  const { db } = deps;
  const settings = await readRecoverySettings(db);
  const id = newId('rcv');
  // Made before the transaction: its key is read (the first time, written) outside it.
  const token = await restoreToken(db, id);
  return transactionWithRetry(db, async (trx) => {
    // The order locked (PostgreSQL): a payment of it at this moment waits, and its writes then see
    // this recovery and stop its e-mail; or it went first, and this reads it paid.
    const order = await forUpdate(
      trx
        .selectFrom('orders')
        .select(['id', 'email', 'user_id', 'created_at', 'total_cents', 'payment_status', 'order_number', 'guest_token_hash'])
        .where('id', '=', orderId),
      deps.dialect,
    ).executeTakeFirst();
    if (!order || !order.email || (TOOK_MONEY_STATUSES as readonly string[]).includes(order.payment_status)) return 'gone';
    const at = iso(now);
    const row = {
      id,
      order_id: order.id,
      email: normal(order.email),
      user_id: order.user_id,
      // The checkout's browser, as its order keeps it (the device cookie's hash; its stock holds are swept long before).
      device_id: order.guest_token_hash,
      checkout_at: order.created_at,
    };
    const claimed = await trx
      .insertInto('checkout_recoveries')
      .values({
        ...row,
        state: 'abandoned',
        reason: null,
        value_cents: order.total_cents,
        expires_at: iso(new Date(Date.parse(order.created_at) + RECOVERY_LIMITS.linkDays * DAY_MS)),
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return 'taken';

    const notNow = await reasonNotToSend(trx, row, settings, now);
    const lines = notNow ? [] : await recoveryLines(trx, order.id, now);
    const decided = notNow ?? (lines.some((l) => l.available) ? null : { state: 'closed' as const, reason: 'sold-out' as const });
    if (decided) {
      await trx.updateTable('checkout_recoveries').set({ state: decided.state, reason: decided.reason }).where('id', '=', id).execute();
      return 'not-emailed';
    }
    const footer = await marketingFooter(trx, deps.publicUrl, row.email);
    if (!footer) {
      await trx.updateTable('checkout_recoveries').set({ reason: 'no-consent' }).where('id', '=', id).execute();
      return 'not-emailed';
    }
    const { writes, queued } = await emailWrites(trx, {
      to: row.email,
      templateId: 'checkout-recovery',
      variables: { ...(await greetingOf(trx, order.id)), ...recoveryEmail(deps, token, lines, order.order_number), ...footer.variables },
      listUnsubscribe: footer.listUnsubscribe,
    });
    const checkoutMs = Date.parse(order.created_at);
    const second =
      settings.secondAfterHours > 0
        ? iso(
            new Date(
              Math.max(
                checkoutMs + settings.secondAfterHours * HOUR_MS,
                now.getTime() + (settings.secondAfterHours - settings.firstAfterHours) * HOUR_MS,
              ),
            ),
          )
        : null;
    writes.push(
      trx
        .updateTable('checkout_recoveries')
        .set({
          state: 'emailed',
          emails_sent: 1,
          last_email_at: at,
          next_email_at: second,
          mail_id: queued.id,
          expires_at: iso(new Date(now.getTime() + RECOVERY_LIMITS.linkDays * DAY_MS)),
          updated_at: at,
        })
        .where('id', '=', id),
    );
    await writeTogether(trx, writes);
    return 'emailed';
  });
}

/** The second e-mail of one row, in one transaction: claimed by clearing its due time, every rule checked again. */
export async function sendSecondEmail(deps: RecoveryDeps, recoveryId: string, dueAt: string, now: Date): Promise<RecoveryOutcome> {
  const { db } = deps;
  const settings = await readRecoverySettings(db);
  const token = await restoreToken(db, recoveryId);
  return transactionWithRetry(db, async (trx) => {
    const at = iso(now);
    const claimed = await trx
      .updateTable('checkout_recoveries')
      .set({ next_email_at: null, updated_at: at })
      .where('id', '=', recoveryId)
      .where('state', '=', 'emailed')
      .where('next_email_at', '=', dueAt)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return 'taken';
    const row = await trx.selectFrom('checkout_recoveries').selectAll().where('id', '=', recoveryId).executeTakeFirstOrThrow();
    const order = await trx
      .selectFrom('orders')
      .select(['payment_status', 'order_number'])
      .where('id', '=', row.order_id)
      .executeTakeFirst();
    if (!order) return 'gone';
    if ((TOOK_MONEY_STATUSES as readonly string[]).includes(order.payment_status)) return 'not-emailed';
    const notNow = await reasonNotToSend(trx, row, settings, now);
    const lines = notNow ? [] : await recoveryLines(trx, row.order_id, now);
    const decided = notNow ?? (lines.some((l) => l.available) ? null : { state: 'closed' as const, reason: 'sold-out' as const });
    if (decided) {
      // Once e-mailed, "no consent" or "off" means no second e-mail, and the row stays e-mailed.
      if (decided.state !== 'abandoned') {
        await trx
          .updateTable('checkout_recoveries')
          .set({ state: decided.state, reason: decided.reason })
          .where('id', '=', row.id)
          .execute();
      }
      return 'not-emailed';
    }
    const footer = await marketingFooter(trx, deps.publicUrl, row.email);
    if (!footer) return 'not-emailed';
    const coupon = await couponFor(trx, row.email, settings, now);
    const { writes, queued } = await emailWrites(trx, {
      to: row.email,
      templateId: 'checkout-recovery-reminder',
      variables: {
        ...(await greetingOf(trx, row.order_id)),
        ...recoveryEmail(deps, token, lines, order.order_number),
        ...footer.variables,
        couponCode: coupon?.code ?? '',
        discountPercent: coupon ? String(settings.couponPercent) : '',
        couponExpiresAt: coupon ? coupon.validUntil.slice(0, 10) : '',
      },
      listUnsubscribe: footer.listUnsubscribe,
    });
    writes.push(
      trx
        .updateTable('checkout_recoveries')
        .set({
          emails_sent: 2,
          last_email_at: at,
          mail_id: queued.id,
          coupon_id: coupon?.id ?? null,
          coupon_code: coupon?.code ?? null,
          expires_at: iso(new Date(now.getTime() + RECOVERY_LIMITS.linkDays * DAY_MS)),
          updated_at: at,
        })
        .where('id', '=', row.id),
    );
    await writeTogether(trx, writes);
    return 'emailed';
  });
}

/** Rows past their end with no order: expired (one statement over the rows that ended since the last turn). */
async function expireRecoveries(db: Kysely<Database>, now: Date): Promise<number> {
  const at = iso(now);
  const r = await db
    .updateTable('checkout_recoveries')
    .set({ state: 'expired', next_email_at: null, updated_at: at })
    .where('state', 'in', [...OPEN_STATES])
    .where('expires_at', '<=', at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * One pass at `now`: new abandoned checkouts decided, second e-mails due sent, ended rows expired.
 * `more` when a batch was full (the caller runs again soon).
 */
export async function runCheckoutRecovery(
  deps: RecoveryDeps,
  now: Date,
  limit = RECOVERIES_PER_TURN,
): Promise<{ emailed: number; notEmailed: number; expired: number; more: boolean }> {
  const { firstAfterHours } = await readRecoverySettings(deps.db);
  const to = iso(new Date(now.getTime() - firstAfterHours * HOUR_MS));
  const from = iso(new Date(now.getTime() - (firstAfterHours + RECOVERY_CATCH_UP_HOURS) * HOUR_MS));
  const due = await dueCheckouts(deps.db, from, to, limit);
  let emailed = 0;
  let notEmailed = 0;
  const count = (o: RecoveryOutcome) => {
    if (o === 'emailed') emailed++;
    else if (o === 'not-emailed') notEmailed++;
  };
  for (const id of due) count(await decideCheckout(deps, id, now));
  const seconds = await deps.db
    .selectFrom('checkout_recoveries')
    .select(['id', 'next_email_at'])
    .where('state', '=', 'emailed')
    .where('next_email_at', '<=', iso(now))
    .orderBy('next_email_at')
    .limit(limit)
    .execute();
  for (const s of seconds) count(await sendSecondEmail(deps, s.id, s.next_email_at!, now));
  const expired = await expireRecoveries(deps.db, now);
  return { emailed, notEmailed, expired, more: due.length >= limit || seconds.length >= limit };
}

/** The pass on its own timer, in every process (main.ts), as the review requests' is. */
export function startCheckoutRecoveryWorker(
  deps: RecoveryDeps,
  { intervalMs, clock = () => new Date() }: { intervalMs: number; clock?: () => Date },
): { stop: () => Promise<void> } {
  return startIntervalWorker({ intervalMs, log: deps.log }, [
    { run: async () => (await runCheckoutRecovery(deps, clock())).more, failed: 'checkout recovery turn failed' },
  ]);
}
