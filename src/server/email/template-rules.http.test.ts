import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { freePort } from '../test/free-port.js';
import { defaultEmailTemplates } from './default-templates.js';
import { NO_DEFAULT_TO_RESTORE } from './templates.js';

const received: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _s, cb) {
    let d = '';
    stream.on('data', (c) => (d += c));
    stream.on('end', () => {
      received.push(d);
      cb();
    });
  },
});

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  const port = await freePort();
  await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', () => r()));
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const confirmation = defaultEmailTemplates.find((x) => x.id === 'order-confirmation')!;

describe('e-mail templates: unknown variables, restoring the default, test sends', () => {
  it('refuses an unknown {{variable}} with the list of the known ones; blocks and item fields still save', async () => {
    const body = { id: 'order-confirmation', name: confirmation.name, subject: 'Order {{ordernumber}}', html: confirmation.html };
    const bad = await admin.post('/api/admin/email-templates', { ...body, variables: confirmation.variables });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(
      `Unknown variable {{ordernumber}}. This template can use: ${confirmation.variables.map((v) => `{{${v}}}`).join(', ')}.`,
    );
    // Listing it does not make the shop send it: a built-in template's variables are the shop's.
    expect((await admin.post('/api/admin/email-templates', { ...body, variables: ['ordernumber'] })).statusCode).toBe(400);
    const field = await admin.post('/api/admin/email-templates', {
      ...body,
      subject: confirmation.subject,
      html: '{{#each items}}<p>{{sku}}</p>{{/each}}',
    });
    expect(field.statusCode).toBe(400);
    expect(field.json().error).toContain('Unknown field {{sku}} inside {{#each items}}');

    const edited = await admin.post('/api/admin/email-templates', {
      ...body,
      subject: 'Your order #{{orderNumber}} is in',
      html: '{{#each items}}<p>{{name}} × {{quantity}}{{#if isFreeGift}} (gift){{/if}}</p>{{/each}}<p>{{total}}</p>',
      variables: ['whatever'],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().template).toMatchObject({ subject: 'Your order #{{orderNumber}} is in', variables: confirmation.variables });

    // The owner's own template: what it lists.
    const own = { id: 'spring-note', name: 'Spring', subject: 'Hi {{customerName}}', html: '<p>{{couponCode}}</p>' };
    const ownBad = await admin.post('/api/admin/email-templates', { ...own, variables: ['customerName'] });
    expect(ownBad.statusCode).toBe(400);
    expect(ownBad.json().error).toBe('Unknown variable {{couponCode}}. This template can use: {{customerName}}.');
    expect((await admin.post('/api/admin/email-templates', { ...own, variables: ['customerName', 'couponCode'] })).statusCode).toBe(200);
  });

  it('restores a built-in template to its default text, as an unedited copy; refuses for the owner’s own and unknown ids', async () => {
    await admin.post('/api/admin/email-templates', {
      id: 'welcome',
      name: 'Hello there',
      subject: 'Hey {{customerName}}',
      html: '<p>Changed</p>',
      variables: [],
    });
    const welcome = defaultEmailTemplates.find((x) => x.id === 'welcome')!;
    const res = await admin.post('/api/admin/email-templates/welcome/restore-default');
    expect(res.statusCode).toBe(200);
    expect(res.json().template).toMatchObject({
      name: welcome.name,
      subject: welcome.subject,
      html: welcome.html,
      text: welcome.text,
      variables: welcome.variables,
      builtIn: true,
    });
    const row = await t.db
      .selectFrom('email_templates')
      .select(['created_at', 'updated_at'])
      .where('id', '=', 'welcome')
      .executeTakeFirstOrThrow();
    expect(row.updated_at).toBe(row.created_at);

    const own = await admin.post('/api/admin/email-templates/spring-note/restore-default');
    expect(own.statusCode).toBe(409);
    expect(own.json().error).toBe(NO_DEFAULT_TO_RESTORE);
    const none = await admin.post('/api/admin/email-templates/no-such-template/restore-default');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('Template not found');
    expect((await new TestClient(t.app).post('/api/admin/email-templates/welcome/restore-default')).statusCode).toBe(401);
  });

  it('a test send’s subject starts with [TEST], in the outbox and in the inbox', async () => {
    const res = await admin.post('/api/admin/email-templates/test', { templateId: 'order-confirmation', testEmail: 'owner@example.com' });
    expect(res.statusCode).toBe(200);
    const row = await t.db
      .selectFrom('email_outbox')
      .select(['subject', 'status'])
      .where('to_address', '=', 'owner@example.com')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ subject: '[TEST] Your order #A1B2C3D4 is in', status: 'sent' });
    expect(received.some((m) => m.includes('Subject: [TEST] Your order #A1B2C3D4 is in'))).toBe(true);
  });
});
