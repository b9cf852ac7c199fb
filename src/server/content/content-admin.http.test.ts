import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { CONTACT_MISSING, CONTENT_MESSAGES } from '../../shared/schemas/content.js';
import { forwardDueMessages } from './contact.js';
import { freePort } from '../test/free-port.js';

let smtpPort: number;
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
let noSmtp: TestApp;
let admin: TestClient;
beforeAll(async () => {
  smtpPort = await freePort();
  await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', () => r()));
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
  noSmtp = await createTestApp();
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await noSmtp?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

describe('settings and page content', () => {
  it('saves general and social settings, and never sends secrets back in full', async () => {
    const res = await admin.request('PUT', '/api/admin/settings/general', {
      contact_email: 'hi@shop.example',
      contact_phone: '(555) 000-1111',
      contact_hours: 'Mon-Sat, 8am-6pm EST',
    });
    expect(res.json().settings.contact_hours).toBe('Mon-Sat, 8am-6pm EST');
    expect(
      (await admin.request('PUT', '/api/admin/settings/general', { contact_email: 'nope', contact_phone: '', contact_hours: '' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await admin.request('PUT', '/api/admin/settings/social', { social_media_facebook: 'facebook.com/x', social_media_youtube: '' })
      ).json().error,
    ).toContain('https://');
    await admin.request('PUT', '/api/admin/settings/social', {
      social_media_facebook: 'https://facebook.com/ecoclean',
      social_media_youtube: '',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).json().settings.social_media_facebook).toBe(
      'https://facebook.com/ecoclean',
    );

    await admin.request('PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: 'key-1234567890',
      shipstation_api_secret: 'secret-abcdef',
      shipstation_enabled: true,
    });
    const view = (await admin.get('/api/admin/settings')).json().settings;
    expect(view.shipstation_api_key).toBe('••••7890');
    expect(JSON.stringify(view)).not.toContain('key-1234567890');
    // Saving the masked value back keeps the stored secret.
    await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_api_key: '••••7890', shipstation_api_version: 'v1' });
    const row = await t.db.selectFrom('settings').select('value').where('key', '=', 'shipstation_api_key').executeTakeFirstOrThrow();
    expect(row.value).toBe('key-1234567890');
    expect((await new TestClient(t.app).get('/api/admin/settings')).statusCode).toBe(401);
  });

  it('keeps a stored secret when the field comes back empty, omitted or masked, and removes it on null', async () => {
    const secretRow = async (key: string) =>
      (await t.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value;
    await admin.request('PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: 'keep-me-key-9876',
      shipstation_api_secret: 'keep-me-secret-5432',
    });
    const emptied = await admin.request('PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: '',
      shipstation_api_secret: '',
      shipstation_enabled: false,
    });
    expect(emptied.statusCode).toBe(200);
    expect(emptied.json().settings).toMatchObject({
      shipstation_api_key: '••••9876',
      shipstation_api_secret: '••••5432',
      shipstation_enabled: 'false',
    });
    await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_api_version: 'v2' });
    expect(await secretRow('shipstation_api_key')).toBe('keep-me-key-9876');
    expect(await secretRow('shipstation_api_secret')).toBe('keep-me-secret-5432');

    const cleared = await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_api_secret: null });
    expect(cleared.json().settings).toMatchObject({ shipstation_api_key: '••••9876', shipstation_api_secret: '' });
    expect(await secretRow('shipstation_api_secret')).toBe('');
    expect(await secretRow('shipstation_api_key')).toBe('keep-me-key-9876');

    // A short secret is not given away by its "last four".
    await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_api_secret: 'abc' });
    expect((await admin.get('/api/admin/settings')).json().settings.shipstation_api_secret).toBe('••••');
    expect((await admin.request('PUT', '/api/admin/settings/integrations', { power_automate_endpoint: 'not a url' })).statusCode).toBe(400);
  });

  it('sends no long cache for the settings and FAQs the storefront reads', async () => {
    for (const url of ['/api/settings', '/api/faqs']) {
      expect((await t.app.inject({ method: 'GET', url })).headers['cache-control']).toBe('no-cache');
    }
    expect((await admin.get('/api/admin/settings')).headers['cache-control']).toBe('no-store');
  });

  it('saves every About field, refuses unsafe image and video links, and converts watch links', async () => {
    const about = {
      about_title: 'Our Little Shop',
      about_hero_image: '/uploads/content/hero.webp',
      about_mission_title: 'Mission',
      about_mission_content: 'Less waste.\n\nMore cleaning.',
      about_mission_quote: 'Buy once.',
      about_history_title: 'History',
      about_history_content: 'Kitchen table.',
      about_values_title: 'Values',
      about_values_content: 'Honesty.',
      about_commitment_title: 'Commitment',
      about_commitment_content: 'Recyclable boxes.',
    };
    expect((await admin.request('PUT', '/api/admin/content/about', about)).statusCode).toBe(200);
    const pub = (await t.app.inject({ method: 'GET', url: '/api/settings' })).json().settings;
    expect(pub).toMatchObject(about);
    const page = await t.app.inject({ method: 'GET', url: '/about', headers: { accept: 'text/html' } });
    expect(page.body).toContain('Our Little Shop');
    await admin.request('PUT', '/api/admin/settings/general', {
      contact_email: ' owner@shop.example ',
      contact_phone: '',
      contact_hours: 'Sundays only',
    });
    const contact = await t.app.inject({ method: 'GET', url: '/contact', headers: { accept: 'text/html' } });
    expect(contact.body).toContain('Sundays only');
    expect(contact.body).toContain('owner@shop.example');

    expect((await admin.request('PUT', '/api/admin/content/about', { ...about, about_hero_image: 'javascript:alert(1)' })).statusCode).toBe(
      400,
    );
    const home = {
      homepage_hero_title: 'Hero',
      homepage_hero_subtitle: 'Sub',
      homepage_hero_description: 'Desc',
      homepage_about_title: 'About',
      homepage_about_description: 'Text',
    };
    expect(
      (await admin.request('PUT', '/api/admin/content/homepage', { ...home, hero_video_url: 'javascript:alert(1)' })).json().error,
    ).toContain('https://');
    expect(
      (await admin.request('PUT', '/api/admin/content/homepage', { ...home, homepage_about_image: '//evil.example/x.png' })).statusCode,
    ).toBe(400);
    const watch = await admin.request('PUT', '/api/admin/content/homepage', {
      ...home,
      hero_video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42',
    });
    expect(watch.json().settings.hero_video_url).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    const noVideo = await admin.request('PUT', '/api/admin/content/homepage', { ...home, hero_video_url: '' });
    expect(noVideo.json().settings.hero_video_url).toBe('');
  });

  it('requires the homepage fields, stores the video in embed form, and the storefront shows it at once', async () => {
    const body = {
      homepage_hero_title: 'Fresh Start',
      homepage_hero_subtitle: 'Sub',
      homepage_hero_description: 'Desc',
      homepage_about_title: 'About us',
      homepage_about_description: 'We clean.',
      hero_video_url: 'https://youtu.be/dQw4w9WgXcQ',
    };
    expect((await admin.request('PUT', '/api/admin/content/homepage', { ...body, homepage_hero_title: '' })).json().error).toContain(
      'Hero title is required',
    );
    const ok = await admin.request('PUT', '/api/admin/content/homepage', body);
    expect(ok.json().settings.hero_video_url).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(page.body).toContain('Fresh Start');
    expect((await admin.request('PUT', '/api/admin/content/about', { about_title: '' })).json().error).toContain('Title is required');
    expect((await admin.request('PUT', '/api/admin/content/about', { about_title: 'Our Story' })).statusCode).toBe(200);
  });

  it('manages FAQs', async () => {
    const created = await admin.post('/api/admin/faqs', { question: 'Do you ship to Alaska?', answer: 'Yes.', category: 'No Category' });
    expect(created.statusCode).toBe(201);
    const faq = created.json().faq;
    expect(faq.category).toBeNull();
    expect((await admin.post('/api/admin/faqs', { question: '', answer: 'x' })).json().error).toContain('Question is required');
    expect(
      (
        await admin.request('PUT', `/api/admin/faqs/${faq.id}`, { question: 'Alaska?', answer: 'Yes, 7-10 days.', category: 'Shipping' })
      ).json().faq.category,
    ).toBe('Shipping');
    const pub = (await t.app.inject({ method: 'GET', url: '/api/faqs' })).json().items;
    expect(pub.find((f: { id: string }) => f.id === faq.id).question).toBe('Alaska?');
    expect((await t.app.inject({ method: 'GET', url: '/faq', headers: { accept: 'text/html' } })).body).toContain('Yes, 7-10 days.');
    expect((await admin.request('DELETE', `/api/admin/faqs/${faq.id}`)).statusCode).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/faqs/${faq.id}`)).json().error).toBe(CONTENT_MESSAGES.faqNotFound);
  });
});

describe('e-mail templates', () => {
  it('lists, previews with sample data, saves, refuses broken templates and built-in deletion, deletes custom ones', async () => {
    const list = (await admin.get('/api/admin/email-templates')).json().items;
    expect(list.map((x: { id: string }) => x.id)).toEqual(
      expect.arrayContaining([
        'order-confirmation',
        'order-status-update',
        'shipping-notification',
        'welcome',
        'password-reset',
        'loyalty-reward',
      ]),
    );
    const preview = (await admin.get('/api/admin/email-templates/order-confirmation/preview')).json();
    expect(preview.subject).toContain('A1B2C3D4');
    expect(preview.html).toContain('Jamie Sample');
    const saved = await admin.post('/api/admin/email-templates', {
      id: 'spring-news',
      name: 'Spring news',
      subject: 'Hello {{customerName}}',
      html: '<p>Hi {{customerName}}</p>',
      variables: ['customerName'],
    });
    expect(saved.json().template).toMatchObject({ id: 'spring-news', builtIn: false, variables: ['customerName'] });
    expect(
      (await admin.post('/api/admin/email-templates', { id: 'broken', name: 'B', subject: 'x', html: '<p>{{#if}}</p>' })).statusCode,
    ).toBe(400);
    expect((await admin.request('DELETE', '/api/admin/email-templates/welcome')).statusCode).toBe(409);
    expect((await admin.request('DELETE', '/api/admin/email-templates/spring-news')).statusCode).toBe(200);
  });

  it('sends a test e-mail through SMTP, checks the connection, and retries an outbox row', async () => {
    const res = await admin.post('/api/admin/email-templates/test', {
      templateId: 'shipping-notification',
      testEmail: 'owner@example.com',
    });
    expect(res.json()).toEqual({ ok: true, message: CONTENT_MESSAGES.testEmailSent });
    expect(received.some((m) => m.includes('To: owner@example.com'))).toBe(true);
    expect((await admin.get('/api/email/test-connection')).json()).toMatchObject({ connected: true });

    const noAdmin = new TestClient(noSmtp.app);
    await noAdmin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await noAdmin.get('/api/email/test-connection')).json()).toMatchObject({
      connected: false,
      error: CONTENT_MESSAGES.emailConnectionFailed,
    });
    const noSend = await noAdmin.post('/api/admin/email-templates/test', { templateId: 'welcome', testEmail: 'owner@example.com' });
    expect(noSend.statusCode).toBe(503);
    expect(noSend.json().error).toBe(CONTENT_MESSAGES.emailConnectionFailed);

    const customer = new TestClient(t.app);
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await customer.get('/api/email/test-connection')).statusCode).toBe(403);

    const failed = await t.db
      .insertInto('email_outbox')
      .values({
        id: 'mail_retry_me',
        to_address: 'x@example.com',
        subject: 's',
        html: 'h',
        text: 't',
        template_id: null,
        status: 'failed',
        attempts: 10,
        last_error: 'boom',
        next_attempt_at: '2030-01-01T00:00:00.000Z',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        sent_at: null,
      })
      .execute();
    expect(failed).toBeTruthy();
    expect((await admin.post('/api/admin/email-outbox/mail_retry_me/retry')).statusCode).toBe(200);
    const row = await t.db.selectFrom('email_outbox').select(['status']).where('id', '=', 'mail_retry_me').executeTakeFirstOrThrow();
    expect(row.status).toBe('queued');
  });
});

describe('contact form', () => {
  const message = { name: 'Rita', email: 'rita@example.com', subject: 'Refills', message: 'Do you sell refills?', elapsedMs: 5000 };

  it('stores messages, quietly drops bots, rate-limits per address', async () => {
    const c = new TestClient(t.app, '10.9.0.1');
    expect((await c.post('/api/contact', message)).json()).toEqual({ ok: true });
    expect((await c.post('/api/contact', { ...message, elapsedMs: 300 })).json()).toEqual({ ok: true });
    expect((await c.post('/api/contact', { ...message, website: 'spam' })).json()).toEqual({ ok: true });
    const stored = await t.db.selectFrom('contact_messages').selectAll().where('email', '=', 'rita@example.com').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.source).toBe('website-contact-form');
    expect((await c.post('/api/contact', { ...message, subject: '' })).json().error).toContain(CONTACT_MISSING.subject);
    const flood = new TestClient(t.app, '10.9.0.2');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await flood.post('/api/contact', message)).statusCode);
    expect(codes.at(-1)).toBe(429);
  });

  it('forwards to the workflow endpoint, keeping messages while it is down', async () => {
    const got: Record<string, string>[] = [];
    let up = false;
    const endpoint = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        if (!up) {
          res.writeHead(503).end();
          return;
        }
        got.push(JSON.parse(b));
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/flow`;
    try {
      await admin.request('PUT', '/api/admin/settings/integrations', { power_automate_endpoint: url, power_automate_enabled: true });
      await new TestClient(t.app, '10.9.1.1').post('/api/contact', { ...message, email: 'fwd@example.com' });
      // The server tries at once, in the background; the endpoint is down, so the message waits.
      const stored = () => t.db.selectFrom('contact_messages').selectAll().where('email', '=', 'fwd@example.com').executeTakeFirstOrThrow();
      await expect.poll(async () => (await stored()).forward_attempts).toBe(1);
      expect(await forwardDueMessages(t.db)).toEqual({ forwarded: 0, failed: 0 });
      let row = await stored();
      expect(row).toMatchObject({ forward_status: 'pending', forward_attempts: 1, last_error: 'The workflow endpoint answered 503' });
      up = true;
      const later = () => new Date(Date.now() + 10 * 60_000);
      expect(await forwardDueMessages(t.db, fetch, later)).toEqual({ forwarded: 1, failed: 0 });
      row = await t.db.selectFrom('contact_messages').selectAll().where('email', '=', 'fwd@example.com').executeTakeFirstOrThrow();
      expect(row.forward_status).toBe('forwarded');
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({
        name: 'Rita',
        email: 'fwd@example.com',
        subject: 'Refills',
        message: 'Do you sell refills?',
        source: 'website-contact-form',
      });
      expect(Date.parse(got[0]!.timestamp!)).not.toBeNaN();
      const list = (await admin.get('/api/admin/contact-messages')).json();
      expect(list.items.some((m: { email: string }) => m.email === 'fwd@example.com')).toBe(true);
    } finally {
      await new Promise<void>((r) => endpoint.close(() => r()));
    }
  });
});
