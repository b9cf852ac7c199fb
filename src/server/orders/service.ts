import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, OrderItemsTable, OrdersTable } from '../db/schema.js';
import { labelPrintPath, type OrderView } from '../../shared/schemas/orders.js';
import { allowedStatuses, labelRefusal } from './status-rules.js';
import { hasLabelFile } from './label-files.js';
import { parseJson } from '../lib/json.js';
import { isPasswordless } from '../lib/passwordless.js';
import { customerTimeline, customerTimelines } from './events.js';
import { listRefunds } from './refunds.js';
import { paymentStatusOf } from './payment-status.js';
import { netReceivedCents, netReceivedSql, toShipSql } from './money-taken.js';
import { shippingOptionName } from '../shipping/service.js';
import { labelAddressChanged } from './label-address.js';
import { openPaymentLink } from './owner-payments.js';
import { deliveryChoice, deliveryChoices } from './delivery-choice.js';
import { lineTitle, variantOfLine } from '../../shared/variants.js';
import type { LineOption } from '../../shared/line-options.js';
import { orderLineOptions } from '../catalog/line-options.js';
import { isPlaced, placedSql } from './placed.js';
import { isShippableOrder } from '../../shared/schemas/orders.js';

type OrderAccess = { userId: string | null; isAdmin: boolean; deviceHash: string | null };

/** `forAdmin` adds what only the owner sees (a stock shortfall found when the payment arrived). */
function toOrderView(
  order: Selectable<OrdersTable>,
  items: Selectable<OrderItemsTable>[],
  forAdmin = false,
  optionsOf: (line: Selectable<OrderItemsTable>) => LineOption[] = () => [],
): OrderView {
  return {
    id: order.id,
    orderNumber: order.order_number,
    userId: order.user_id ?? 'guest',
    email: order.email,
    status: order.status,
    paymentStatus: paymentStatusOf(order),
    paymentProvider: order.payment_provider,
    createdAt: order.created_at,
    paidAt: order.paid_at,
    shippingAddress: parseJson(order.shipping_address, null),
    items: items.map((i) => ({
      id: i.id,
      productId: i.product_id,
      variantId: variantOfLine(i.product_id, i.variant_id),
      name: lineTitle(i.product_name, i.variant_label),
      productName: i.product_name,
      variantLabel: i.variant_label,
      options: optionsOf(i),
      image: i.product_image,
      sku: i.sku,
      size: i.size,
      color: i.color,
      quantity: i.quantity,
      priceCents: i.price_cents,
      lineTotalCents: i.price_cents * i.quantity,
      isFreeGift: Boolean(i.is_free_gift),
      everyWeeks: i.every_weeks,
      planDiscountPercent: i.plan_discount_percent,
    })),
    subtotalCents: order.subtotal_cents,
    discountCents: order.discount_cents,
    shippingCents: order.shipping_cents,
    taxCents: order.tax_cents,
    totalCents: order.total_cents,
    couponCode: order.coupon_code,
    trackingNumber: order.shipstation_tracking_number,
    carrier: order.shipping_carrier,
    shippedAt: order.shipped_at,
    refundedCents: Number(order.refunded_cents),
    ...(forAdmin
      ? {
          stockShortfall: order.stock_shortfall,
          netCents: netReceivedCents(order),
          restockedAt: order.restocked_at,
        }
      : {}),
  };
}

/** An order, only to its owner: the buyer's account, the browser that placed it as a guest, or an admin. */
async function accountWithoutPassword(db: Kysely<Database>, userId: string): Promise<boolean> {
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return user !== undefined && isPasswordless(user.password_hash);
}

export async function getOrderForViewer(db: Kysely<Database>, orderId: string, who: OrderAccess): Promise<OrderView | null> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!order) return null;
  const placedByThisBrowser = order.guest_token_hash !== null && order.guest_token_hash === who.deviceHash;
  const allowed =
    who.isAdmin ||
    (order.user_id !== null && order.user_id === who.userId) ||
    (order.user_id === null && placedByThisBrowser) ||
    // A guest who subscribed: the order joined the account made for it at payment (issue [4/8]); the
    // browser that placed it still sees it (its confirmation) until that account has a password.
    (order.user_id !== null && placedByThisBrowser && (await accountWithoutPassword(db, order.user_id)));
  if (!allowed) return null;
  const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).orderBy('id').execute();
  const view = toOrderView(order, items, who.isAdmin, await orderLineOptions(db, items));
  if (!who.isAdmin) return { ...view, timeline: await customerTimeline(db, order.id), delivery: await deliveryChoice(db, order.id) };
  return { ...view, refunds: await listRefunds(db, order.id), ...(await adminFigures(db, order)) };
}

/** What the owner's detail adds up: the shipping method's name, what was paid, and the label's state. */
async function adminFigures(
  db: Kysely<Database>,
  order: Selectable<OrdersTable>,
): Promise<
  Pick<
    OrderView,
    | 'shippingMethod'
    | 'paidCents'
    | 'labelState'
    | 'labelAddressChanged'
    | 'paymentLink'
    | 'allowedStatuses'
    | 'origin'
    | 'placed'
    | 'tookStock'
    | 'hasShipped'
    | 'shippable'
    | 'labelRefusal'
    | 'labelPrintUrl'
  >
> {
  const method = order.shipping_option_id ? await shippingOptionName(db, order.shipping_option_id) : undefined;
  const printable = order.label_state === 'bought' && (await hasLabelFile(db, order.id, order.shipstation_data));
  return {
    // What the back office offers comes from the server's one table (status-rules.ts), not re-derived there.
    allowedStatuses: allowedStatuses(order),
    origin: order.origin,
    placed: isPlaced(order),
    // The same rule as the stock side of a status change (order-units.ts): a placed order took its units.
    tookStock: isPlaced(order),
    hasShipped: Boolean(order.shipped_at) || order.status === 'shipped' || order.status === 'delivered',
    shippable: isShippableOrder(order.payment_status, order.origin),
    labelRefusal: labelRefusal(order),
    labelPrintUrl: printable ? labelPrintPath(order.id) : null,
    shippingMethod: method ?? (order.shipping_option_id ? order.shipping_option_id : null),
    paidCents: order.paid_at && order.payment_status !== 'unpaid' ? order.total_cents : 0,
    labelState: order.label_state,
    labelAddressChanged: order.label_state === 'bought' ? await labelAddressChanged(db, order.id) : false,
    paymentLink: await openPaymentLink(db, order),
  };
}

/**
 * Orders a customer sees: paid ones and those the shop created for them; abandoned or declined
 * checkout attempts are not orders to the customer.
 */
function placedOrders(db: Kysely<Database>) {
  return db.selectFrom('orders').where(placedSql());
}

export async function listOrders(
  db: Kysely<Database>,
  who: { userId: string; isAdmin: boolean },
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ items: OrderView[]; page: number; pageSize: number; total: number; totalPages: number }> {
  let base = placedOrders(db);
  if (!who.isAdmin) base = base.where('user_id', '=', who.userId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  const items = rows.length
    ? await db
        .selectFrom('order_items')
        .selectAll()
        .where(
          'order_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('id')
        .execute()
    : [];
  const byOrder = new Map<string, Selectable<OrderItemsTable>[]>();
  for (const i of items) byOrder.set(i.order_id, [...(byOrder.get(i.order_id) ?? []), i]);
  const total = Number(count?.n ?? 0);
  // The customer's receipts show each order's steps (placed, paid, shipped, refunded).
  const ids = rows.map((r) => r.id);
  const [timelines, deliveries] = who.isAdmin ? [null, null] : await Promise.all([customerTimelines(db, ids), deliveryChoices(db, ids)]);
  const optionsOf = await orderLineOptions(db, items);
  return {
    items: rows.map((r) => ({
      ...toOrderView(r, byOrder.get(r.id) ?? [], who.isAdmin, optionsOf),
      ...(timelines ? { timeline: timelines.get(r.id) ?? [] } : {}),
      ...(deliveries ? { delivery: deliveries.get(r.id) ?? null } : {}),
    })),
    page,
    pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/**
 * A customer's order figures, counted by the database. The Shopping Summary (spent, average, items)
 * counts what was really bought: orders paid and not cancelled, each net of what was refunded (a fully
 * refunded order is 'refunded', not 'paid', so it counts nothing). Unpaid, cancelled and owner-entered
 * orders (no payment taken by the shop) are left out; the order counts still show every placed order.
 */
export async function customerOrderStats(db: Kysely<Database>, userId: string) {
  const row = await placedOrders(db)
    .where('user_id', '=', userId)
    .select([
      sql<number | string>`count(*)`.as('total'),
      sql<string | null>`max(created_at)`.as('latest'),
      sql<number | string>`sum(case when status = 'pending' then 1 else 0 end)`.as('pending'),
      sql<number | string>`sum(case when status = 'delivered' then 1 else 0 end)`.as('delivered'),
      sql<number | string>`sum(case when status = 'shipped' then 1 else 0 end)`.as('shipped'),
      sql<number | string>`sum(case when status = 'cancelled' then 1 else 0 end)`.as('cancelled'),
      // Paid and not shipped: the owner's "To ship" (money-taken.ts), the customer's "being prepared".
      sql<number | string>`sum(case when ${toShipSql()} then 1 else 0 end)`.as('preparing'),
      sql<number | string>`sum(case when payment_status = 'paid' and status <> 'cancelled' then 1 else 0 end)`.as('bought'),
      sql<
        number | string
      >`coalesce(sum(case when payment_status = 'paid' and status <> 'cancelled' then total_cents - refunded_cents else 0 end), 0)`.as(
        'spent',
      ),
    ])
    .executeTakeFirst();
  const items = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .where('o.user_id', '=', userId)
    .where('o.payment_status', '=', 'paid')
    .where('o.status', '<>', 'cancelled')
    .select(sql<number | string>`coalesce(sum(i.quantity), 0)`.as('units'))
    .executeTakeFirst();
  const total = Number(row?.total ?? 0);
  const spent = Number(row?.spent ?? 0);
  const bought = Number(row?.bought ?? 0);
  const counts = {
    pending: Number(row?.pending ?? 0),
    preparing: Number(row?.preparing ?? 0),
    shipped: Number(row?.shipped ?? 0),
    delivered: Number(row?.delivered ?? 0),
    cancelled: Number(row?.cancelled ?? 0),
  };
  // What no bucket above takes (an order refunded in full before it shipped, one the owner entered
  // and has not been paid for): counted here, so the buckets always add up to the orders listed.
  const other = total - Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    totalOrders: total,
    latestOrderAt: row?.latest ?? null,
    pendingOrders: counts.pending,
    deliveredOrders: counts.delivered,
    orderCounts: { ...counts, other },
    totalSpentCents: spent,
    averageOrderCents: bought ? Math.round(spent / bought) : 0,
    itemsPurchased: Number(items?.units ?? 0),
  };
}

/** The newest sign-ups, for the dashboard (beside its figures, adminStats). */
export async function recentUsers(db: Kysely<Database>, limit = 5) {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'role', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((u) => ({ id: u.id, email: u.email, fullName: u.full_name, role: u.role, createdAt: u.created_at }));
}

/** The shop at a glance for admins, counted by the database. */
export async function adminStats(db: Kysely<Database>) {
  const orders = await placedOrders(db)
    .select([
      sql<number | string>`count(*)`.as('total'),
      sql<string | null>`max(created_at)`.as('latest'),
      sql<number | string>`sum(case when status = 'pending' then 1 else 0 end)`.as('pending'),
      sql<number | string>`sum(case when status = 'processing' then 1 else 0 end)`.as('processing'),
      sql<number | string>`sum(case when status = 'shipped' then 1 else 0 end)`.as('shipped'),
      sql<number | string>`sum(case when status = 'delivered' then 1 else 0 end)`.as('delivered'),
      sql<number | string>`sum(case when status = 'cancelled' then 1 else 0 end)`.as('cancelled'),
      sql<number | string>`sum(case when status = 'completed' then 1 else 0 end)`.as('completed'),
      sql<number | string>`sum(case when ${toShipSql()} then 1 else 0 end)`.as('toShip'),
      // Money received net of refunds, by the one rule (money-taken.ts).
      sql<number | string>`coalesce(sum(${netReceivedSql()}), 0)`.as('revenue'),
    ])
    .executeTakeFirst();
  const users = await db
    .selectFrom('users')
    .select(sql<number | string>`count(*)`.as('n'))
    .executeTakeFirst();
  const n = (v: unknown) => Number(v ?? 0);
  return {
    totalOrders: n(orders?.total),
    latestOrderAt: orders?.latest ?? null,
    pendingOrders: n(orders?.pending),
    processingOrders: n(orders?.processing),
    shippedOrders: n(orders?.shipped),
    deliveredOrders: n(orders?.delivered),
    cancelledOrders: n(orders?.cancelled),
    completedOrders: n(orders?.completed),
    /** Paid and not yet shipped (completed or processing): the owner's pile. */
    toShipOrders: n(orders?.toShip),
    revenueCents: n(orders?.revenue),
    totalUsers: n(users?.n),
  };
}
