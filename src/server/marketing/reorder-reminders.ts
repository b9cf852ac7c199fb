import { sql, type Kysely } from 'kysely';
import type { Database, ReorderRemindersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { writeTogether, type PendingWrite } from '../db/query-helpers.js';
import { emailWrites } from '../email/outbox.js';
import { TOOK_MONEY_STATUSES } from '../orders/money-taken.js';
import { newId } from '../lib/ids.js';
import { startIntervalWorker } from '../lib/interval-worker.js';
import { parseJson } from '../lib/json.js';
import { planView, plansForVariants } from '../lib/subscription-plans.js';
import { formatCents } from '../../shared/money.js';
import { imageVariantPath, imageVariants } from '../../shared/image-variants.js';
import { REORDER_LIMITS, type ReorderLine, type ReorderSkipReason } from '../../shared/schemas/reorder-reminders.js';
import { MARKETING_OPT_OUT_KIND } from './consent.js';
import { marketingFooter } from './footer.js';
import { recoveryLines } from './recovery.js';
import { reorderToken } from './reorder-token.js';

/**
 * Reorder reminders (issue [7/8] item 4). A product the owner gave a use period
 * (`products.reorder_after_days`), bought one-time in a paid order, is due that many days after the
 * order was paid (`paid_at`: set on every paid order, where `shipped_at` is missing for orders the
 * owner never marked shipped and is cleared by a voided label). Due lines are read by a range of
 * `orders_paid_at_idx` per distinct day count, no further back than REORDER_LIMITS.catchUpDays past
 * their due day, so turning reminders on does not mail the history.
 *
 * Each order is decided once, in one transaction, by whichever process gets to it first: its lines'
 * `reorder_reminders` rows are inserted first (unique per order and product, in product order, so
 * two processes neither both win nor deadlock), then each is skipped with its reason or e-mailed.
 * The order's lines due together go in one e-mail. Nothing goes when the customer (the same address,
 * or the account) ordered the product again since or subscribes to it, to an address that never said
 * yes to offers or unsubscribed, without the shop's postal address, or for a product no longer on
 * sale or sold out.
 */

const DAY_MS = 86_400_000;
/** Due lines read per day count and turn; their orders are decided a transaction each. */
export const REORDER_LINES_PER_TURN = 100;

type Log = { error: (o: object, msg: string) => void };
export type ReorderReminderDeps = { db: Kysely<Database>; dialect: Dialect; publicUrl: string; log: Log };
export type ReorderOutcome = 'sent' | 'skipped' | 'taken' | 'gone';

const iso = (d: Date) => d.toISOString();
const normal = (email: string) => email.trim().toLowerCase();
const TOOK_MONEY = TOOK_MONEY_STATUSES as readonly string[];

/**
 * One-time lines of reminded products due now and not decided yet, by order: for each distinct day
 * count, the orders paid between `days + catchUpDays` and `days` ago (a range of orders_paid_at_idx).
 */
async function dueLines(db: Kysely<Database>, now: Date, limit: number): Promise<{ byOrder: Map<string, string[]>; more: boolean }> {
  // The reminded products (a partial index), by day count.
  const products = await db
    .selectFrom('products')
    .select(['id', 'reorder_after_days as days'])
    .where('reorder_after_days', 'is not', null)
    .execute();
  const byDays = new Map<number, string[]>();
  for (const p of products) if (p.days !== null) byDays.set(p.days, [...(byDays.get(p.days) ?? []), p.id]);
  const byOrder = new Map<string, string[]>();
  let more = false;
  /** Orders a full batch ended inside: their lines past the limit would be decided, and e-mailed, on their own. */
  const cut = new Set<string>();
  for (const [days, ids] of byDays) {
    const to = iso(new Date(now.getTime() - days * DAY_MS));
    const from = iso(new Date(now.getTime() - (days + REORDER_LIMITS.catchUpDays) * DAY_MS));
    // CROSS JOIN: SQLite walks the orders by paid_at first, never a product's whole history of lines.
    const rows = await db
      .selectFrom('orders as o')
      .crossJoin('order_items as i')
      .select(['o.id as order_id', 'i.product_id'])
      .distinct()
      .whereRef('i.order_id', '=', 'o.id')
      .where('o.paid_at', '>=', from)
      .where('o.paid_at', '<=', to)
      // Only paid orders have paid_at (refunded ones keep it): decideOrder checks the status, and the
      // range stays on orders_paid_at_idx (an equality on payment_status would tempt SQLite away).
      .where('i.product_id', 'in', ids)
      .where('i.every_weeks', 'is', null)
      .where('i.is_free_gift', '=', 0)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('reorder_reminders as r')
              .select('r.id')
              .whereRef('r.order_id', '=', 'o.id')
              .whereRef('r.product_id', '=', 'i.product_id'),
          ),
        ),
      )
      .orderBy('o.id')
      .orderBy('i.product_id')
      .limit(limit)
      .execute();
    if (rows.length >= limit) {
      more = true;
      // The last order may have lines past the limit: left whole to the next turn (unless it is the batch's only order).
      const last = rows[rows.length - 1]!.order_id;
      if (rows[0]!.order_id !== last) cut.add(last);
    }
    for (const r of rows) {
      const list = byOrder.get(r.order_id) ?? [];
      if (!list.includes(r.product_id)) list.push(r.product_id);
      byOrder.set(r.order_id, list);
    }
  }
  for (const orderId of cut) byOrder.delete(orderId);
  return { byOrder, more };
}

/** A picture an e-mail can show: an absolute address, the 320-pixel copy of an uploaded photo. */
function emailImage(publicUrl: string, src: string | null): string {
  if (!src) return '';
  if (/^https?:\/\//i.test(src)) return src;
  if (!src.startsWith('/')) return '';
  return `${publicUrl}${imageVariants(src) ? imageVariantPath(src, 320) : src}`;
}

/**
 * The order's one-time lines of these products as they would go back in the cart now (today's price,
 * whether a unit can be bought), each with its subscribe-and-save discount when its variant has a plan.
 */
export async function reorderLines(
  db: Kysely<Database>,
  orderId: string,
  productIds: readonly string[],
  now: Date,
): Promise<ReorderLine[]> {
  const lines = (await recoveryLines(db, orderId, now)).filter((l) => l.everyWeeks === null && productIds.includes(l.productId));
  const plans = await plansForVariants(
    db,
    lines.map((l) => ({ productId: l.productId, variantId: l.variantId })),
  );
  return lines.map((l) => ({
    productId: l.productId,
    variantId: l.variantId,
    name: l.name,
    variantLabel: l.variantLabel,
    image: l.image,
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
    available: l.available,
    inventory: l.inventory,
    size: l.size,
    color: l.color,
    subscribePercent: planView(plans.get(l.variantId))?.discountPercent ?? null,
  }));
}

type OrderRow = {
  id: string;
  email: string | null;
  user_id: string | null;
  created_at: string;
  paid_at: string | null;
  status: string;
  payment_status: string;
  total_cents: number;
  refunded_cents: number;
};

/** The products among these the customer ordered again since the order (paid), by the same address or account. */
async function orderedAgain(trx: Kysely<Database>, order: OrderRow, email: string, productIds: string[], now: Date): Promise<Set<string>> {
  // CROSS JOIN: the address's (or account's) orders since first (orders_email_lower_idx, orders_user_created_idx), then their lines.
  const rows = await trx
    .selectFrom('orders as o')
    .crossJoin('order_items as i')
    .select('i.product_id')
    .distinct()
    .whereRef('i.order_id', '=', 'o.id')
    .where('o.created_at', '>', order.created_at)
    .where('o.created_at', '<=', iso(now))
    .where('o.id', '!=', order.id)
    .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
    .where('i.product_id', 'in', productIds)
    .where((eb) => {
      const byEmail = eb(sql<string>`lower(o.email)`, '=', email);
      return order.user_id ? eb.or([byEmail, eb('o.user_id', '=', order.user_id)]) : byEmail;
    })
    .execute();
  return new Set(rows.map((r) => r.product_id));
}

/** The products among these in a subscription of the customer's that is not cancelled (the order's account, or the account of its address). */
async function subscribedTo(trx: Kysely<Database>, order: OrderRow, email: string, productIds: string[]): Promise<Set<string>> {
  const account = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  const users = [...new Set([order.user_id, account?.id].filter((u): u is string => !!u && u !== 'guest'))];
  if (!users.length) return new Set();
  const rows = await trx
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_items as si', 'si.subscription_id', 's.id')
    .select('si.product_id')
    .distinct()
    .where('s.user_id', 'in', users)
    .where('s.status', '!=', 'cancelled')
    .where('si.product_id', 'in', productIds)
    .execute();
  return new Set(rows.map((r) => r.product_id));
}

/** Why nothing may go to this address at all, or null. */
async function addressReason(trx: Kysely<Database>, email: string): Promise<ReorderSkipReason | null> {
  const [consent, out] = await Promise.all([
    trx.selectFrom('marketing_consents').select('status').where('email', '=', email).executeTakeFirst(),
    trx
      .selectFrom('email_opt_outs')
      .select('email')
      .where('email', '=', email)
      .where('kind', '=', MARKETING_OPT_OUT_KIND)
      .executeTakeFirst(),
  ]);
  if (out) return 'opted-out';
  if (consent?.status !== 'granted') return 'no-consent';
  return null;
}

/** Greets by the order's shipping name, else "there". */
function greetingOf(shippingAddress: string | null): string {
  const address = parseJson<{ name?: unknown } | null>(shippingAddress, null);
  const first = (typeof address?.name === 'string' ? address.name.trim() : '').split(/\s+/)[0];
  return first || 'there';
}

/** "March 14, 2026" */
function dayText(at: string): string {
  return new Date(at).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/**
 * Decides an order's due lines, in one transaction: their rows first (the claim), then each skipped
 * with its reason, or the lines that may go e-mailed together with the rows moved to 'sent'.
 */
export async function decideOrder(deps: ReorderReminderDeps, orderId: string, productIds: string[], now: Date): Promise<ReorderOutcome> {
  const { db } = deps;
  const products = [...new Set(productIds)].sort();
  const batchId = newId('rrb');
  // Made before the transaction: its key is read (the first time, written) outside it.
  const token = await reorderToken(db, batchId);
  const ids = new Map(products.map((p) => [p, newId('rrm')]));
  return transactionWithRetry(db, async (trx) => {
    const order = await trx
      .selectFrom('orders')
      .select([
        'id',
        'email',
        'user_id',
        'created_at',
        'paid_at',
        'status',
        'payment_status',
        'total_cents',
        'refunded_cents',
        'order_number',
        'shipping_address',
      ])
      .where('id', '=', orderId)
      .executeTakeFirst();
    if (!order || !order.paid_at || !TOOK_MONEY.includes(order.payment_status)) return 'gone';
    const lines = await trx
      .selectFrom('order_items as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.product_id', 'i.variant_id', 'p.status', 'p.reorder_after_days'])
      .where('i.order_id', '=', orderId)
      .where('i.product_id', 'in', products)
      .where('i.every_weeks', 'is', null)
      .where('i.is_free_gift', '=', 0)
      .orderBy('i.id')
      .execute();
    const due = products.filter((p) => lines.some((l) => l.product_id === p && l.reorder_after_days !== null));
    if (!due.length) return 'gone';
    const at = iso(now);
    const email = order.email ? normal(order.email) : '';
    const rowOf = (productId: string): ReorderRemindersTable => {
      const line = lines.find((l) => l.product_id === productId)!;
      return {
        id: ids.get(productId)!,
        order_id: order.id,
        product_id: productId,
        variant_id: line.variant_id,
        email,
        user_id: order.user_id,
        batch_id: batchId,
        state: 'skipped',
        reason: null,
        due_at: iso(new Date(Date.parse(order.paid_at!) + Number(line.reorder_after_days) * DAY_MS)),
        mail_id: null,
        follow_until: iso(new Date(now.getTime() + REORDER_LIMITS.linkDays * DAY_MS)),
        clicked_at: null,
        created_at: at,
      };
    };
    // The claim: of two processes, one inserts each row (the other waits for it, then inserts none).
    const claimed = (
      await trx
        .insertInto('reorder_reminders')
        .values(due.map(rowOf))
        .onConflict((oc) => oc.columns(['order_id', 'product_id']).doNothing())
        .returning('product_id')
        .execute()
    ).map((r) => r.product_id);
    if (!claimed.length) return 'taken';

    const reasons = new Map<string, ReorderSkipReason>();
    const skipAll = (reason: ReorderSkipReason) => claimed.forEach((p) => reasons.has(p) || reasons.set(p, reason));
    if (!email) skipAll('no-email');
    else if (order.status === 'cancelled') skipAll('order-cancelled');
    else if (order.payment_status === 'refunded' || Number(order.refunded_cents) >= Number(order.total_cents)) skipAll('order-refunded');
    else {
      for (const l of lines) if (claimed.includes(l.product_id) && l.status !== 'active') reasons.set(l.product_id, 'product-unavailable');
      const open = () => claimed.filter((p) => !reasons.has(p));
      if (open().length) for (const p of await orderedAgain(trx, order, email, open(), now)) reasons.set(p, 'reordered');
      if (open().length) for (const p of await subscribedTo(trx, order, email, open())) reasons.set(p, 'subscribed');
      if (open().length) {
        const whyNot = await addressReason(trx, email);
        if (whyNot) skipAll(whyNot);
      }
    }
    let toSend = claimed.filter((p) => !reasons.has(p));
    const items = toSend.length ? await reorderLines(trx, order.id, toSend, now) : [];
    for (const p of toSend) if (!items.some((l) => l.productId === p && l.available)) reasons.set(p, 'sold-out');
    toSend = claimed.filter((p) => !reasons.has(p));
    const footer = toSend.length ? await marketingFooter(trx, deps.publicUrl, email) : null;
    if (toSend.length && !footer) skipAll('no-postal-address');

    const writes: PendingWrite[] = [];
    // Skipped rows: one update per reason.
    for (const reason of new Set(reasons.values())) {
      const of = claimed.filter((p) => reasons.get(p) === reason);
      writes.push(trx.updateTable('reorder_reminders').set({ reason }).where('order_id', '=', order.id).where('product_id', 'in', of));
    }
    const sending = claimed.filter((p) => !reasons.has(p));
    if (!sending.length || !footer) {
      await writeTogether(trx, writes);
      return 'skipped';
    }
    const shown = items.filter((l) => sending.includes(l.productId) && l.available);
    const mail = await emailWrites(trx, {
      to: email,
      templateId: 'reorder-reminder',
      variables: {
        customerName: greetingOf(order.shipping_address),
        orderNumber: order.order_number,
        orderDate: dayText(order.paid_at),
        reorderUrl: `${deps.publicUrl}/reorder?token=${encodeURIComponent(token)}`,
        reorderLines: shown.map((l) => ({
          name: l.name,
          variant: l.variantLabel,
          quantity: String(l.quantity),
          price: formatCents(l.unitPriceCents * l.quantity),
          image: emailImage(deps.publicUrl, l.image),
          subscribeUrl:
            l.subscribePercent === null
              ? ''
              : `${deps.publicUrl}/products/${encodeURIComponent(l.productId)}?variant=${encodeURIComponent(l.variantId)}`,
          subscribePercent: l.subscribePercent === null ? '' : String(l.subscribePercent),
        })),
        reorderTotal: formatCents(shown.reduce((n, l) => n + l.unitPriceCents * l.quantity, 0)),
        reorderLinkDays: String(REORDER_LIMITS.linkDays),
        ...footer.variables,
      },
      listUnsubscribe: footer.listUnsubscribe,
    });
    writes.push(
      ...mail.writes,
      trx
        .updateTable('reorder_reminders')
        .set({ state: 'sent', reason: null, mail_id: mail.queued.id })
        .where('order_id', '=', order.id)
        .where('product_id', 'in', sending),
    );
    await writeTogether(trx, writes);
    return 'sent';
  });
}

/** One pass at `now`: every order with lines due decided. `more` when a batch was full (the caller runs again soon). */
export async function runReorderReminders(
  deps: ReorderReminderDeps,
  now: Date,
  limit = REORDER_LINES_PER_TURN,
): Promise<{ sent: number; skipped: number; more: boolean }> {
  const { byOrder, more } = await dueLines(deps.db, now, limit);
  let sent = 0;
  let skipped = 0;
  for (const [orderId, productIds] of byOrder) {
    const outcome = await decideOrder(deps, orderId, productIds, now);
    if (outcome === 'sent') sent++;
    else if (outcome === 'skipped') skipped++;
  }
  return { sent, skipped, more };
}

/** The pass on its own timer, in every process (main.ts), as checkout recovery's is. */
export function startReorderReminderWorker(
  deps: ReorderReminderDeps,
  { intervalMs, clock = () => new Date() }: { intervalMs: number; clock?: () => Date },
): { stop: () => Promise<void> } {
  return startIntervalWorker({ intervalMs, log: deps.log }, [
    { run: async () => (await runReorderReminders(deps, clock())).more, failed: 'reorder reminder turn failed' },
  ]);
}
