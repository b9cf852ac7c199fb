import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { ORDER_STATUSES } from '../../shared/schemas/orders.js';
import { addDays, daysInPeriod, type PeriodRange } from '../../shared/shop-time.js';
import type { OverviewMoneyView, ProductSalesView } from '../../shared/schemas/orders.js';
import { TOOK_MONEY_STATUSES } from './money-taken.js';
import { inPeriodSql, shopDaySql } from './shop-calendar.js';
import { unitsBackForOrders } from '../inventory/order-stock.js';
import { placedSql } from './placed.js';

type VariantSales = ProductSalesView['variants'][number];
type ProductSales = ProductSalesView;

type OrdersOverview = {
  /** The period, in the shop's days and time zone. */
  from: string;
  to: string;
  timeZone: string;
  days: { date: string; orders: number; revenueCents: number }[];
  byStatus: { status: OrdersTable['status']; count: number }[];
  totals: { orders: number; revenueCents: number };
  money: OverviewMoneyView;
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
 * Orders are counted on the day they were placed. Revenue is money received net of refunds
 * (orders/money-taken.ts, the rule every figure uses), each amount on the day it moved (decision
 * 0046): a payment on the day it was taken, a refund on the day it was made. So a refund next month
 * lowers next month's revenue and never changes a figure already reported. An order the owner typed
 * in and has not been paid for counts as an order but brings in no money; a cancelled one keeps
 * what was not refunded. Over all time the sum is the same as every order's net received.
 *
 * Every query reads only the period's rows (a range on orders_created_at_idx, orders_paid_at_idx
 * and refunds_settled_idx, then the lines of those orders by order_items_order_idx), never the
 * whole history.
 */
export async function ordersOverview(db: Kysely<Database>, period: PeriodRange, timeZone: string): Promise<OrdersOverview> {
  const day = shopDaySql(db, period, timeZone);
  const [rows, money, products] = await Promise.all([
    db
      .selectFrom('orders')
      .select([day.as('day'), 'status', sql<number | string>`count(*)`.as('orders')])
      .where(inPeriodSql(period))
      .where(placedSql())
      .groupBy([day, 'status'])
      .execute(),
    moneyByDay(db, period, timeZone),
    salesByProduct(db, period),
  ]);

  const perDay = new Map<string, { orders: number; revenueCents: number }>();
  const perStatus = new Map<OrdersTable['status'], number>();
  for (const r of rows) {
    const orders = Number(r.orders);
    const d = perDay.get(r.day) ?? { orders: 0, revenueCents: 0 };
    d.orders += orders;
    perDay.set(r.day, d);
    perStatus.set(r.status, (perStatus.get(r.status) ?? 0) + orders);
  }
  for (const [date, cents] of money.revenueByDay) {
    const d = perDay.get(date) ?? { orders: 0, revenueCents: 0 };
    d.revenueCents += cents;
    perDay.set(date, d);
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
    money: money.totals,
    products,
  };
}

/**
 * The period's money by the shop's day it moved: payments taken (by `paid_at`; an older paid row
 * without one, by its order's day) and refunds made (a succeeded refund by `settled_at`, when the
 * provider gave the money back). An order's refunded amount that no refund row accounts for (rows
 * marked refunded before refunds were recorded one by one) is taken off on its payment's day.
 * `scope`, when given, counts only the orders it holds true of (a condition on the `orders` row of
 * the alias it is handed): the subscriptions' Figures count their renewals and first orders so.
 */
export async function moneyByDay(
  db: Kysely<Database>,
  period: PeriodRange,
  timeZone: string,
  scope?: (orderAlias: string) => RawBuilder<SqlBool>,
): Promise<{ revenueByDay: Map<string, number>; totals: OverviewMoneyView }> {
  const refundRows = sql<
    number | string
  >`(select coalesce(sum(r.amount_cents), 0) from refunds r where r.order_id = o.id and r.status = 'succeeded')`;
  const payments = (column: 'paid_at' | 'created_at') => {
    const payDay = shopDaySql(db, period, timeZone, 'o', column);
    let q = db
      .selectFrom('orders as o')
      .select([
        payDay.as('day'),
        sql<number | string>`sum(o.total_cents)`.as('taken'),
        // Only an order with money refunded can have some no refund row accounts for: the others skip the look-up.
        sql<number | string>`sum(case when o.refunded_cents = 0 then 0 else o.refunded_cents - ${refundRows} end)`.as('unrecorded'),
        sql<number | string>`sum(o.subtotal_cents)`.as('subtotal'),
        sql<number | string>`sum(o.discount_cents)`.as('discount'),
        sql<number | string>`sum(o.shipping_cents)`.as('shipping'),
        sql<number | string>`sum(o.tax_cents)`.as('tax'),
      ])
      .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
      .where(inPeriodSql(period, 'o', column));
    if (column === 'created_at') q = q.where('o.paid_at', 'is', null);
    if (scope) q = q.where(scope('o'));
    return q.groupBy(payDay).execute();
  };
  const refundDay = shopDaySql(db, period, timeZone, 'r', 'settled_at');
  const [paidRows, legacyRows, refundedRows] = await Promise.all([
    payments('paid_at'),
    payments('created_at'),
    db
      .selectFrom('refunds as r')
      .select([refundDay.as('day'), sql<number | string>`sum(r.amount_cents)`.as('refunded')])
      .where('r.status', '=', 'succeeded')
      .where(inPeriodSql(period, 'r', 'settled_at'))
      .$if(scope !== undefined, (q) => q.where(sql<SqlBool>`exists (select 1 from orders so where so.id = r.order_id and ${scope!('so')})`))
      .groupBy(refundDay)
      .execute(),
  ]);
  const revenueByDay = new Map<string, number>();
  const add = (day: string, cents: number) => revenueByDay.set(day, (revenueByDay.get(day) ?? 0) + cents);
  const totals: OverviewMoneyView = { takenCents: 0, refundedCents: 0, subtotalCents: 0, discountCents: 0, shippingCents: 0, taxCents: 0 };
  for (const r of [...paidRows, ...legacyRows]) {
    const taken = Number(r.taken);
    const unrecorded = Math.max(0, Number(r.unrecorded));
    add(r.day, taken - unrecorded);
    totals.takenCents += taken;
    totals.refundedCents += unrecorded;
    totals.subtotalCents += Number(r.subtotal);
    totals.discountCents += Number(r.discount);
    totals.shippingCents += Number(r.shipping);
    totals.taxCents += Number(r.tax);
  }
  for (const r of refundedRows) {
    add(r.day, -Number(r.refunded));
    totals.refundedCents += Number(r.refunded);
  }
  return { revenueByDay, totals };
}

/** Units by (order, variant): the key of the maps below. */
const orderVariant = (orderId: string, variantId: string) => `${orderId}\u0000${variantId}`;

/**
 * Units sold and net sales per product, and per variant of each, over the period's orders that
 * took money (money-taken.ts): each line at the price it sold for, less the units the stock
 * ledger took back for the order (returned on a refund or a cancel, net of any taken again when
 * it was reopened), valued at that order's price of the variant. So the report's units are the
 * ledger's sold less returned, by product and by variant. A refund of an amount alone, and the
 * order's discount, shipping and tax, belong to no product: the overview's revenue has them.
 */
async function salesByProduct(db: Kysely<Database>, period: PeriodRange): Promise<ProductSales[]> {
  const variantOf = sql<string>`coalesce(i.variant_id, 'var_' || i.product_id)`;
  const [sold, returned] = await Promise.all([
    db
      .selectFrom('orders as o')
      .innerJoin('order_items as i', 'i.order_id', 'o.id')
      .select([
        'i.product_id',
        variantOf.as('variant_id'),
        sql<string>`max(i.product_name)`.as('name'),
        sql<string>`max(i.variant_label)`.as('label'),
        sql<number | string>`sum(i.quantity)`.as('units'),
        sql<number | string>`sum(i.quantity * i.price_cents)`.as('cents'),
      ])
      .where(inPeriodSql(period, 'o'))
      .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
      .groupBy(['i.product_id', variantOf])
      .execute(),
    // Units come back only with a cancel or a refund; a reopening takes back what a cancel returned
    // (net nothing). So only the period's orders cancelled or refunded are asked of the ledger.
    db
      .selectFrom('orders as o')
      .select('o.id')
      .where(inPeriodSql(period, 'o'))
      .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
      .where((eb) =>
        eb.or([
          eb('o.status', '=', 'cancelled'),
          eb('o.restocked_at', 'is not', null),
          eb.exists(eb.selectFrom('refunds as r').select('r.id').whereRef('r.order_id', '=', 'o.id')),
        ]),
      )
      .execute()
      .then((rows) =>
        unitsBackForOrders(
          db,
          rows.map((r) => r.id),
        ),
      ),
  ]);

  const byProduct = new Map<string, ProductSales>();
  const byVariant = new Map<string, VariantSales>();
  for (const s of sold) {
    const variant = { variantId: s.variant_id, label: s.label ?? '', units: Number(s.units), netSalesCents: Number(s.cents) };
    byVariant.set(s.variant_id, variant);
    const product = byProduct.get(s.product_id) ?? { productId: s.product_id, name: s.name, units: 0, netSalesCents: 0, variants: [] };
    product.variants.push(variant);
    byProduct.set(s.product_id, product);
  }
  const back = new Map<string, number>();
  for (const r of returned) if (r.units !== 0) back.set(orderVariant(r.orderId, r.variantId), r.units);
  const orderIds = [...new Set(returned.map((r) => r.orderId))];
  for (let i = 0; i < orderIds.length && back.size > 0; i += 1000) {
    // What each returned unit sold for in its own order (the average of the order's lines of that variant).
    const prices = await db
      .selectFrom('order_items as i')
      .select([
        'i.order_id',
        variantOf.as('variant_id'),
        sql<number | string>`sum(i.quantity)`.as('units'),
        sql<number | string>`sum(i.quantity * i.price_cents)`.as('cents'),
      ])
      .where('i.order_id', 'in', orderIds.slice(i, i + 1000))
      .groupBy(['i.order_id', variantOf])
      .execute();
    for (const p of prices) {
      const units = Number(p.units);
      const returnedUnits = Math.max(0, Math.min(back.get(orderVariant(p.order_id, p.variant_id)) ?? 0, units));
      const variant = byVariant.get(p.variant_id);
      if (!variant || returnedUnits === 0) continue;
      variant.units -= returnedUnits;
      variant.netSalesCents -= Math.round((Number(p.cents) * returnedUnits) / units);
    }
  }
  for (const product of byProduct.values()) {
    product.variants.sort((a, b) => b.netSalesCents - a.netSalesCents || b.units - a.units || a.label.localeCompare(b.label));
    product.units = product.variants.reduce((n, v) => n + v.units, 0);
    product.netSalesCents = product.variants.reduce((n, v) => n + v.netSalesCents, 0);
  }
  return [...byProduct.values()].sort((a, b) => b.netSalesCents - a.netSalesCents || b.units - a.units || a.name.localeCompare(b.name));
}
