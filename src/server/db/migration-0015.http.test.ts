import { type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import type { Database } from './schema.js';
import { defaultEmailTemplates } from '../email/default-templates.js';
import { renderTemplate } from '../email/render.js';
import { statusUpdateVariables } from '../email/order-email-variables.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-05T09:30:00.000Z';

const EDITED_STATUS_HTML =
  '<p>Hello {{customerName}}, now {{status}}.</p>{{{trackingSection}}}<p style="white-space:pre-line">{{shippingAddress}}</p>';

/** A shop on migration 0014: the confirmation and shipping e-mails as seeded, the status update edited by the owner. */
async function seedBefore0015(db: Kysely<Database>): Promise<void> {
  const template = (id: string, html: string, variables: string[], updatedAt: string) =>
    db
      .insertInto('email_templates')
      .values({
        id,
        name: id,
        subject: `Subject of ${id}`,
        html,
        text: html,
        variables: JSON.stringify(variables),
        built_in: 1,
        created_at: T1,
        updated_at: updatedAt,
      })
      .execute();
  await template(
    'order-confirmation',
    '<div>{{{itemsList}}}</div><p>{{shippingAddress}}</p>',
    ['orderNumber', 'itemsList', 'shippingAddress'],
    T1,
  );
  await template(
    'order-status-update',
    EDITED_STATUS_HTML,
    ['orderNumber', 'customerName', 'status', 'trackingSection', 'shippingAddress'],
    T2,
  );
  await template('shipping-notification', '<p>{{trackingNumber}} {{trackingUrl}}</p>', ['trackingNumber', 'carrier', 'trackingUrl'], T1);
}

describe(`migration 0015 (template blocks) on ${testDialect()}`, () => {
  it('renews the templates the owner never edited and keeps the edited ones, listing their old variables too', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      expect(await migrateUpTo(db, schema, '0014-product-image-alts')).toContain('0014-product-image-alts');
      await seedBefore0015(db);
      expect(await migrateToLatest(db, schema)).toContain('0015-template-blocks');

      const rows = await db.selectFrom('email_templates').selectAll().orderBy('id').execute();
      const row = (id: string) => rows.find((r) => r.id === id)!;
      // Unedited: the built-in text of this migration (the same a new shop is seeded with today), still unedited.
      for (const id of ['order-confirmation', 'shipping-notification']) {
        const builtIn = defaultEmailTemplates.find((t) => t.id === id)!;
        expect(row(id)).toMatchObject({
          html: builtIn.html,
          text: builtIn.text,
          subject: `Subject of ${id}`,
          updated_at: T1,
          created_at: T1,
        });
        expect(JSON.parse(row(id).variables)).toEqual(builtIn.variables);
        expect(row(id).html).not.toContain('{{{');
      }
      expect(row('order-confirmation').html).toContain('{{#each items}}');

      // Edited: the owner's text stays, and the list names the new variables and the old ones it uses.
      const edited = row('order-status-update');
      expect(edited).toMatchObject({ html: EDITED_STATUS_HTML, text: EDITED_STATUS_HTML, updated_at: T2 });
      expect(JSON.parse(edited.variables)).toEqual(
        expect.arrayContaining(['tracking', 'shippingAddressLines', 'trackingSection', 'shippingAddress', 'trackingNumber']),
      );
      // …and it still renders: the shop passes the old variables, escaped as before.
      const v = statusUpdateVariables(
        {
          id: 'order_1_abcdef',
          order_number: 'ABCDEF12',
          shipping_address: JSON.stringify({ name: 'Jo', address: '1 Elm St', city: 'Reno', state: 'NV', zip: '89501', country: 'US' }),
          shipstation_tracking_number: '<b>1Z&"</b>',
          shipping_carrier: 'ups',
        },
        'shipped',
        undefined,
      );
      const mail = renderTemplate(edited, v.variables, { ...v.variables, ...v.textVariables });
      expect(mail.html).toContain('Tracking number: <strong>&lt;b&gt;1Z&amp;&quot;&lt;/b&gt;</strong>');
      expect(mail.html).toContain('Jo\n1 Elm St\nReno, NV 89501\nUS');
    } finally {
      await close();
    }
  });
});
