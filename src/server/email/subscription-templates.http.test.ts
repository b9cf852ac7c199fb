import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { makeSubscription } from '../test/subscriptions.js';
import { defaultEmailTemplates } from './default-templates.js';
import { SAMPLE_VARIABLES } from './templates.js';

/**
 * Issue [5/8]: "The customer's and the shop's e-mails for subscriptions are editable templates like
 * the others": each is listed in the back office, previews with every variable filled, and an edit is
 * what the customer then receives.
 */
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.64.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const subscriptionTemplates = defaultEmailTemplates.filter((x) => x.id.startsWith('subscription-') || x.id === 'shop-subscription-alert');

describe(`subscription e-mail templates on ${testDialect()}`, () => {
  it('are the ones the issue names, and more', () => {
    const ids = subscriptionTemplates.map((x) => x.id);
    for (const id of [
      'subscription-renewal-reminder',
      'subscription-payment-failed',
      'subscription-card-updated',
      'subscription-skipped',
      'subscription-paused',
      'subscription-cancelled',
      'subscription-price-change',
      'subscription-changed',
      'subscription-next-delivery',
      'subscription-reactivated',
    ])
      expect(ids).toContain(id);
  });

  it('each is listed, previews with every variable it declares filled in, and has a sample for each', async () => {
    const listed = (await admin.get('/api/admin/email-templates')).json().items as { id: string }[];
    for (const tpl of subscriptionTemplates) {
      expect(listed.map((x) => x.id)).toContain(tpl.id);
      for (const v of tpl.variables) expect(SAMPLE_VARIABLES[v], `${tpl.id}: sample for {{${v}}}`).toBeDefined();
      const preview = await admin.get(`/api/admin/email-templates/${tpl.id}/preview`);
      expect(preview.statusCode, tpl.id).toBe(200);
      const body = JSON.stringify(preview.json());
      expect(body, tpl.id).not.toContain('{{');
    }
  });

  it('an edit is what the customer receives next', async () => {
    const paused = defaultEmailTemplates.find((x) => x.id === 'subscription-paused')!;
    const saved = await admin.post('/api/admin/email-templates', {
      id: paused.id,
      name: paused.name,
      subject: 'Taking a break until {{resumeDate}}',
      html: paused.html,
      text: paused.text,
      variables: paused.variables,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const s = await makeSubscription(t.db, { nextRenewalAt: new Date(Date.now() + 10 * 86_400_000).toISOString() });
    const me = new TestClient(t.app, '10.64.0.2');
    expect((await me.signIn(s.email, 'Test-Password-1')).statusCode).toBe(200);
    const until = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    expect((await me.post(`/api/account/subscriptions/${s.id}/pause`, { until })).statusCode).toBe(200);
    const mail = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('to_address', '=', s.email)
      .where('template_id', '=', 'subscription-paused')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/^Taking a break until \w+ \d+, \d{4}$/);
  });
});
