import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { defaultEmailTemplates } from './default-templates.js';
import { unescapedOutputMessage } from './template-variables.js';
import { renderTemplate } from './render.js';

/**
 * Three braces draw a variable as HTML. Every variable may hold what a visitor typed (a name, an
 * address, a message), so the editor refuses `{{{…}}}` and `{{&…}}` with a sentence naming the
 * variable, and rendering never draws visitor text unescaped, even from a template stored before.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const confirmation = defaultEmailTemplates.find((x) => x.id === 'order-confirmation')!;
const body = { id: 'order-confirmation', name: confirmation.name, subject: confirmation.subject, variables: confirmation.variables };

describe('unescaped output in e-mail templates', () => {
  it('refuses {{{customerName}}} and {{&customerName}} with a sentence naming the variable, and keeps the stored template', async () => {
    const before = (await admin.get('/api/admin/email-templates')).json().items.find((x: { id: string }) => x.id === 'order-confirmation');
    for (const html of [
      '<p>Hi {{{customerName}}}</p>',
      '<p>Hi {{& customerName}}</p>',
      '{{#if customerName}}<p>{{{customerName}}}</p>{{/if}}',
    ]) {
      const res = await admin.post('/api/admin/email-templates', { ...body, html });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(unescapedOutputMessage(['customerName']));
      expect(res.json().error).toContain('{{{customerName}}}');
      expect(res.json().error).toContain('{{customerName}}');
    }
    // In the subject and the text body too, and every name found is named.
    const text = await admin.post('/api/admin/email-templates', {
      ...body,
      html: confirmation.html,
      text: '{{{orderNumber}}} {{{customerName}}}',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toBe(unescapedOutputMessage(['orderNumber', 'customerName']));
    const after = (await admin.get('/api/admin/email-templates')).json().items.find((x: { id: string }) => x.id === 'order-confirmation');
    expect(after).toEqual(before);
  });

  it("still saves the shop's own pre-rendered pieces with three braces, and two braces anywhere", async () => {
    const legacy = await admin.post('/api/admin/email-templates', {
      ...body,
      html: '<div>{{{itemsList}}}</div><p>Hi {{customerName}}</p>',
    });
    expect(legacy.statusCode).toBe(200);
  });

  it('draws a visitor’s text escaped from a template stored with three braces before they were refused', async () => {
    await t.db
      .updateTable('email_templates')
      .set({ html: '<p>Hi {{{customerName}}}, {{&customerName}}</p><div>{{{itemsList}}}</div>', text: null })
      .where('id', '=', 'order-confirmation')
      .execute();
    const preview = await admin.get('/api/admin/email-templates/order-confirmation/preview');
    expect(preview.statusCode).toBe(200);
    const mail = renderTemplate(
      { subject: 's', html: '<p>Hi {{{customerName}}}, {{&customerName}}</p><div>{{{itemsList}}}</div>', text: null },
      { customerName: '<img src=x onerror=alert(1)>', itemsList: '<tr><td>Cloth</td></tr>' },
    );
    expect(mail.html).toBe(
      '<p>Hi &lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;, &lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;</p><div><tr><td>Cloth</td></tr></div>',
    );
    expect(preview.json().html).not.toMatch(/\{\{/);
  });
});
