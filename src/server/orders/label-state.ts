import type { Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { nowIso } from '../lib/ids.js';
import { shippableSql } from './placed.js';

/*
 * An order's one shipping label as the order keeps it (label_state, its key and claim, the
 * carrier's data and number): written here because orders/ owns the table (decision 0048); the
 * label service (shipping-labels/service.ts) calls these around its calls to ShipStation.
 */

/**
 * Claims the order's label for buying under `key`: only a shippable order (paid, or the owner's
 * and not yet paid), not cancelled, with no label, or with a claim older than `staleBefore` (a
 * process that died mid-purchase). True when this claim won.
 */
export async function claimLabelPurchase(
  db: Kysely<Database>,
  id: string,
  key: string,
  claimedAt: Date,
  staleBefore: Date,
): Promise<boolean> {
  const claim = await db
    .updateTable('orders')
    .set({ label_state: 'buying', label_key: key, label_claimed_at: claimedAt.toISOString() })
    .where('id', '=', id)
    .where(shippableSql())
    .where('status', '<>', 'cancelled')
    .where((eb) =>
      eb.or([
        eb('label_state', 'is', null),
        eb.and([eb('label_state', 'in', ['buying', 'voiding']), eb('label_claimed_at', '<', staleBefore.toISOString())]),
      ]),
    )
    .executeTakeFirst();
  return Number(claim.numUpdatedRows) === 1;
}

/** The purchase failed: the claim under `key` is let go. */
export async function releaseLabelClaim(db: Kysely<Database>, id: string, key: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ label_state: null, label_key: null, label_claimed_at: null })
    .where('id', '=', id)
    .where('label_key', '=', key)
    .execute();
}

/** The label is bought: the order keeps the carrier's data and number and is shipped now. Call with the order locked. */
export async function recordLabelBought(
  trx: Kysely<Database>,
  id: string,
  label: { data: unknown; trackingNumber: string | null; carrierCode: string | null },
  at: Date,
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({
      shipstation_data: JSON.stringify(label.data),
      shipstation_tracking_number: label.trackingNumber,
      shipping_carrier: label.carrierCode,
      shipped_at: at.toISOString(),
      status: 'shipped',
      label_state: 'bought',
      updated_at: at.toISOString(),
    })
    .where('id', '=', id)
    .execute();
}

/** Claims the bought label (its key as read) for voiding. True when this claim won. */
export async function claimLabelVoid(db: Kysely<Database>, id: string, key: string | null): Promise<boolean> {
  const claim = await db
    .updateTable('orders')
    .set({ label_state: 'voiding', label_claimed_at: nowIso() })
    .where('id', '=', id)
    .where('label_state', '=', 'bought')
    .where('label_key', key === null ? 'is' : '=', key)
    .executeTakeFirst();
  return Number(claim.numUpdatedRows) === 1;
}

/** ShipStation refused the void: the label stays bought. */
export async function keepLabelBought(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('orders').set({ label_state: 'bought' }).where('id', '=', id).where('label_state', '=', 'voiding').execute();
}

/** The label is voided: the order forgets it and goes back to `status`. Call with the order locked. */
export async function recordLabelVoided(trx: Kysely<Database>, id: string, status: OrdersTable['status'], at: Date): Promise<void> {
  await trx
    .updateTable('orders')
    .set({
      label_state: null,
      label_key: null,
      label_claimed_at: null,
      shipstation_data: null,
      shipstation_tracking_number: null,
      shipping_carrier: null,
      // Marked shipped or delivered by hand before the label: it keeps when it left.
      ...(status === 'shipped' || status === 'delivered' ? {} : { shipped_at: null }),
      status,
      updated_at: at.toISOString(),
    })
    .where('id', '=', id)
    .execute();
}
