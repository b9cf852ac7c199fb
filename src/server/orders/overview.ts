import { sql, type Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { ORDER_STATUSES } from '../../shared/schemas/orders.js';
import { addDays, daysInPeriod, type PeriodRange } from '../../shared/shop-time.js';
import type { ProductSalesView } from '../../shared/schemas/orders.js';
import { netReceivedSql, TOOK_MONEY_STATUSES } from './money-taken.js';
import { inPeriodSql, shopDaySql } from './shop-calendar.js';
import { unitsBackForOrders } from '../inventory/order-stock.js';

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
