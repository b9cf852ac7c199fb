import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ShippingOptionsTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso, randomString } from '../lib/ids.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import type { ShippingOptionView } from '../../shared/schemas/checkout.js';
import { compiledOnce } from '../db/compiled-once.js';

/** A shipping option as the shopper sees it (cart, checkout). */
export function toShippingView(o: Selectable<ShippingOptionsTable>): ShippingOptionView {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    priceCents: o.price_cents,
    estimatedDays: o.estimated_days,
    minimumOrderCents: o.minimum_order_cents,
  };
}

/** As the back office sees it: also whether it is offered. */
function toAdminShipping(o: Selectable<ShippingOptionsTable>) {
  return { ...toShippingView(o), enabled: Boolean(o.enabled) };
}

type ShippingFields = {
  name: string;
  description: string | null;
  priceCents: number;
  estimatedDays: string;
  enabled: boolean;
  minimumOrderCents: number | null;
};

/** Every shipping option as stored, enabled or not, in the shop's order (the cart prices from these rows). */
/** Every option, in the shop's order: read by each checkout, so built once (db/compiled-once.ts). */
const shippingOptionRows = compiledOnce((db) => db.selectFrom('shipping_options').selectAll().orderBy('sort_order').orderBy('price_cents'));

export async function readShippingOptionRows(db: Kysely<Database>) {
  return (await db.executeQuery(shippingOptionRows(db, {}))).rows;
}

/** The enabled options' names, prices, delivery times and minimums, in the shop's order. */
export function readEnabledShippingOptions(db: Kysely<Database>) {
  return db
    .selectFrom('shipping_options')
    .select(['name', 'price_cents', 'estimated_days', 'minimum_order_cents'])
    .where('enabled', '=', 1)
    .orderBy('sort_order')
    .orderBy('price_cents')
    .execute();
}

/** A shipping option's name (undefined once the option is deleted). */
export async function shippingOptionName(db: Kysely<Database>, id: string): Promise<string | undefined> {
  return (await db.selectFrom('shipping_options').select('name').where('id', '=', id).executeTakeFirst())?.name;
}

/** The back office's list: every option, in the shop's order. */
export async function listShippingOptions(db: Kysely<Database>) {
  return (await readShippingOptionRows(db)).map(toAdminShipping);
}

export async function createShippingOption(db: Kysely<Database>, input: ShippingFields) {
  const id = `ship-${Date.now()}-${randomString(6)}`;
  const at = nowIso();
  const max = await db
    .selectFrom('shipping_options')
    .select(sql<number>`coalesce(max(sort_order), 0)`.as('m'))
    .executeTakeFirst();
  await db
    .insertInto('shipping_options')
    .values({
      id,
      name: input.name,
      description: input.description,
      price_cents: input.priceCents,
      estimated_days: input.estimatedDays,
      enabled: input.enabled ? 1 : 0,
      minimum_order_cents: input.minimumOrderCents,
      sort_order: Number(max?.m ?? 0) + 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return toAdminShipping(await db.selectFrom('shipping_options').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function updateShippingOption(db: Kysely<Database>, id: string, input: ShippingFields) {
  const r = await db
    .updateTable('shipping_options')
    .set({
      name: input.name,
      description: input.description,
      price_cents: input.priceCents,
      estimated_days: input.estimatedDays,
      enabled: input.enabled ? 1 : 0,
      minimum_order_cents: input.minimumOrderCents,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.shippingNotFound);
  return toAdminShipping(await db.selectFrom('shipping_options').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function setShippingOptionEnabled(db: Kysely<Database>, id: string, enabled: boolean) {
  const r = await db
    .updateTable('shipping_options')
    .set({ enabled: enabled ? 1 : 0, updated_at: nowIso() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.shippingNotFound);
  return toAdminShipping(await db.selectFrom('shipping_options').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function deleteShippingOption(db: Kysely<Database>, id: string): Promise<void> {
  const r = await db.deleteFrom('shipping_options').where('id', '=', id).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.shippingNotFound);
}
