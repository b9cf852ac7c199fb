import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import { defaultEmailTemplates, SUBSCRIPTION_BLOCK_HTML, SUBSCRIPTION_BLOCK_TEXT } from '../email/default-templates.js';

/**
 * Migration 0042's step for the order confirmation (issue [4/8]): a stored copy gets the
 * subscription block (terms, manage and cancel links) that the built-in template now has.
 */
const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-05T09:30:00.000Z';
const builtIn = defaultEmailTemplates.find((t) => t.id === 'order-confirmation')!;
/** The built-in template as shops stored it before 0042. */
const before = {
  html: builtIn.html.replace(`${SUBSCRIPTION_BLOCK_HTML}\n`, ''),
  text: builtIn.text.replace(`${SUBSCRIPTION_BLOCK_TEXT}\n`, ''),
  variables: builtIn.variables.filter((v) => !v.startsWith('subscription')),
};

async function migratedWith(template: { html: string; text: string | null; variables: string[]; updatedAt: string }) {
  const testDb = await createTestDatabase();
  dbs.push(testDb);
  const opened = openDatabase(testDb.url);
  await migrateUpTo(opened.db, opened.schema, '0041-welcome-and-tracking-faq');
  await opened.db
    .insertInto('email_templates')
    .values({
      id: 'order-confirmation',
      name: 'Order Confirmation',
      subject: builtIn.subject,
      html: template.html,
      text: template.text,
      variables: JSON.stringify(template.variables),
      built_in: 1,
      created_at: T1,
      updated_at: template.updatedAt,
    })
    .execute();
  await migrateToLatest(opened.db, opened.schema);
  const row = await opened.db.selectFrom('email_templates').selectAll().where('id', '=', 'order-confirmation').executeTakeFirstOrThrow();
  await opened.close();
  return row;
}

describe(`migration 0042: the confirmation's subscription block on ${testDialect()}`, () => {
  it('a never-edited copy becomes the built-in template word for word', async () => {
    expect(before.html).not.toContain('subscriptionTerms');
    const row = await migratedWith({ ...before, updatedAt: T1 });
    expect(row.html).toBe(builtIn.html);
    expect(row.text).toBe(builtIn.text);
    expect(JSON.parse(row.variables)).toEqual(builtIn.variables);
  });

  it("an edited copy keeps the owner's words and gets the block after them, still edited", async () => {
    const html = '<html><body><p>Thanks, {{customerName}}!</p></body></html>';
    const row = await migratedWith({ html, text: 'Thanks, {{customerName}}!', variables: ['customerName'], updatedAt: T2 });
    expect(row.html).toBe(`<html><body><p>Thanks, {{customerName}}!</p>${SUBSCRIPTION_BLOCK_HTML}\n</body></html>`);
    expect(row.text).toBe(`Thanks, {{customerName}}!\n${SUBSCRIPTION_BLOCK_TEXT}`);
    expect(JSON.parse(row.variables)).toEqual([
      'customerName',
      'subscriptionTerms',
      'subscriptionAccountNote',
      'subscriptionManageUrl',
      'subscriptionCancelLinks',
    ]);
    expect([row.created_at, row.updated_at]).toEqual([T1, T2]);
  });
});
