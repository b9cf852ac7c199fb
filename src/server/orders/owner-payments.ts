import { lineTitle } from '../../shared/variants.js';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { queueEmail } from '../email/outbox.js';
import { formatCents } from '../../shared/money.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import {
  OWNER_ORDER_MESSAGES,
  PAYMENT_LINK_TTL_MS,
  PAYMENT_METHOD_NAMES,
  isRecordedPaymentMethod,
  type CorrectPaymentMethodInput,
  type PaymentLinkView,
  type RecordPaymentInput,
} from '../../shared/schemas/owner-orders.js';
import { recordAudit } from '../audit/audit.js';
import { localDateTimeText } from '../../shared/shop-time.js';
import { shopTimeZone } from './shop-calendar.js';
import { awardLoyalty } from './paid/award-loyalty.js';
import { queueConfirmation } from './paid/queue-confirmation.js';
import type { PaymentProviders } from '../payments/provider.js';
import { abandonPaymentSession, adoptHostedPage, openPaymentSessionWrite } from '../payments/sessions.js';
import { testCardPageUrl } from '../payments/test-provider.js';
import { endPaymentSessions } from '../payments/service.js';
import { storedAddressLines } from '../email/order-email-variables.js';
import { parseJson } from '../lib/json.js';
import { emailOnTimeline, recordOrderEvent, type OrderEventActor } from './events.js';
import { tookMoney } from './money-taken.js';
import { awaitsOwnerPayment } from './placed.js';

/*
 * The payment of an order the owner typed in (issue [4/6]). It stays unpaid until the owner records
 * how the money came (cash, bank transfer, card on the phone), or the customer pays a link to the
 * card page. Either way it is paid as a checkout is (money-taken.ts counts it from then on): the
 * confirmation e-mail, the loyalty points, and the timeline. Its units left stock when it was typed
 * in (owner-orders.ts), so a payment takes none.
 */

type OrderRow = Selectable<OrdersTable>;

const dialectOf = (db: Kysely<Database>): Dialect => (isPostgres(db) ? 'postgres' : 'sqlite');

/** The order locked, and refused unless it is an unpaid, not cancelled order the owner typed in. */
async function lockPayableOwnerOrder(trx: Kysely<Database>, dialect: Dialect, orderId: string): Promise<OrderRow> {
  const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
  if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
  if (tookMoney(order)) throw new HttpError(409, OWNER_ORDER_MESSAGES.alreadyPaid);
  // A renewal whose card was declined is paid the same way: by a link the customer is sent.
  if (order.origin !== 'owner' && order.origin !== 'renewal') throw new HttpError(409, OWNER_ORDER_MESSAGES.notOwnerEntered);
  if (order.status === 'cancelled') throw new HttpError(409, OWNER_ORDER_MESSAGES.cancelledNotPayable);
  return order;
}

/**
 * Ends every open payment link of an order the owner typed in (it was paid another way, cancelled,
 * or its total changed, or a new link replaces it): the card page then refuses it. The order's own
 * state is untouched. Call it with the order locked.
 */
export async function expireOwnerPaymentLinks(trx: Kysely<Database>, orderId: string): Promise<void> {
  await endPaymentSessions(trx, orderId);
}

/**
 * The owner took the money themselves. The order becomes paid by that method (a `pending` one
 * `completed`, as a paid checkout, so it joins the pile to ship), an open payment link stops
 * working, the customer earns their points and gets the confirmation e-mail, and the timeline
 * says how and by whom. A second recording, at once or later, answers 409.
 */
export async function recordOwnerPayment(
  db: Kysely<Database>,
  orderId: string,
  input: RecordPaymentInput,
  actor: OrderEventActor,
  publicUrl: string,
): Promise<void> {
  const dialect = dialectOf(db);
  await transactionWithRetry(db, async (trx) => {
    const order = await lockPayableOwnerOrder(trx, dialect, orderId);
    await expireOwnerPaymentLinks(trx, orderId);
    // The order, then its customer: the lock order of a payment (checkout/fulfilment/lock-order-rows.ts).
    const user = order.user_id
      ? await forUpdate(trx.selectFrom('users').selectAll().where('id', '=', order.user_id), dialect).executeTakeFirst()
      : undefined;
    const now = new Date();
    const at = now.toISOString();
    const status = order.status === 'pending' ? 'completed' : order.status;
    await trx
      .updateTable('orders')
      .set({ payment_status: 'paid', payment_provider: input.method, paid_at: at, status, updated_at: at })
      .where('id', '=', orderId)
      .execute();
    const paid: OrderRow = { ...order, payment_status: 'paid', payment_provider: input.method, paid_at: at, status };
    await recordOrderEvent(
      trx,
      orderId,
      'paid',
      actor,
      {
        amountCents: order.total_cents,
        provider: PAYMENT_METHOD_NAMES[input.method],
        method: input.method,
        ...(input.note ? { note: input.note } : {}),
      },
      now,
    );
    await awardLoyalty(trx, { user, order: paid }, now);
    const items = await trx
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('product_id')
      .orderBy('id')
      .execute();
    await queueConfirmation(trx, { order: paid, items }, publicUrl);
  });
}

/**
 * The owner recorded the wrong method (cash for a bank transfer): the method is corrected, nothing
 * else. The amount, the day the money came and everything paid on it stay; the timeline says from
 * what to what and who, and the audit log keeps it. Only for a payment recorded by hand: what a
 * provider took (the card page, Stripe) is the provider's record, and is refused.
 */
export async function correctOwnerPaymentMethod(
  db: Kysely<Database>,
  orderId: string,
  input: CorrectPaymentMethodInput,
  actor: OrderEventActor,
): Promise<void> {
  const dialect = dialectOf(db);
  await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    const from = order.payment_provider;
    if (!isRecordedPaymentMethod(from) || order.paid_at === null) throw new HttpError(409, OWNER_ORDER_MESSAGES.correctNotRecorded);
    if (from === input.method) throw new HttpError(400, OWNER_ORDER_MESSAGES.correctSameMethod(PAYMENT_METHOD_NAMES[from]!));
    const now = new Date();
    await trx
      .updateTable('orders')
      .set({ payment_provider: input.method, updated_at: now.toISOString() })
      .where('id', '=', orderId)
      .execute();
    await recordOrderEvent(
      trx,
      orderId,
      'payment.method_corrected',
      actor,
      { from, to: input.method, amountCents: order.total_cents, ...(input.note ? { note: input.note } : {}) },
      now,
    );
    await recordAudit(trx, {
      by: { actorId: actor.userId, actingAsId: actor.actingAsUserId ?? null },
      action: 'order.payment_method_corrected',
      targetUserId: order.user_id,
      details: { orderId, orderNumber: order.order_number, from, to: input.method },
      at: now,
    });
  });
}

/**
 * E-mails the customer a link to the card page for the order's total as the server has it. The
 * link is a payment session of its own: it takes exactly that amount, once (a paid order's page
 * says so), and ends after PAYMENT_LINK_TTL_MS, or sooner when the order is paid another way,
 * cancelled, its total edited, or a new link is sent. With Stripe configured the page is
 * Stripe's hosted Checkout, else the built-in test card page.
 */
export async function sendPaymentLink(
  db: Kysely<Database>,
  orderId: string,
  actor: OrderEventActor,
  ctx: {
    publicUrl: string;
    payments: PaymentProviders;
    now?: Date;
    /** The e-mail that carries the link, in place of the order's payment-link e-mail (a failed renewal's own, subscriptions/renewals.ts). */
    email?: (trx: Kysely<Database>, link: PaymentLinkView) => Promise<void>;
  },
): Promise<PaymentLinkView> {
  const dialect = dialectOf(db);
  const now = ctx.now ?? new Date();
  const card = ctx.payments.card;
  const localId = card.newSessionId();
  const expiresAt = new Date(now.getTime() + PAYMENT_LINK_TTL_MS);
  const localUrl = testCardPageUrl(ctx.publicUrl, localId);

  const opened = await transactionWithRetry(db, async (trx) => {
    const order = await lockPayableOwnerOrder(trx, dialect, orderId);
    if (order.total_cents <= 0) throw new HttpError(409, OWNER_ORDER_MESSAGES.nothingToPay);
    const user = order.user_id
      ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', order.user_id).executeTakeFirst()
      : undefined;
    const to = order.email ?? user?.email;
    if (!to) throw new HttpError(409, OWNER_ORDER_MESSAGES.noEmailForLink);
    await expireOwnerPaymentLinks(trx, orderId);
    await openPaymentSessionWrite(trx, {
      id: localId,
      orderId,
      provider: card.name,
      amountCents: order.total_cents,
      url: localUrl,
      now,
      expiresAt,
    }).execute();
    await trx.updateTable('orders').set({ payment_session_id: localId }).where('id', '=', orderId).execute();
    const link = { url: localUrl, expiresAt: expiresAt.toISOString(), amountCents: order.total_cents, sentTo: to };
    return { order, user, link };
  });

  // The page exists only once the provider made it (Stripe's, after the commit; the test card page is the session's own):
  // the session takes the provider's id and page, then the e-mail goes.
  let remote: { id: string; url: string };
  try {
    remote = await card.openPayment(db, { orderId, sessionId: localId, expiresAt, link: { idempotencyKey: `paylink-${localId}` } });
  } catch (err) {
    await abandonPaymentSession(db, localId);
    throw err;
  }
  const link = { ...opened.link, url: remote.url };
  await transactionWithRetry(db, async (trx) => {
    if (remote.id !== localId) {
      await adoptHostedPage(trx, localId, remote);
      await trx.updateTable('orders').set({ payment_session_id: remote.id }).where('id', '=', orderId).execute();
    }
    await queueLinkEmail(trx, opened.order, opened.user?.full_name, link, actor, ctx.email);
  });
  return link;
}

async function queueLinkEmail(
  trx: Kysely<Database>,
  order: OrderRow,
  fullName: string | undefined,
  link: PaymentLinkView,
  actor: OrderEventActor,
  email?: (trx: Kysely<Database>, link: PaymentLinkView) => Promise<void>,
): Promise<void> {
  if (email) {
    await email(trx, link);
    await recordOrderEvent(trx, order.id, 'payment.link_sent', actor, {
      to: link.sentTo,
      amountCents: link.amountCents,
      expiresAt: link.expiresAt,
    });
    return;
  }
  const named = parseJson<{ name?: string } | string | null>(order.shipping_address, null);
  const items = await trx
    .selectFrom('order_items')
    .select(['product_name', 'variant_label', 'quantity', 'price_cents'])
    .where('order_id', '=', order.id)
    .orderBy('id')
    .execute();
  await queueEmail(trx, {
    to: link.sentTo,
    order: emailOnTimeline(order.id, actor),
    templateId: 'order-payment-link',
    variables: {
      orderNumber: order.order_number,
      customerName: fullName ?? (named && typeof named === 'object' && named.name ? named.name : 'Customer'),
      total: formatCents(order.total_cents),
      payUrl: link.url,
      expiresAt: shopClockText(link.expiresAt, await shopTimeZone(trx)),
      items: items.map((i) => ({
        name: lineTitle(i.product_name, i.variant_label),
        quantity: i.quantity,
        lineTotal: formatCents(i.price_cents * i.quantity),
      })),
      shippingAddressLines: storedAddressLines(order.shipping_address),
    },
  });
  await recordOrderEvent(trx, order.id, 'payment.link_sent', actor, {
    to: link.sentTo,
    amountCents: link.amountCents,
    expiresAt: link.expiresAt,
  });
}

/**
 * "2026-11-29 14:05 EST": an instant on the shop's clock, named by the zone's short name, as a
 * customer is told when their link ends (the shop's hours read in its own time, never UTC).
 */
export function shopClockText(iso: string, timeZone: string): string {
  const zone = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    .formatToParts(new Date(iso))
    .find((p) => p.type === 'timeZoneName')?.value;
  return `${localDateTimeText(iso, timeZone)}${zone ? ` ${zone}` : ''}`;
}

/** The open payment link of an order the owner typed in, for its detail (null when none). */
export async function openPaymentLink(db: Kysely<Database>, order: Pick<OrderRow, 'id' | 'origin' | 'payment_status'>) {
  if (!awaitsOwnerPayment(order)) return null;
  const s = await db
    .selectFrom('payment_sessions')
    .select(['url', 'expires_at', 'amount_cents'])
    .where('order_id', '=', order.id)
    .where('status', '=', 'open')
    .where('expires_at', '>', new Date().toISOString())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return s ? { url: s.url, expiresAt: s.expires_at, amountCents: s.amount_cents } : null;
}
