import { NoResultError, sql, type Kysely, type Selectable, type SelectQueryNode } from 'kysely';
import type { CouponsTable, Database, OrderItemsTable, OrdersTable, PaymentSessionsTable, UsersTable } from '../../db/schema.js';
import type { Dialect } from '../../db/database.js';
import { forUpdate } from '../../db/locks.js';
import { compiledOnce } from '../../db/compiled-once.js';
import { HttpError } from '../../http/errors.js';
import { lockCoupon } from '../../coupons/service.js';
import { deliveryFromPlacedData } from '../../orders/delivery-choice.js';
import type { OrderDelivery } from '../../../shared/schemas/orders.js';

/** Everything fulfilment reads and writes, locked. */
export type LockedOrderRows = {
  order: Selectable<OrdersTable>;
  session: Selectable<PaymentSessionsTable>;
  /** The order's lines, by product id. */
  items: Selectable<OrderItemsTable>[];
  /** The distinct product ids of the lines, sorted. */
  productIds: string[];
  coupon: Selectable<CouponsTable> | undefined;
  /** The signed-up customer, locked; undefined for a guest (or an account since erased). */
  user: Selectable<UsersTable> | undefined;
  /** The shipping method and estimate chosen at checkout (kept on the order's `placed` event), or null. */
  delivery: OrderDelivery | null;
  /**
   * Whether the order's address has checkout recoveries (marketing/close-recoveries.ts), read in the
   * same statement: a payment settles them only then (most addresses have none: two statements saved).
   * Absent: not known, settled.
   */
  recoveries?: boolean;
};

type LockOrderRowsResult = { alreadyPaid: true; orderId: string } | { alreadyPaid: false; rows: LockedOrderRows };

/** The order as seen and its lines: one statement (a row per line), built once (db/compiled-once.ts). */
const orderAsSeen = compiledOnce((trx, v: { sessionId: string }) =>
  trx
    .selectFrom('payment_sessions as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .leftJoin('order_items as i', 'i.order_id', 'o.id')
    .select(['o.id as seen_order_id', 'o.coupon_code as seen_coupon_code', 's.status as seen_session_status'])
    // The delivery chosen at checkout, for the confirmation: in this statement, not a read of its own.
    .select((eb) =>
      eb
        .selectFrom('order_events as pe')
        .select('pe.data')
        .whereRef('pe.order_id', '=', 'o.id')
        .where('pe.type', '=', 'placed')
        .limit(1)
        .as('seen_placed_data'),
    )
    // Whether this address has checkout recoveries to settle (checkout_recoveries_email_idx), as settleRecoveriesWrites normalises it.
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('checkout_recoveries as cr')
            .select('cr.id')
            .where(sql<boolean>`cr.email = lower(trim(o.email))`),
        )
        .as('seen_recoveries'),
    )
    .selectAll('i')
    .where('s.id', '=', v.sessionId)
    .orderBy('i.product_id')
    .orderBy('i.variant_id')
    .orderBy('i.id'),
);

/**
 * Reads what the session's order involves without locks (an order's lines and coupon never change
 * after checkout), then locks its rows in the shop's one lock order: the coupon, the order, the
 * payment session, the user (docs/decisions/0005). The stock is not locked here: the payment takes
 * it last, with one conditional update per item (takeStock; decision 0023). A session that took its
 * payment already (a repeated webhook, a reload of the card page) is answered as such, before any
 * lock and again once the order is locked. Whether this payment may be taken for the order at all
 * (paid another way, cancelled, the session ended or replaced, the total changed) is for the caller
 * to check on the locked rows (check-payment.ts). 404 for an unknown session.
 */
export async function lockOrderRows(trx: Kysely<Database>, dialect: Dialect, sessionId: string): Promise<LockOrderRowsResult> {
  // The order as seen and its lines: one statement (a row per line).
  const seen = (await trx.executeQuery(orderAsSeen(trx, { sessionId }))).rows;
  const first = seen[0];
  if (!first) throw new HttpError(404, 'Payment session not found');
  const orderSeen = { id: first.seen_order_id, coupon_code: first.seen_coupon_code };
  if (first.seen_session_status === 'complete') return { alreadyPaid: true, orderId: orderSeen.id };
  const items: Selectable<OrderItemsTable>[] = seen
    .filter((r) => r.id !== null)
    .map(
      ({ seen_order_id: _o, seen_coupon_code: _c, seen_session_status: _p, seen_placed_data: _d, seen_recoveries: _r, ...item }) =>
        item as Selectable<OrderItemsTable>,
    );
  const delivery = deliveryFromPlacedData(first.seen_placed_data ?? null);
  const productIds = [...new Set(items.map((i) => i.product_id))].sort();
  const coupon = orderSeen.coupon_code ? await lockCoupon(trx, dialect, orderSeen.coupon_code) : undefined;
  const { order, session } = await lockOrderAndSession(trx, dialect, orderSeen.id, sessionId);
  if (session.status === 'complete') return { alreadyPaid: true, orderId: order.id };
  const user = order.user_id
    ? await forUpdate(trx.selectFrom('users').selectAll().where('id', '=', order.user_id), dialect).executeTakeFirst()
    : undefined;
  const recoveries = Boolean(first.seen_recoveries);
  return { alreadyPaid: false, rows: { order, session, items, productIds, coupon, user, delivery, recoveries } };
}

/** The order's row and its session's in one statement, built once (db/compiled-once.ts). */
const orderAndSession = (trx: Kysely<Database>, v: { orderId: string; sessionId: string }) =>
  trx
    .selectFrom('orders as o')
    .innerJoin('payment_sessions as s', (j) => j.on('s.id', '=', v.sessionId))
    .selectAll('o')
    .select([
      's.id as session_id',
      's.order_id as session_order_id',
      's.provider as session_provider',
      's.status as session_status',
      's.amount_cents as session_amount_cents',
      's.url as session_url',
      's.created_at as session_created_at',
      's.expires_at as session_expires_at',
      's.completed_at as session_completed_at',
      's.close_due as session_close_due',
    ])
    .where('o.id', '=', v.orderId);
/** PostgreSQL: locked (orders first, as FROM names them). SQLite: the transaction holds the database already. */
const orderAndSessionLocked = {
  postgres: compiledOnce((trx, v: { orderId: string; sessionId: string }) => orderAndSession(trx, v).forUpdate()),
  sqlite: compiledOnce(orderAndSession),
};

/**
 * The order's row and its session's, in one statement: locked (FOR UPDATE) on PostgreSQL, in the
 * order its FROM names them (orders first: the lock order holds).
 */
async function lockOrderAndSession(
  trx: Kysely<Database>,
  dialect: Dialect,
  orderId: string,
  sessionId: string,
): Promise<{ order: Selectable<OrdersTable>; session: Selectable<PaymentSessionsTable> }> {
  const statement = orderAndSessionLocked[dialect === 'postgres' ? 'postgres' : 'sqlite'](trx, { orderId, sessionId });
  const [row] = (await trx.executeQuery(statement)).rows;
  if (!row) throw new NoResultError(statement.query as SelectQueryNode);
  const {
    session_id,
    session_order_id,
    session_provider,
    session_status,
    session_amount_cents,
    session_url,
    session_created_at,
    session_expires_at,
    session_completed_at,
    session_close_due,
    ...order
  } = row;
  return {
    order,
    session: {
      id: session_id,
      order_id: session_order_id,
      provider: session_provider,
      status: session_status,
      amount_cents: session_amount_cents,
      url: session_url,
      created_at: session_created_at,
      expires_at: session_expires_at,
      completed_at: session_completed_at,
      close_due: session_close_due,
    },
  };
}
