import { type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import type { Database } from './schema.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-02T11:00:00.000Z';
const T3 = '2026-03-03T12:00:00.000Z';

/** A shop on migration 0011: a labelled order, one marked shipped then delivered, one shipped and taken back. */
async function seedBefore0012(db: Kysely<Database>): Promise<void> {
  const order = (id: string, status: string, extra: Record<string, unknown> = {}) =>
    db
      .insertInto('orders')
      .values({
        id,
        order_number: id,
        email: 'a@example.com',
        status,
        payment_status: 'paid',
        created_at: T1,
        updated_at: T1,
        ...extra,
      } as never)
      .execute();
  await order('o-label', 'shipped', {
    label_state: 'bought',
    shipstation_tracking_number: '1ZOLD',
    shipstation_data: JSON.stringify({ version: 'v2', label: { label_id: 'se-9', tracking_number: '1ZOLD', carrier_code: 'ups' } }),
  });
  await order('o-delivered', 'delivered');
  await order('o-back', 'processing');
  const event = (id: string, orderId: string, type: string, data: Record<string, unknown>, at: string) =>
    db
      .insertInto('order_events')
      .values({
        id,
        order_id: orderId,
        type,
        actor_user_id: null,
        actor_label: 'system',
        data: JSON.stringify(data),
        customer_visible: 1,
        created_at: at,
      } as never)
      .execute();
  await event('e1', 'o-label', 'label.bought', { trackingNumber: '1ZOLD' }, T2);
  await event('e2', 'o-delivered', 'status.changed', { from: 'processing', to: 'shipped' }, T1);
  await event('e3', 'o-delivered', 'status.changed', { from: 'shipped', to: 'delivered' }, T3);
  await event('e4', 'o-back', 'status.changed', { from: 'processing', to: 'shipped' }, T1);
  await event('e5', 'o-back', 'status.changed', { from: 'shipped', to: 'processing' }, T2);
  await db
    .insertInto('email_templates')
    .values({
      id: 'shipping-notification',
      name: 'Shipping Notification',
      subject: 's',
      html: '<p>{{trackingNumber}}</p>',
      text: '{{trackingNumber}}',
      variables: '["trackingNumber"]',
      built_in: 1,
      created_at: T1,
      updated_at: T1,
    } as never)
    .execute();
}

describe(`migration 0012 (order tracking) on ${testDialect()}`, () => {
  it('backfills the carrier from the label and the shipped date from the timeline, and renews the unedited shipping e-mail', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      expect(await migrateUpTo(db, schema, '0011-search-in-memory')).toContain('0011-search-in-memory');
      await seedBefore0012(db);
      expect(await migrateToLatest(db, schema)).toContain('0012-order-tracking');

      const rows = await db.selectFrom('orders').select(['id', 'shipping_carrier', 'shipped_at']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'o-back', shipping_carrier: null, shipped_at: null },
        { id: 'o-delivered', shipping_carrier: null, shipped_at: T1 },
        { id: 'o-label', shipping_carrier: 'ups', shipped_at: T2 },
      ]);
      const template = await db
        .selectFrom('email_templates')
        .select(['html', 'text', 'variables'])
        .where('id', '=', 'shipping-notification')
        .executeTakeFirstOrThrow();
      // Still unedited, so migration 0015 renewed it again: the link now comes from `tracking`.
      expect(template.html).toContain('{{tracking.url}}');
      expect(template.text).toContain('{{tracking.url}}');
      expect(JSON.parse(template.variables)).toEqual(expect.arrayContaining(['tracking', 'shippingAddressLines']));
    } finally {
      await close();
    }
  });
});
