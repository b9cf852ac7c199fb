import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import { insertTestOrder } from '../test/order-rows.js';
import { formerOrderReferenceOf, orderReferenceOf } from '../../shared/schemas/orders.js';
import { loyaltyRuleText } from '../../shared/shop-facts.js';
import { seedFaqs } from './seed/catalog-data.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-05T09:30:00.000Z';
const OLD_RULE =
  'You earn 10 points on orders of $50.00 or more and 3 points on smaller orders. Every 300 points gets you a 15% off coupon.';
const OLD_FAQ =
  'When your order ships we e-mail you a tracking number. You can also see the status of every order on the Orders page of your account.';

async function migratedFrom0037(seed: (db: ReturnType<typeof openDatabase>['db']) => Promise<void>) {
  const testDb = await createTestDatabase();
  dbs.push(testDb);
  const opened = openDatabase(testDb.url);
  await migrateUpTo(opened.db, opened.schema, '0037-product-draft-status');
  await seed(opened.db);
  await migrateToLatest(opened.db, opened.schema);
  return opened;
}

describe(`migrations 0040 and 0041 (one order number; unqualified texts renewed) on ${testDialect()}`, () => {
  it('files an existing order under its new reference and keeps the old one', async () => {
    let id = '';
    const { db, close } = await migratedFrom0037(async (db) => {
      id = await insertTestOrder(db, { totalCents: 1000 });
      await db
        .insertInto('order_search_terms')
        .values({ term: formerOrderReferenceOf(id).toLowerCase(), order_id: id })
        .execute();
    });
    try {
      const terms = (await db.selectFrom('order_search_terms').select('term').where('order_id', '=', id).execute()).map((r) => r.term);
      expect(terms).toContain(orderReferenceOf(id).toLowerCase());
      expect(terms).toContain(formerOrderReferenceOf(id).toLowerCase());
      expect(orderReferenceOf(id)).toBe(`EC${id.slice(-8).toUpperCase()}`);
    } finally {
      await close();
    }
  });

  it('renews the never-edited welcome e-mail and the seeded FAQ answer, and leaves edited copies alone', async () => {
    const { db, close } = await migratedFrom0037(async (db) => {
      await db
        .insertInto('email_templates')
        .values({
          id: 'welcome',
          name: 'Welcome',
          subject: 'Welcome',
          html: `<p>Hi</p><p style="margin:0 0 16px 0;">${OLD_RULE}</p>`,
          text: `Hi\n\n${OLD_RULE}\n`,
          variables: '[]',
          built_in: 1,
          created_at: T1,
          updated_at: T1,
        })
        .execute();
      const faq = { question: 'Q', category: null, sort_order: 0, created_at: T1, updated_at: T1 };
      await db
        .insertInto('faqs')
        .values([
          { ...faq, id: 'faq-seeded', answer: OLD_FAQ },
          { ...faq, id: 'faq-edited', answer: `${OLD_FAQ} Call us too.` },
        ])
        .execute();
    });
    try {
      const welcome = await db.selectFrom('email_templates').selectAll().where('id', '=', 'welcome').executeTakeFirstOrThrow();
      expect(welcome.html).toBe(`<p>Hi</p><p style="margin:0 0 16px 0;">${loyaltyRuleText()}</p>`);
      expect(welcome.text).toBe(`Hi\n\n${loyaltyRuleText()}\n`);
      // Still reads as never edited, so a later renewal reaches it too.
      expect(welcome.updated_at).toBe(welcome.created_at);
      const answers = Object.fromEntries((await db.selectFrom('faqs').select(['id', 'answer']).execute()).map((f) => [f.id, f.answer]));
      expect(answers['faq-seeded']).toBe(seedFaqs.find((f) => f.question === 'How can I track my order?')!.answer);
      expect(answers['faq-edited']).toBe(`${OLD_FAQ} Call us too.`);
    } finally {
      await close();
    }
  });

  it('keeps an edited welcome e-mail word for word', async () => {
    const edited = `<p>Our own words: ${OLD_RULE}</p>`;
    const { db, close } = await migratedFrom0037(async (db) => {
      await db
        .insertInto('email_templates')
        .values({
          id: 'welcome',
          name: 'Welcome',
          subject: 'W',
          html: edited,
          text: null,
          variables: '[]',
          built_in: 1,
          created_at: T1,
          updated_at: T2,
        })
        .execute();
    });
    try {
      expect((await db.selectFrom('email_templates').select('html').where('id', '=', 'welcome').executeTakeFirstOrThrow()).html).toBe(
        edited,
      );
    } finally {
      await close();
    }
  });
});
