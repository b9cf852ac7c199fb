import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageQuery } from '../../shared/schemas/paging.js';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import {
  AboutContentInput,
  ContactInput,
  EmailTemplateInput,
  FaqInput,
  GeneralSettingsInput,
  HomepageContentInput,
  IntegrationSettingsInput,
  SocialSettingsInput,
  TestEmailInput,
  CONTENT_MESSAGES,
} from '../../shared/schemas/content.js';
import { adminSettingsView, createFaq, deleteFaq, saveHomepageContent, saveIntegrationSettings, updateFaq, writeSettings } from './admin.js';
import { forwardDueMessages, listContactMessages, retryContactForward, submitContact } from './contact.js';
import { deleteTemplate, listTemplates, previewTemplate, saveTemplate, SAMPLE_TEXT_VARIABLES, SAMPLE_VARIABLES } from '../email/templates.js';
import { deliverOne, retryEmail } from '../email/delivery.js';
import { queueEmail } from '../email/outbox.js';
import { requireAdmin } from '../http/auth.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const PageQuery = pageQuery(25);

export function registerContentAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, mailer } = deps;

  // ---- Settings (secrets only ever leave masked) ----
  app.get('/api/admin/settings', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/general', async (req) => {
    await writeSettings(db, parseInput(GeneralSettingsInput, req.body));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/social', async (req) => {
    await writeSettings(db, parseInput(SocialSettingsInput, req.body));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/integrations', async (req) => {
    // An omitted, empty or masked secret keeps the stored one; null removes it.
    await saveIntegrationSettings(db, parseInput(IntegrationSettingsInput, req.body));
    return { settings: await adminSettingsView(db) };
  });

  // ---- Page content ----
  app.put('/api/admin/content/homepage', async (req) => {
    await saveHomepageContent(db, parseInput(HomepageContentInput, req.body));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/content/about', async (req) => {
    await writeSettings(db, parseInput(AboutContentInput, req.body));
    return { settings: await adminSettingsView(db) };
  });

  // ---- FAQs (the public list is GET /api/faqs) ----
  app.post('/api/admin/faqs', async (req, reply) => reply.code(201).send({ faq: await createFaq(db, parseInput(FaqInput, req.body)) }));
  app.put('/api/admin/faqs/:id', async (req) => {
    const { id } = parseInput(Id, req.params);
    return { faq: await updateFaq(db, id, parseInput(FaqInput, req.body)) };
  });
  app.delete('/api/admin/faqs/:id', async (req) => {
    await deleteFaq(db, parseInput(Id, req.params).id);
    return { ok: true };
  });

  // ---- E-mail templates, test sends, the outbox ----
  app.get('/api/admin/email-templates', async () => ({ items: await listTemplates(db) }));
  app.post('/api/admin/email-templates', async (req) => ({ template: await saveTemplate(db, parseInput(EmailTemplateInput, req.body)) }));
  app.delete('/api/admin/email-templates/:id', async (req) => {
    await deleteTemplate(db, parseInput(Id, req.params).id);
    return { ok: true };
  });
  app.get('/api/admin/email-templates/:id/preview', async (req) => previewTemplate(db, parseInput(Id, req.params).id));
  app.post('/api/admin/email-templates/test', async (req) => {
    const { templateId, testEmail } = parseInput(TestEmailInput, req.body);
    if (!mailer) throw new HttpError(503, CONTENT_MESSAGES.emailConnectionFailed);
    const queued = await queueEmail(db, { to: testEmail, templateId, variables: SAMPLE_VARIABLES, textVariables: SAMPLE_TEXT_VARIABLES }).catch((err: Error) => {
      throw new HttpError(404, err.message.includes('does not exist') ? CONTENT_MESSAGES.templateNotFound : err.message);
    });
    const result = await deliverOne(db, mailer, config.mailFrom, queued.id);
    if (result !== 'sent') throw new HttpError(502, CONTENT_MESSAGES.testEmailFailed);
    return { ok: true, message: CONTENT_MESSAGES.testEmailSent };
  });
  app.post('/api/admin/email-outbox/:id/retry', async (req) => {
    const ok = await retryEmail(db, parseInput(Id, req.params).id);
    if (!ok) throw new HttpError(404, 'E-mail not found, or already sent');
    return { ok: true };
  });

  /** A real SMTP check (EHLO and, when configured, authentication). Admins only. */
  app.get('/api/email/test-connection', async (req, reply) => {
    requireAdmin(req);
    reply.header('Cache-Control', 'no-store');
    if (!mailer) return { connected: false, configured: false, error: CONTENT_MESSAGES.emailConnectionFailed };
    try {
      await mailer.verify();
      return { connected: true, configured: true };
    } catch (err) {
      req.log.warn({ err }, 'SMTP check failed');
      return { connected: false, configured: true, error: CONTENT_MESSAGES.emailConnectionFailed };
    }
  });

  // ---- Contact form ----
  // Forwarding starts right away in the background; the periodic worker retries what fails.
  const forwardNow = () => {
    forwardDueMessages(db).catch((err: unknown) => app.log.error({ err }, 'contact forwarding failed'));
  };
  app.post('/api/contact', async (req) => {
    const input = parseInput(ContactInput, req.body);
    const { stored } = await submitContact(db, input, req.ip);
    if (stored) forwardNow();
    return { ok: true };
  });
  app.get('/api/admin/contact-messages', async (req) => listContactMessages(db, parseInput(PageQuery, req.query)));
  app.post('/api/admin/contact-messages/:id/retry', async (req) => {
    await retryContactForward(db, parseInput(Id, req.params).id);
    forwardNow();
    return { ok: true };
  });
}
