import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import { searchRowsOf } from '../orders/search-terms.js';
import { defaultEmailTemplates } from '../email/default-templates.js';
import { insertTestOrder } from '../test/order-rows.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-05T09:30:00.000Z';

/**
 * Migration 0023 files existing orders under their lines, tracking number, city and amount (with
 * its own frozen copy of the rule, which must agree with the live one), and renews the status
 * update e-mail the owner never edited.
 */
describe(`migration 0023 (order search and order reference) on ${testDialect()}`, () => {
  it('files existing orders as the live rule does and renews only the unedited status e-mail', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      expect(await migrateUpTo(db, schema, '0018-stock-counters')).toContain('0018-stock-counters');
      const id = await insertTestOrder(db, { totalCents: 123456 });
      await db
        .updateTable('orders')
        .set({
          shipping_address: JSON.stringify({ name: 'Ada Moss', address: '1 Elm', city: 'Coos Bay', zip: '97420', country: 'US' }),
          shipstation_tracking_number: '9400 TRACK 77',
          shipping_carrier: 'usps',
        })
        .where('id', '=', id)
        .execute();
      const line = {
        order_id: id,
        product_id: 'p',
        product_image: null,
        quantity: 1,
        price_cents: 100,
        size: 'One Size',
        color: 'Default',
        is_free_gift: 0,
      };
      await db
        .insertInto('order_items')
        .values([
          { ...line, id: `${id}_1`, product_name: 'Lavender Glass-Cloth (40-Pack)', sku: 'LAV-7' },
          { ...line, id: `${id}_2`, product_name: 'Bamboo Mop', sku: null },
        ])
        .execute();
      // Filed as before this migration: the terms 0002's rule gives (a subset of today's).
      const before = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const old = searchRowsOf({ ...before, shipstation_tracking_number: null, total_cents: null, user_email: null, full_name: null });
      await db.insertInto('order_search_terms').values(old).execute();
      const template = (edited: boolean) => ({
        id: 'order-status-update',
        name: 'Order Status Update',
        subject: 'Order #{{orderNumber}} is now {{status}}',
        html: edited ? '<p>Edited {{trackingNumber}}</p>' : '<p>Tracking number: {{tracking.number}}</p>',
        text: null,
        variables: JSON.stringify(['orderNumber', 'status', 'tracking']),
        built_in: 1,
        created_at: T1,
        updated_at: edited ? T2 : T1,
      });
      await db.insertInto('email_templates').values(template(false)).execute();

      expect(await migrateToLatest(db, schema)).toContain('0023-order-search-and-reference');

      const order = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const items = await db.selectFrom('order_items').select(['product_name as name', 'sku']).where('order_id', '=', id).execute();
      const live = searchRowsOf({ ...order, user_email: null, full_name: null, lines: items })
        .map((r) => r.term)
        .sort();
      const filed = (await db.selectFrom('order_search_terms').select('term').where('order_id', '=', id).execute())
        .map((r) => r.term)
        .sort();
      expect(filed).toEqual(live);
      for (const term of [
        'lavender',
        'glass',
        'glass-cloth',
        '40-pack',
        'bamboo',
        'mop',
        'lav-7',
        'coos',
        'bay',
        '9400 track 77',
        '$1234.56',
      ])
        expect(filed).toContain(term);

      const builtIn = defaultEmailTemplates.find((t) => t.id === 'order-status-update')!;
      const renewed = await db.selectFrom('email_templates').selectAll().where('id', '=', 'order-status-update').executeTakeFirstOrThrow();
      expect(renewed).toMatchObject({ html: builtIn.html, text: builtIn.text, updated_at: T1 });
      expect(JSON.parse(renewed.variables)).toEqual(builtIn.variables);
    } finally {
      await close();
    }
  });

  it("keeps an edited status e-mail's text and lists the new variable", async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      await migrateUpTo(db, schema, '0018-stock-counters');
      await db
        .insertInto('email_templates')
        .values({
          id: 'order-status-update',
          name: 'Order Status Update',
          subject: 's',
          html: '<p>Edited {{trackingNumber}}</p>',
          text: null,
          variables: JSON.stringify(['orderNumber', 'trackingNumber']),
          built_in: 1,
          created_at: T1,
          updated_at: T2,
        })
        .execute();
      await migrateToLatest(db, schema);
      const row = await db.selectFrom('email_templates').selectAll().where('id', '=', 'order-status-update').executeTakeFirstOrThrow();
      expect(row.html).toBe('<p>Edited {{trackingNumber}}</p>');
      // 0023 adds orderReference; 0035 adds the guest's and the account's order links.
      expect(JSON.parse(row.variables)).toEqual(['orderNumber', 'trackingNumber', 'orderReference', 'guestOrder', 'orderUrl']);
    } finally {
      await close();
    }
  });
});
