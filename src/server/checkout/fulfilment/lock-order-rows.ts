import type { Kysely, Selectable } from 'kysely';
import type { CouponsTable, Database, OrderItemsTable, OrdersTable, PaymentSessionsTable, UsersTable } from '../../db/schema.js';
import type { Dialect } from '../../db/database.js';
import { forUpdate } from '../../db/locks.js';
import { HttpError } from '../../http/errors.js';
import { lockCoupon } from '../../coupons/service.js';

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
};

type LockOrderRowsResult = { alreadyPaid: true; orderId: string } | { alreadyPaid: false; rows: LockedOrderRows };

const settled = (paymentStatus: string) => paymentStatus === 'paid' || paymentStatus === 'refunded';

/**
 * Reads what the session's order involves without locks (an order's lines and coupon never change
 * after checkout), then locks its rows in the shop's one lock order: the coupon, the order, the
 * payment session, the user (docs/decisions/0005). The stock is not locked here: the payment takes
 * it last, with one conditional update per item (takeStock; decision 0023). An order that is paid already
 * (refunded ones too: a late or repeated webhook must not take the stock again) is answered as
 * such, before any lock and again once the order is locked. 404 for an unknown session.
 */
export async function lockOrderRows(trx: Kysely<Database>, dialect: Dialect, sessionId: string): Promise<LockOrderRowsResult> {
  const orderSeen = await trx
    .selectFrom('payment_sessions as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .select(['o.id', 'o.coupon_code', 'o.payment_status'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  if (!orderSeen) throw new HttpError(404, 'Payment session not found');
  if (settled(orderSeen.payment_status)) return { alreadyPaid: true, orderId: orderSeen.id };
  const items = await trx.selectFrom('order_items').selectAll().where('order_id', '=', orderSeen.id).orderBy('product_id').execute();
  const productIds = [...new Set(items.map((i) => i.product_id))].sort();
  const coupon = orderSeen.coupon_code ? await lockCoupon(trx, dialect, orderSeen.coupon_code) : undefined;
  const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderSeen.id), dialect).executeTakeFirstOrThrow();
  if (settled(order.payment_status)) return { alreadyPaid: true, orderId: order.id };
  const session = await forUpdate(
    trx.selectFrom('payment_sessions').selectAll().where('id', '=', sessionId),
    dialect,
  ).executeTakeFirstOrThrow();
  const user = order.user_id
    ? await forUpdate(trx.selectFrom('users').selectAll().where('id', '=', order.user_id), dialect).executeTakeFirst()
    : undefined;
  return { alreadyPaid: false, rows: { order, session, items, productIds, coupon, user } };
}
