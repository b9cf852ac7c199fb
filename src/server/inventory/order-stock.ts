import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { ORDER_STOCK_MESSAGES } from '../../shared/schemas/inventory.js';
import { newMovementId, recordMovement, writeLedgerRow, type LockedStock, type StockActor } from './stock.js';
import { inStockOrder, lineTitle } from '../../shared/variants.js';
import { consumeReservations, endReservations } from './reservations.js';
import { afterLevelChange } from './alerts.js';
import { alertStateSql } from './low-stock.js';
import { writeAtCommit } from '../db/pg-commit-tail.js';
import { compiledOnce } from '../db/compiled-once.js';

/*
 * An order's stock (decision 0022): units leave the shelf when it is paid (`sold`), come back when
 * the owner returns some on a refund or cancel (`returned`, only what the owner chose), and leave
 * again if a cancelled order is reopened (`taken`). What an order has out of stock is read from its
 * ledger rows, so a unit can never come back twice nor be taken twice.
 */

/** An order line as the stock sees it. */
export type OrderUnits = { productId: string; variantId: string; name: string; quantity: number };

/** The merged units in the one order stock rows are written in: by product, then by variant. */
function inOrder(wanted: Map<string, OrderUnits>): OrderUnits[] {
  return [...wanted.values()].sort(inStockOrder);
}

/**
 * Takes the paid order's units, last in the payment's transaction (decision 0023): its reservations
 * go, then for each variant in stock order (product, then variant) its product's shown copy and its stock item move with one conditional
 * update (`on_hand - (reserved - its own counted units) >= ordered`), so the rows are locked only
 * until the commit right after. While the order's reservation is firm the units are always there.
 * After it lapsed they may be gone: then the answer lists what fell short ("Cloth: 2 ordered, 1 in
 * stock") and the caller must roll back (rows were written) and record the shortfall instead
 * (recordShortfall), for the automatic refund.
 */
export async function takeForOrder(
  trx: Kysely<Database>,
  input: {
    orderId: string;
    orderNumber: string;
    units: OrderUnits[];
    now: Date;
    actor: StockActor;
    /**
     * PostgreSQL: each product's take goes with the COMMIT (db/pg-commit-tail.ts), guarded so it
     * holds only when the units are there and the level crosses no alert threshold (then nothing
     * else is written). Otherwise `GuardFailedAtCommit` comes out of the transaction, and the caller
     * runs it again without this, to learn what is short or to send the alert.
     */
    atCommit?: boolean;
  },
): Promise<string[]> {
  const { orderId, now } = input;
  const wanted = mergeUnits(input.units);
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres && input.atCommit) {
    // Each variant's reservations go in its own statement, which reads the units they counted.
    for (const u of inOrder(wanted)) {
      const t = { productId: u.productId, variantId: u.variantId, quantity: u.quantity, ownUnits: 0 };
      await writeAtCommit(trx, takeStatement(t, now, orderId, input.orderNumber, input.actor, 'at commit'));
    }
    await writeAtCommit(trx, sql`delete from stock_reservations where order_id = ${orderId}`);
    return [];
  }
  const own = await consumeReservations(trx, orderId);
  const at = now.toISOString();
  for (const u of inOrder(wanted)) {
    const ownUnits = own.get(u.variantId)?.units ?? 0;
    const t = { productId: u.productId, variantId: u.variantId, quantity: u.quantity, ownUnits };
    const taken = postgres
      ? await takeInOneStatement(trx, { ...t, at: now, orderId, reference: input.orderNumber, actor: input.actor })
      : await takeStepByStep(trx, { ...t, at });
    if (!taken) return shortfallOf(trx, wanted, own);
    const stock: LockedStock = {
      itemId: taken.id,
      productId: u.productId,
      variantId: u.variantId,
      onHand: Number(taken.on_hand),
      threshold: Number(taken.low_stock_threshold),
      alertState: taken.alert_state,
    };
    if (!postgres)
      await writeLedgerRow(trx, stock, {
        kind: 'sold',
        quantity: -u.quantity,
        orderId,
        reference: input.orderNumber,
        actor: input.actor,
        at: now,
      });
    await afterLevelChange(trx, stock, stock.onHand + u.quantity, now);
  }
  return [];
}

type Take = { productId: string; variantId: string; quantity: number; ownUnits: number };
type TakenItem = { id: string; on_hand: number; low_stock_threshold: number; alert_state: LockedStock['alertState'] };

/** The two writes of takeStepByStep, built once (db/compiled-once.ts). */
const takeFromProduct = compiledOnce((trx, t: { productId: string; quantity: number }) =>
  trx
    .updateTable('products')
    .set({ inventory: sql`inventory - ${t.quantity}` })
    .where('id', '=', t.productId)
    .where('inventory', '>=', t.quantity),
);
const takeFromItem = compiledOnce((trx, t: { variantId: string; quantity: number; ownUnits: number; at: string }) =>
  trx
    .updateTable('stock_items')
    .set({ on_hand: sql`on_hand - ${t.quantity}`, reserved: sql`reserved - ${t.ownUnits}`, updated_at: t.at })
    .where('variant_id', '=', t.variantId)
    .where(sql<boolean>`on_hand - (reserved - ${t.ownUnits}) >= ${t.quantity}`)
    .returning(['id', 'on_hand', 'low_stock_threshold', 'alert_state']),
);

/** SQLite: the product's row first, its stock item second (the order every stock change locks them in). */
async function takeStepByStep(trx: Kysely<Database>, t: Take & { at: string }): Promise<TakenItem | undefined> {
  const shown = await trx.executeQuery(takeFromProduct(trx, { productId: t.productId, quantity: t.quantity }));
  if (Number(shown.numAffectedRows) !== 1) return undefined;
  const { variantId, quantity, ownUnits, at } = t;
  return (await trx.executeQuery(takeFromItem(trx, { variantId, quantity, ownUnits, at }))).rows[0];
}

/**
 * PostgreSQL: the same three writes (the product's copy, the stock item, the `sold` ledger row) in
 * one statement, so the two rows every buyer of the product needs are locked for one round trip
 * and the commit, not three. The item's update reads the product's (`exists (select from p)`), so
 * the product's row is locked first, as everywhere; the ledger row is written only if the item moved.
 */
async function takeInOneStatement(
  trx: Kysely<Database>,
  t: Take & { at: Date; orderId: string; reference: string; actor: StockActor },
): Promise<TakenItem | undefined> {
  const { rows } = await takeStatement(t, t.at, t.orderId, t.reference, t.actor, 'now').execute(trx);
  return rows[0];
}

/**
 * The take as one statement. `now`: answers the item's new level. `at commit`: a guarded write
 * (db/pg-commit-tail.ts) that also holds only when the level stays in its alert state (`ok`, `low`
 * or `out`, as alerts.ts ranks it), so that nothing else would have to be written.
 */
function takeStatement(t: Take, when: Date, orderId: string, reference: string, actor: StockActor, mode: 'now' | 'at commit') {
  const at = when.toISOString();
  // At commit the order's reservations of the item go in the statement, and the units they still
  // counted come off `reserved`; now, the caller removed them and passes those units.
  const reservations =
    mode === 'at commit'
      ? sql`r as (
          delete from stock_reservations where order_id = ${orderId} and variant_id = ${t.variantId}
          returning quantity, counted
        ), `
      : sql``;
  const ownUnits = mode === 'at commit' ? sql`(select coalesce(sum(quantity), 0) from r where counted = 1)` : sql`${t.ownUnits}`;
  const sameAlertState =
    mode === 'at commit' ? sql`and ${alertStateSql(sql`on_hand - ${t.quantity}`, sql.ref('low_stock_threshold'))} = alert_state` : sql``;
  const answer =
    mode === 'at commit'
      ? sql`select 1 / (select count(*)::integer from s)`
      : sql`select id, on_hand, low_stock_threshold, alert_state from s`;
  return sql<TakenItem>`
    with ${reservations}p as (
      update products set inventory = inventory - ${t.quantity}
      where id = ${t.productId} and inventory >= ${t.quantity}
      returning id
    ), s as (
      update stock_items set on_hand = on_hand - ${t.quantity}, reserved = reserved - ${ownUnits}, updated_at = ${at}
      where variant_id = ${t.variantId} and exists (select 1 from p) and on_hand - (reserved - ${ownUnits}) >= ${t.quantity} ${sameAlertState}
      returning id, on_hand, low_stock_threshold, alert_state
    ), m as (
      insert into stock_movements (id, stock_item_id, kind, quantity, order_id, actor_user_id, actor_label, reference, note, created_at)
      select ${newMovementId(when)}, s.id, 'sold', ${-t.quantity}::integer, ${orderId}, ${actor.userId}, ${actor.label}, ${reference}, null, ${at}
      from s
    )
    ${answer}`;
}

/**
 * A payment that found its units gone (takeForOrder answered a shortfall and was rolled back): its
 * reservations go, what they still counted is given back, and the answer says what fell short.
 * Empty when the units are there after all (freed in the meantime): then take them instead.
 */
export async function recordShortfall(
  trx: Kysely<Database>,
  input: { orderId: string; units: OrderUnits[]; now: Date },
): Promise<string[]> {
  const wanted = mergeUnits(input.units);
  // Ended, not deleted: the payment is refunded, so the holder's window goes on (decision 0042).
  const own = await endReservations(trx, input.orderId, input.now);
  const at = input.now.toISOString();
  for (const u of [...own].map(([variantId, o]) => ({ variantId, ...o })).sort(inStockOrder)) {
    await trx
      .updateTable('stock_items')
      .set({ reserved: sql`reserved - ${u.units}`, updated_at: at })
      .where('variant_id', '=', u.variantId)
      .execute();
  }
  return shortfallOf(trx, wanted, new Map());
}

/** What falls short of the wanted units, as the shopper's apology names it; `own`: units still counted for the order itself. */
async function shortfallOf(trx: Kysely<Database>, wanted: Map<string, OrderUnits>, own: Map<string, { units: number }>): Promise<string[]> {
  const rows = await trx
    .selectFrom('stock_items')
    .select(['variant_id', 'on_hand', 'reserved'])
    .where('variant_id', 'in', [...wanted.keys()])
    .execute();
  const byVariant = new Map(rows.map((r) => [r.variant_id, r]));
  const shortfall: string[] = [];
  for (const [variantId, u] of wanted) {
    const item = byVariant.get(variantId);
    if (!item) {
      shortfall.push(`${u.name}: ${u.quantity} ordered, product no longer in the catalogue`);
      continue;
    }
    const free = Math.max(0, Number(item.on_hand) - (Number(item.reserved) - (own.get(variantId)?.units ?? 0)));
    if (free < u.quantity) shortfall.push(`${u.name}: ${u.quantity} ordered, ${free} in stock`);
  }
  return shortfall;
}

/** The units by variant, summed. */
function mergeUnits(units: OrderUnits[]): Map<string, OrderUnits> {
  const merged = new Map<string, OrderUnits>();
  for (const u of units) {
    const prev = merged.get(u.variantId);
    if (prev) prev.quantity += u.quantity;
    else merged.set(u.variantId, { ...u });
  }
  return merged;
}

/** What an order has out of stock for one variant: out now, and returned (net of any taken again). */
export type VariantOut = { productId: string; out: number; returned: number };

/** Per variant of the order (by variant id): the units out of stock for it now, and those returned (net of any taken again). */
export async function orderStockOut(db: Kysely<Database>, orderId: string): Promise<Map<string, VariantOut>> {
  const rows = await db
    .selectFrom('stock_movements as m')
    .innerJoin('stock_items as s', 's.id', 'm.stock_item_id')
    .select([
      's.product_id',
      's.variant_id',
      sql<number | string>`sum(m.quantity)`.as('net'),
      sql<number | string>`sum(case when m.kind in ('returned', 'taken') then m.quantity else 0 end)`.as('returned'),
    ])
    .where('m.order_id', '=', orderId)
    .groupBy(['s.product_id', 's.variant_id'])
    .execute();
  return new Map(rows.map((r) => [r.variant_id, { productId: r.product_id, out: 0 - Number(r.net) || 0, returned: Number(r.returned) }]));
}

/** Per line of the order (merged by variant): ordered, out of stock now, and returned so far. */
export async function orderStockLines(
  db: Kysely<Database>,
  orderId: string,
): Promise<{ productId: string; variantId: string; name: string; ordered: number; out: number; returned: number }[]> {
  const items = await db
    .selectFrom('order_items')
    .select([
      'product_id',
      sql<string>`coalesce(variant_id, 'var_' || product_id)`.as('variant_id'),
      sql<string>`min(product_name)`.as('name'),
      sql<string>`min(variant_label)`.as('label'),
      sql<number | string>`sum(quantity)`.as('quantity'),
    ])
    .where('order_id', '=', orderId)
    .groupBy(['product_id', sql`coalesce(variant_id, 'var_' || product_id)`])
    .orderBy('product_id')
    .orderBy(sql`coalesce(variant_id, 'var_' || product_id)`)
    .execute();
  const out = await orderStockOut(db, orderId);
  return items.map((i) => ({
    productId: i.product_id,
    variantId: i.variant_id,
    name: lineTitle(i.name, i.label ?? ''),
    ordered: Number(i.quantity),
    out: out.get(i.variant_id)?.out ?? 0,
    returned: out.get(i.variant_id)?.returned ?? 0,
  }));
}

/**
 * Returns the chosen units of an order to stock (the products locked by lockStock first), each a
 * `returned` ledger row to the variant's own item; never more than the order has out of that
 * variant (400 naming the line). Returns what came back.
 */
export async function returnForOrder(
  trx: Kysely<Database>,
  input: {
    orderId: string;
    orderNumber: string;
    lines: { productId: string; variantId: string; quantity: number }[];
    /** The order's products' stock, by variant id (lockStock). */
    stock: Map<string, LockedStock>;
    actor: StockActor;
    note: string;
    /** The order's line names, by variant id. */
    names: Map<string, string>;
  },
): Promise<OrderUnits[]> {
  const out = await orderStockOut(trx, input.orderId);
  const asked = new Map<string, { productId: string; variantId: string; quantity: number }>();
  for (const l of input.lines) {
    if (l.quantity <= 0) continue;
    const prev = asked.get(l.variantId);
    asked.set(l.variantId, { productId: l.productId, variantId: l.variantId, quantity: (prev?.quantity ?? 0) + l.quantity });
  }
  for (const [variantId, a] of asked) {
    if (!input.names.has(variantId)) throw new HttpError(400, ORDER_STOCK_MESSAGES.notInOrder);
    const have = out.get(variantId)?.out ?? 0;
    if (a.quantity > have)
      throw new HttpError(400, ORDER_STOCK_MESSAGES.notOut(input.names.get(variantId)!, a.quantity, Math.max(0, have)));
  }
  const back: OrderUnits[] = [];
  for (const a of [...asked.values()].sort(inStockOrder)) {
    const item = input.stock.get(a.variantId);
    if (!item) continue; // no longer in the catalogue: nowhere to return it
    await recordMovement(trx, item, {
      kind: 'returned',
      quantity: a.quantity,
      orderId: input.orderId,
      reference: input.orderNumber,
      actor: input.actor,
      note: input.note,
    });
    back.push({ ...a, name: input.names.get(a.variantId)! });
  }
  return back;
}

/**
 * A cancelled order is reopened: what was returned for it leaves stock again (`taken`), from what
 * other checkouts do not keep; 409 (`refuse`) naming the first line short.
 */
export async function takeAgainForOrder(
  trx: Kysely<Database>,
  input: {
    orderId: string;
    orderNumber: string;
    /** By variant id (lockStock). */
    stock: Map<string, LockedStock>;
    /** By variant id. */
    names: Map<string, string>;
    now: Date;
    actor: StockActor;
    refuse: (name: string, wanted: number, free: number) => string;
  },
): Promise<OrderUnits[]> {
  const out = await orderStockOut(trx, input.orderId);
  const wanted = [...out]
    .filter(([, o]) => o.returned > 0)
    .map(([variantId, o]) => ({ productId: o.productId, variantId, quantity: o.returned }))
    .sort(inStockOrder);
  if (wanted.length === 0) return [];
  const taken: OrderUnits[] = [];
  for (const w of wanted) {
    const item = input.stock.get(w.variantId);
    if (!item) continue; // no longer in the catalogue: nothing to take
    const name = input.names.get(w.variantId) ?? w.productId;
    // Never from units open checkouts keep: the update itself checks (`reserved` moves without the product's lock).
    const refuse = (free: number) => new HttpError(409, input.refuse(name, w.quantity, free));
    await recordMovement(
      trx,
      item,
      {
        kind: 'taken',
        quantity: -w.quantity,
        orderId: input.orderId,
        reference: input.orderNumber,
        actor: input.actor,
        note: 'Order reopened',
        at: input.now,
      },
      { keepReserved: refuse },
    );
    taken.push({ ...w, name });
  }
  return taken;
}

/**
 * The units the ledger took back for each of these orders, by variant: returned (a refund's or a
 * cancel's), net of any taken again when reopened. Only pairs with a movement are answered. For
 * the sales report (orders/overview.ts), whose units are the ledger's sold less returned.
 */
export async function unitsBackForOrders(
  db: Kysely<Database>,
  orderIds: readonly string[],
): Promise<{ orderId: string; variantId: string; units: number }[]> {
  const back: { orderId: string; variantId: string; units: number }[] = [];
  for (let i = 0; i < orderIds.length; i += 1000) {
    const rows = await db
      .selectFrom('stock_movements as m')
      .innerJoin('stock_items as s', 's.id', 'm.stock_item_id')
      .select(['m.order_id', 's.variant_id', sql<number | string>`sum(m.quantity)`.as('units')])
      .where('m.order_id', 'in', orderIds.slice(i, i + 1000))
      .where('m.kind', 'in', ['returned', 'taken'])
      .groupBy(['m.order_id', 's.variant_id'])
      .execute();
    for (const r of rows) if (r.order_id) back.push({ orderId: r.order_id, variantId: r.variant_id, units: Number(r.units) });
  }
  return back;
}
