import { sql, type Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { ORDER_STATUSES } from '../../shared/schemas/orders.js';
import { addDays, daysInPeriod, type PeriodRange } from '../../shared/shop-time.js';
import type { ReturnLine } from '../../shared/schemas/inventory.js';
import { parseJson } from '../lib/json.js';
import { netReceivedSql, TOOK_MONEY_STATUSES } from './money-taken.js';
import { inPeriodSql, shopDaySql } from './shop-calendar.js';

type ProductSales = { productId: string; name: string; units: number; netSalesCents: number };

type OrdersOverview = {
  /** The period, in the shop's days and time zone. */
  from: string;
  to: string;
  timeZone: string;
  days: { date: string; orders: number; revenueCents: number }[];
  byStatus: { status: OrdersTable['status']; count: number }[];
  totals: { orders: number; revenueCents: number };
  products: ProductSales[];
};

/**
 * The orders tab's overview for a period of the shop's days (in its time zone, shop-calendar.ts):
 * orders and revenue per day (oldest first, days without orders filled with zeros), the period's
 * orders by status, and its sales by product.
 *
 * Which orders count: placed ones, as on the dashboard (adminStats) and in My Orders — paid or
 * refunded, or entered by the shop (no payment provider). A checkout that was never paid is an
 * abandoned attempt, not an order, so it counts nowhere here.
 *
 * Revenue: money received net of refunds (orders/money-taken.ts, the rule every figure uses),
 * counted on the order's day. An order the owner typed in and has not been paid for counts as an
 * order but brings in no money; a cancelled one keeps what was not refunded.
 *
 * Every query reads only the period's rows (a range on orders_created_at_idx, then the lines of
 * those orders by order_items_order_idx), never the whole history.
 */
export async function ordersOverview(db: Kysely<Database>, period: PeriodRange, timeZone: string): Promise<OrdersOverview> {
  const day = shopDaySql(db, period, timeZone);
  const [rows, products] = await Promise.all([
    db
      .selectFrom('orders')
      .select([
        day.as('day'),
        'status',
        sql<number | string>`count(*)`.as('orders'),
        sql<number | string | null>`sum(${netReceivedSql()})`.as('revenue'),
      ])
      .where(inPeriodSql(period))
      .where((eb) => eb.or([eb('payment_status', 'in', [...TOOK_MONEY_STATUSES]), eb('payment_provider', 'is', null)]))
      .groupBy([day, 'status'])
      .execute(),
    salesByProduct(db, period),
  ]);

  const perDay = new Map<string, { orders: number; revenueCents: number }>();
  const perStatus = new Map<OrdersTable['status'], number>();
  for (const r of rows) {
    const orders = Number(r.orders);
    const revenueCents = Number(r.revenue ?? 0);
    const d = perDay.get(r.day) ?? { orders: 0, revenueCents: 0 };
    d.orders += orders;
    d.revenueCents += revenueCents;
    perDay.set(r.day, d);
    perStatus.set(r.status, (perStatus.get(r.status) ?? 0) + orders);
  }

  const series = Array.from({ length: daysInPeriod(period.from, period.to) }, (_, i) => {
    const date = addDays(period.from, i);
    return { date, ...(perDay.get(date) ?? { orders: 0, revenueCents: 0 }) };
  });
  return {
    from: period.from,
    to: period.to,
    timeZone,
    days: series,
    // Every status, in the usual order, so the chart's bars and colours never shift.
    byStatus: ORDER_STATUSES.map((status) => ({ status, count: perStatus.get(status) ?? 0 })),
    totals: {
      orders: series.reduce((n, d) => n + d.orders, 0),
      revenueCents: series.reduce((n, d) => n + d.revenueCents, 0),
    },
    products,
  };
}

/**
 * Units sold and net sales per product over the period's orders that took money (money-taken.ts):
 * each line at the price it sold for, less the units its order's refunds gave back (the refund
 * lines the owner chose, valued at that order's price of the product). A refund of an amount
 * alone, and the order's discount, shipping and tax, belong to no product: the overview's revenue
 * has them, this table does not.
 */
async function salesByProduct(db: Kysely<Database>, period: PeriodRange): Promise<ProductSales[]> {
  const [sold, returned] = await Promise.all([
    db
      .selectFrom('orders as o')
      .innerJoin('order_items as i', 'i.order_id', 'o.id')
      .select([
        'i.product_id',
        sql<string>`max(i.product_name)`.as('name'),
        sql<number | string>`sum(i.quantity)`.as('units'),
        sql<number | string>`sum(i.quantity * i.price_cents)`.as('cents'),
      ])
      .where(inPeriodSql(period, 'o'))
      .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
      .groupBy('i.product_id')
      .execute(),
    db
      .selectFrom('orders as o')
      .innerJoin('refunds as r', 'r.order_id', 'o.id')
      .select(['r.order_id', 'r.return_lines'])
      .where(inPeriodSql(period, 'o'))
      .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
      .where('r.status', '=', 'succeeded')
      .where('r.return_lines', 'is not', null)
      .execute(),
  ]);

  const byProduct = new Map(
    sold.map((s) => [s.product_id, { productId: s.product_id, name: s.name, units: Number(s.units), netSalesCents: Number(s.cents) }]),
  );
  if (returned.length > 0) {
    // What each returned unit sold for in its own order (the average of the order's lines of that product).
    const returnedUnits = new Map<string, Map<string, number>>();
    for (const r of returned) {
      const lines = returnedUnits.get(r.order_id) ?? new Map<string, number>();
      for (const l of parseJson<ReturnLine[]>(r.return_lines, [])) lines.set(l.productId, (lines.get(l.productId) ?? 0) + l.quantity);
      returnedUnits.set(r.order_id, lines);
    }
    const orderIds = [...returnedUnits.keys()];
    for (let i = 0; i < orderIds.length; i += 1000) {
      const prices = await db
        .selectFrom('order_items')
        .select([
          'order_id',
          'product_id',
          sql<number | string>`sum(quantity)`.as('units'),
          sql<number | string>`sum(quantity * price_cents)`.as('cents'),
        ])
        .where('order_id', 'in', orderIds.slice(i, i + 1000))
        .groupBy(['order_id', 'product_id'])
        .execute();
      for (const p of prices) {
        const back = Math.min(returnedUnits.get(p.order_id)?.get(p.product_id) ?? 0, Number(p.units));
        const product = byProduct.get(p.product_id);
        if (!product || back === 0) continue;
        product.units -= back;
        product.netSalesCents -= Math.round((Number(p.cents) * back) / Number(p.units));
      }
    }
  }
  return [...byProduct.values()].sort((a, b) => b.netSalesCents - a.netSalesCents || b.units - a.units || a.name.localeCompare(b.name));
}
