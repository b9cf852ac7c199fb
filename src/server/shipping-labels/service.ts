/**
 * ShipStation labels for the back office: the client as the owner configured it, and an order's one
 * label bought, voided and tracked. The routes (./routes.ts) check the input and the admin; these
 * functions do the work and return the answer's data.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { readSettings } from '../content/admin.js';
import { queueEmail } from '../email/outbox.js';
import { shippingNotificationVariables } from '../email/order-email-variables.js';
import { getOrderForViewer } from '../orders/service.js';
import { emailOnTimeline, recordOrderEvent, type OrderEventActor } from '../orders/events.js';
import { indexOrderSearch } from '../orders/search-terms.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { ORDER_STATE_MESSAGES } from '../../shared/schemas/admin/orders.js';
import { labelRefusal } from '../orders/status-rules.js';
import {
  claimLabelPurchase,
  claimLabelVoid,
  keepLabelBought,
  recordLabelBought,
  recordLabelVoided,
  releaseLabelClaim,
} from '../orders/label-state.js';
import { ShipStationClient, ShipStationError, type LabelOrder } from './client.js';
import { LABEL_FILE_MESSAGES, SHIPSTATION_MESSAGES as M } from './messages.js';
import { legacyDownloadUrl } from '../orders/label-files.js';

/** A label claim older than this was left by a process that died mid-purchase: it may be taken again. */
const STALE_CLAIM_MS = 10 * 60_000;

const ADMIN_VIEW = { userId: null, isAdmin: true, deviceHash: null } as const;

/** The client when the owner has enabled ShipStation and given its keys; otherwise null. */
export async function loadShipStation(
  db: Kysely<Database>,
  config: Config,
  fetchImpl: typeof fetch = fetch,
): Promise<ShipStationClient | null> {
  const s = await readSettings(db, ['shipstation_api_key', 'shipstation_api_secret', 'shipstation_enabled', 'shipstation_api_version']);
  const version = s.shipstation_api_version === 'v1' ? 'v1' : 'v2';
  if (s.shipstation_enabled !== 'true' || !s.shipstation_api_key || (version === 'v1' && !s.shipstation_api_secret)) return null;
  return new ShipStationClient(
    { apiKey: s.shipstation_api_key, apiSecret: s.shipstation_api_secret ?? '', version },
    { v1: config.shipstationV1Base, v2: config.shipstationV2Base },
    fetchImpl,
  );
}

/** The API version the owner chose (a setting, not a secret): v2 unless v1 is asked for. */
export async function shipStationVersion(db: Kysely<Database>): Promise<'v1' | 'v2'> {
  return (await readSettings(db, ['shipstation_api_version'])).shipstation_api_version === 'v1' ? 'v1' : 'v2';
}

/** When neither the variant nor its product gives a weight, a line weighs this much a unit. */
const DEFAULT_ITEM_WEIGHT_LBS = 0.5;

/**
 * The weight and the option values of the lines' variants: a variant's own weight, else its
 * product's; its options as name and value (ShipStation v1 prints them on the packing slip). A
 * variant no longer in the catalogue weighs its product's, and its label as sold stands for its values.
 */
async function lineDetails(
  db: Kysely<Database>,
  items: { productId: string; variantId: string; variantLabel: string }[],
): Promise<{
  weightLbs: (i: (typeof items)[number]) => number;
  options: (i: (typeof items)[number]) => { name: string; value: string }[];
}> {
  const productIds = [...new Set(items.map((i) => i.productId))];
  const variantIds = [...new Set(items.map((i) => i.variantId).filter(Boolean))];
  const [products, variants, options] = productIds.length
    ? await Promise.all([
        db.selectFrom('products').select(['id', 'weight_lbs']).where('id', 'in', productIds).execute(),
        variantIds.length
          ? db
              .selectFrom('product_variants')
              .select(['id', 'product_id', 'weight_lbs', 'option1', 'option2', 'option3'])
              .where('id', 'in', variantIds)
              .execute()
          : [],
        db.selectFrom('product_options').select(['product_id', 'position', 'name']).where('product_id', 'in', productIds).execute(),
      ])
    : [[], [], []];
  const productWeight = new Map(products.map((p) => [p.id, p.weight_lbs]));
  const variant = new Map(variants.map((v) => [v.id, v]));
  return {
    weightLbs: (i) => variant.get(i.variantId)?.weight_lbs ?? productWeight.get(i.productId) ?? DEFAULT_ITEM_WEIGHT_LBS,
    options: (i) => {
      const v = variant.get(i.variantId);
      if (!v) return i.variantLabel ? [{ name: 'Variant', value: i.variantLabel }] : [];
      const values = [v.option1, v.option2, v.option3];
      return options
        .filter((o) => o.product_id === v.product_id && values[o.position - 1])
        .sort((a, b) => a.position - b.position)
        .map((o) => ({ name: o.name, value: values[o.position - 1]! }));
    },
  };
}

async function toLabelOrder(db: Kysely<Database>, orderId: string): Promise<LabelOrder> {
  const order = await getOrderForViewer(db, orderId, ADMIN_VIEW);
  if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
  const details = await lineDetails(db, order.items);
  const weightLbs = order.items.reduce((sum, i) => sum + details.weightLbs(i) * i.quantity, 0);
  const a = typeof order.shippingAddress === 'object' && order.shippingAddress ? order.shippingAddress : null;
  if (!a?.address || !a.city || !a.zip) throw new HttpError(400, 'This order has no complete shipping address to put on a label');
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    createdAt: order.createdAt,
    email: order.email,
    totalCents: order.totalCents,
    shipTo: {
      name: a.name ?? 'Customer',
      address: a.address,
      city: a.city,
      state: a.state ?? '',
      zip: a.zip,
      country: a.country ?? 'US',
      email: a.email ?? null,
    },
    // The line's SKU is the variant's as sold; its name the line's title ("Cleaner — Lavender, 1 L").
    items: order.items.map((i) => ({
      sku: i.sku,
      name: i.name,
      quantity: i.quantity,
      priceCents: i.priceCents,
      options: details.options(i),
    })),
    weightOz: Math.max(1, Math.round(Math.max(weightLbs, 0.1) * 16)),
  };
}

/**
 * Buys the order's one label (see the route in ./routes.ts): the order is claimed first, a failed
 * purchase releases the claim; once bought the order is shipped, the e-mail queued, the timeline
 * told. Answers the order as the admin sees it, and the tracking number.
 */
export async function sendOrderToShipStation(
  db: Kysely<Database>,
  dialect: Dialect,
  c: ShipStationClient,
  id: string,
  actor: OrderEventActor,
) {
  const row = await db
    .selectFrom('orders')
    .select(['status', 'payment_status', 'origin', 'label_state'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
  // The one table of moves (orders/status-rules.ts): a label marks the order shipped.
  const refused = labelRefusal(row);
  if (refused) throw new HttpError(409, refused);
  const labelOrder = await toLabelOrder(db, id);
  const key = newId('lbl');
  const claimedAt = new Date();
  const claimed = await claimLabelPurchase(db, id, key, claimedAt, new Date(claimedAt.getTime() - STALE_CLAIM_MS));
  if (!claimed) {
    const now = await db
      .selectFrom('orders')
      .select(['status', 'label_state', 'payment_status', 'origin'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!now) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
    throw new HttpError(409, labelRefusal(now) ?? ADMIN_MESSAGES.labelBusy);
  }
  const release = () => releaseLabelClaim(db, id, key);
  const label = await c.createLabel(labelOrder).catch(async (err: unknown) => {
    await release();
    throw new HttpError(502, `${M.sendOrder}: ${err instanceof Error ? err.message : String(err)}`);
  });
  await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(
      trx.selectFrom('orders').select(['status', 'label_key']).where('id', '=', id),
      dialect,
    ).executeTakeFirstOrThrow();
    const at = new Date();
    await recordLabelBought(trx, id, label, at);
    // The label to print, and the status a void puts back (one row per order's current label).
    await trx.deleteFrom('shipping_label_files').where('order_id', '=', id).execute();
    await trx
      .insertInto('shipping_label_files')
      .values({
        order_id: id,
        label_key: order.label_key,
        media_type: label.file?.mediaType ?? 'application/pdf',
        content_base64: label.file?.contentBase64 ?? null,
        download_url: label.file?.downloadUrl ?? null,
        status_before: order.status,
        created_at: at.toISOString(),
      })
      .execute();
    // The carrier's number is searchable from now on (orders/search-terms.ts).
    await indexOrderSearch(trx, id);
    await recordOrderEvent(
      trx,
      id,
      'label.bought',
      actor,
      { trackingNumber: label.trackingNumber, carrierCode: label.carrierCode, key: order.label_key, version: label.data.version },
      at,
    );
    if (order.status !== 'shipped') {
      // The receipt shows the label's "shipped" line; this one is the owner's.
      await recordOrderEvent(
        trx,
        id,
        'status.changed',
        actor,
        { from: order.status, to: 'shipped', trackingNumber: label.trackingNumber, carrierCode: label.carrierCode },
        at,
        {
          customerVisible: false,
        },
      );
    }
    const to = labelOrder.email ?? labelOrder.shipTo.email;
    if (to) {
      await queueEmail(trx, {
        to,
        order: emailOnTimeline(id, actor),
        templateId: 'shipping-notification',
        ...shippingNotificationVariables({
          orderNumber: labelOrder.orderNumber,
          shipTo: labelOrder.shipTo,
          trackingNumber: label.trackingNumber,
          carrierCode: label.carrierCode,
        }),
      });
    }
  });
  return { order: await getOrderForViewer(db, id, ADMIN_VIEW), trackingNumber: label.trackingNumber };
}

/** Voids the order's label at ShipStation (see the route in ./routes.ts); answers the order as the admin sees it. */
export async function voidOrderLabel(db: Kysely<Database>, dialect: Dialect, c: ShipStationClient, id: string, actor: OrderEventActor) {
  const row = await db
    .selectFrom('orders')
    .select(['label_state', 'label_key', 'shipstation_data', 'shipstation_tracking_number', 'shipping_carrier'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
  if (row.label_state !== 'bought') throw new HttpError(409, row.label_state ? ADMIN_MESSAGES.labelBusy : ADMIN_MESSAGES.noLabel);
  if (!(await claimLabelVoid(db, id, row.label_key))) throw new HttpError(409, ADMIN_MESSAGES.labelBusy);
  const data = parseJson<Record<string, unknown>>(row.shipstation_data, {});
  await c.voidLabel(data).catch(async (err: unknown) => {
    await keepLabelBought(db, id);
    throw new HttpError(502, `${M.voidLabel}: ${err instanceof Error ? err.message : String(err)}`);
  });
  await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(
      trx.selectFrom('orders').select(['status', 'payment_status']).where('id', '=', id),
      dialect,
    ).executeTakeFirstOrThrow();
    const at = new Date();
    const status = await statusWithoutLabel(trx, id, order, row.shipstation_tracking_number);
    await trx.deleteFrom('shipping_label_files').where('order_id', '=', id).execute();
    await recordLabelVoided(trx, id, status, at);
    await indexOrderSearch(trx, id);
    await recordOrderEvent(
      trx,
      id,
      'label.voided',
      actor,
      { trackingNumber: row.shipstation_tracking_number, carrierCode: row.shipping_carrier, key: row.label_key },
      at,
    );
    if (status !== order.status)
      await recordOrderEvent(
        trx,
        id,
        'status.changed',
        actor,
        {
          from: order.status,
          to: status,
          cause:
            status === 'cancelled' && order.payment_status === 'refunded' ? ORDER_STATE_MESSAGES.cancelledByFullRefund : 'label voided',
        },
        at,
      );
  });
  return { order: await getOrderForViewer(db, id, ADMIN_VIEW) };
}

/**
 * The status an order goes back to when its label is voided: the one it had when the label was
 * bought (a cancelled order stays cancelled), never blindly "processing". Labels bought before the
 * shop kept it: the status the label's purchase moved it from (its timeline), else processing for
 * an order the label marked shipped. An order refunded in full meanwhile did not ship: cancelled.
 */
async function statusWithoutLabel(
  trx: Kysely<Database>,
  orderId: string,
  order: { status: OrdersTable['status']; payment_status: OrdersTable['payment_status'] },
  trackingNumber: string | null,
): Promise<OrdersTable['status']> {
  if (order.payment_status === 'refunded') return 'cancelled';
  const kept = await trx.selectFrom('shipping_label_files').select('status_before').where('order_id', '=', orderId).executeTakeFirst();
  if (kept?.status_before) return order.status === 'shipped' ? kept.status_before : order.status;
  if (order.status !== 'shipped') return order.status;
  const moves = await trx
    .selectFrom('order_events')
    .select('data')
    .where('order_id', '=', orderId)
    .where('type', '=', 'status.changed')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  for (const m of moves) {
    const d = parseJson<{ from?: OrdersTable['status']; to?: string; trackingNumber?: string | null }>(m.data, {});
    if (d.to === 'shipped' && d.from && trackingNumber && d.trackingNumber === trackingNumber) return d.from;
  }
  return 'processing';
}

/**
 * The order's label to print: v1's PDF (kept by the shop) or v2's download address at ShipStation
 * (also read from what ShipStation answered, for labels bought before the shop kept it). 404 when
 * the order has no bought label, or ShipStation gave none to print.
 */
export async function orderLabelFile(
  db: Kysely<Database>,
  id: string,
): Promise<{ orderNumber: string; pdf: Buffer } | { orderNumber: string; url: string }> {
  const order = await db
    .selectFrom('orders')
    .select(['order_number', 'label_state', 'shipstation_data'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
  if (order.label_state !== 'bought') throw new HttpError(404, LABEL_FILE_MESSAGES.noLabel);
  const file = await db
    .selectFrom('shipping_label_files')
    .select(['content_base64', 'download_url'])
    .where('order_id', '=', id)
    .executeTakeFirst();
  if (file?.content_base64) return { orderNumber: order.order_number, pdf: Buffer.from(file.content_base64, 'base64') };
  const url = file?.download_url ?? legacyDownloadUrl(order.shipstation_data);
  if (!url) throw new HttpError(404, LABEL_FILE_MESSAGES.noFile);
  return { orderNumber: order.order_number, url };
}

/** The order's tracking number and ShipStation's tracking for it. */
export async function orderTracking(db: Kysely<Database>, c: ShipStationClient, id: string) {
  const order = await db
    .selectFrom('orders')
    .select(['shipstation_data', 'shipstation_tracking_number'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!order) throw new HttpError(404, ADMIN_MESSAGES.orderNotFound);
  const data = parseJson<Record<string, unknown>>(order.shipstation_data, {});
  const tracking = await c.tracking(data, order.shipstation_tracking_number).catch((err: unknown) => {
    throw new HttpError(
      err instanceof ShipStationError && err.status === 400 ? 400 : 502,
      `${M.tracking}: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  return { trackingNumber: order.shipstation_tracking_number, tracking };
}
