import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { ORDER_STOCK_MESSAGES } from '../../shared/schemas/inventory.js';
import { recordMovement, type LockedStock, type StockActor } from './stock.js';
import { reservedUnits } from './reservations.js';

/*
 * An order's stock (decision 0022): units leave the shelf when it is paid (`sold`), come back when
 * the owner returns some on a refund or cancel (`returned`, only what the owner chose), and leave
 * again if a cancelled order is reopened (`taken`). What an order has out of stock is read from its
 * ledger rows, so a unit can never come back twice nor be taken twice.
 */

/** An order line as the stock sees it. */
export type OrderUnits = { productId: string; name: string; quantity: number };

/**
 * Takes the paid order's units from what other checkouts do not keep (the products locked by
 * lockStock). While the order's own reservation is firm that is always enough. After it lapsed, the
 * units may be gone: then nothing is taken and the answer lists what fell short ("Cloth: 2 ordered,
 * 1 in stock"), for the automatic refund.
 */
export async function takeForOrder(
  trx: Kysely<Database>,
  input: { orderId: string; orderNumber: string; units: OrderUnits[]; stock: Map<string, LockedStock>; now: Date; actor: StockActor },
): Promise<string[]> {
  const { orderId, units, stock, now } = input;
  const wanted = mergeUnits(units);
  const othersKeep = await reservedUnits(trx, [...wanted.keys()], now, orderId);
  const shortfall: string[] = [];
  for (const [productId, u] of wanted) {
    const item = stock.get(productId);
    if (!item) {
      shortfall.push(`${u.name}: ${u.quantity} ordered, product no longer in the catalogue`);
      continue;
    }
    const free = Math.max(0, item.onHand - (othersKeep.get(productId) ?? 0));
    if (free < u.quantity) shortfall.push(`${u.name}: ${u.quantity} ordered, ${free} in stock`);
  }
  if (shortfall.length) return shortfall;
  for (const [productId, u] of wanted) {
    await recordMovement(trx, stock.get(productId)!, {
      kind: 'sold',
      quantity: -u.quantity,
      orderId,
      reference: input.orderNumber,
      actor: input.actor,
      at: now,
    });
  }
  return [];
}

function mergeUnits(units: OrderUnits[]): Map<string, OrderUnits> {
  const merged = new Map<string, OrderUnits>();
  for (const u of units) {
    const prev = merged.get(u.productId);
    if (prev) prev.quantity += u.quantity;
    else merged.set(u.productId, { ...u });
  }
  return merged;
}

/** Per product of the order: the units out of stock for it now, and those returned (net of any taken again). */
export async function orderStockOut(db: Kysely<Database>, orderId: string): Promise<Map<string, { out: number; returned: number }>> {
  const rows = await db
    .selectFrom('stock_movements as m')
    .innerJoin('stock_items as s', 's.id', 'm.stock_item_id')
    .select([
      's.product_id',
      sql<number | string>`sum(m.quantity)`.as('net'),
      sql<number | string>`sum(case when m.kind in ('returned', 'taken') then m.quantity else 0 end)`.as('returned'),
    ])
    .where('m.order_id', '=', orderId)
    .groupBy('s.product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, { out: 0 - Number(r.net) || 0, returned: Number(r.returned) }]));
}

/** Per line of the order (merged by product): ordered, out of stock now, and returned so far. */
export async function orderStockLines(
  db: Kysely<Database>,
  orderId: string,
): Promise<{ productId: string; name: string; ordered: number; out: number; returned: number }[]> {
  const items = await db
    .selectFrom('order_items')
    .select(['product_id', sql<string>`min(product_name)`.as('name'), sql<number | string>`sum(quantity)`.as('quantity')])
    .where('order_id', '=', orderId)
    .groupBy('product_id')
    .orderBy('product_id')
    .execute();
  const out = await orderStockOut(db, orderId);
  return items.map((i) => ({
    productId: i.product_id,
    name: i.name,
    ordered: Number(i.quantity),
    out: out.get(i.product_id)?.out ?? 0,
    returned: out.get(i.product_id)?.returned ?? 0,
  }));
}

/**
 * Returns the chosen units of an order to stock (the products locked by lockStock first), each a
 * `returned` ledger row; never more than the order has out (400 naming the line). Returns what came back.
 */
export async function returnForOrder(
  trx: Kysely<Database>,
  input: {
    orderId: string;
    orderNumber: string;
    lines: { productId: string; quantity: number }[];
    stock: Map<string, LockedStock>;
    actor: StockActor;
    note: string;
    names: Map<string, string>;
  },
): Promise<OrderUnits[]> {
  const out = await orderStockOut(trx, input.orderId);
  const asked = new Map<string, number>();
  for (const l of input.lines) if (l.quantity > 0) asked.set(l.productId, (asked.get(l.productId) ?? 0) + l.quantity);
  for (const [productId, quantity] of asked) {
    if (!input.names.has(productId)) throw new HttpError(400, ORDER_STOCK_MESSAGES.notInOrder);
    const have = out.get(productId)?.out ?? 0;
    if (quantity > have) throw new HttpError(400, ORDER_STOCK_MESSAGES.notOut(input.names.get(productId)!, quantity, Math.max(0, have)));
  }
  const back: OrderUnits[] = [];
  for (const [productId, quantity] of asked) {
    const item = input.stock.get(productId);
    if (!item) continue; // no longer in the catalogue: nowhere to return it
    await recordMovement(trx, item, {
      kind: 'returned',
      quantity,
      orderId: input.orderId,
      reference: input.orderNumber,
      actor: input.actor,
      note: input.note,
    });
    back.push({ productId, name: input.names.get(productId)!, quantity });
  }
  return back;
}

/**
 * A cancelled order is reopened: what was returned for it leaves stock again (`taken`), from what
 * other checkouts do not keep; 409 (`refuse`) naming the first product short.
 */
export async function takeAgainForOrder(
  trx: Kysely<Database>,
  input: {
    orderId: string;
    orderNumber: string;
    stock: Map<string, LockedStock>;
    names: Map<string, string>;
    now: Date;
    actor: StockActor;
    refuse: (name: string, wanted: number, free: number) => string;
  },
): Promise<OrderUnits[]> {
  const out = await orderStockOut(trx, input.orderId);
  const wanted = [...out].filter(([, o]) => o.returned > 0).map(([productId, o]) => ({ productId, quantity: o.returned }));
  if (wanted.length === 0) return [];
  const othersKeep = await reservedUnits(
    trx,
    wanted.map((w) => w.productId),
    input.now,
    input.orderId,
  );
  for (const w of wanted) {
    const item = input.stock.get(w.productId);
    if (!item) continue; // no longer in the catalogue: nothing to take
    const free = Math.max(0, item.onHand - (othersKeep.get(w.productId) ?? 0));
    if (free < w.quantity) throw new HttpError(409, input.refuse(input.names.get(w.productId) ?? w.productId, w.quantity, free));
  }
  const taken: OrderUnits[] = [];
  for (const w of wanted) {
    const item = input.stock.get(w.productId);
    if (!item) continue;
    await recordMovement(trx, item, {
      kind: 'taken',
      quantity: -w.quantity,
      orderId: input.orderId,
      reference: input.orderNumber,
      actor: input.actor,
      note: 'Order reopened',
      at: input.now,
    });
    taken.push({ productId: w.productId, name: input.names.get(w.productId) ?? w.productId, quantity: w.quantity });
  }
  return taken;
}
