import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageQuery } from '../../shared/schemas/paging.js';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import {
  AboutContentInput,
  EmailTemplateInput,
  FaqInput,
  GeneralSettingsInput,
  HomepageContentInput,
  IntegrationSettingsInput,
  SocialSettingsInput,
  TestEmailInput,
  CONTENT_MESSAGES,
} from '../../shared/schemas/content.js';
import {
  adminSettingsView,
  createFaq,
  deleteFaq,
  saveHomepageContent,
  saveIntegrationSettings,
  updateFaq,
  writeSettings,
} from './admin.js';
import { listContactMessages, retryContactForward } from './contact.js';
import { listFaqsForEditing } from './service.js';
import { forwardContactMessagesNow } from './routes.js';
import {
  deleteTemplate,
  listTemplates,
  previewTemplate,
  saveTemplate,
  SAMPLE_TEXT_VARIABLES,
  SAMPLE_VARIABLES,
} from '../email/templates.js';
import { deliverOne, retryEmail } from '../email/delivery.js';
import { queueEmail } from '../email/outbox.js';
import { access } from '../http/access.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const PageQuery = pageQuery(25);

export function registerContentAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, mailer } = deps;

  // ---- Settings (secrets only ever leave masked) ----
  app.get('/api/admin/settings', access.admin, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/general', access.admin, async (req) => {
    await writeSettings(db, parseInput(GeneralSettingsInput, req.body));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/social', access.admin, async (req) => {
    await writeSettings(db, parseInput(SocialSettingsInput, req.body));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/integrations', access.admin, async (req) => {
    // An omitted, empty or masked secret keeps the stored one; null removes it.
    await saveIntegrationSettings(db, parseInput(IntegrationSettingsInput, req.body));
    return { settings: await adminSettingsView(db) };
  });

  // ---- Page content ----
  app.put('/api/admin/content/homepage', access.admin, async (req) => {
    await saveHomepageContent(db, parseInput(HomepageContentInput, req.body));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/content/about', access.admin, async (req) => {
    await writeSettings(db, parseInput(AboutContentInput, req.body));
    return { settings: await adminSettingsView(db) };
  });

  // ---- FAQs (the public list is GET /api/faqs, with its placeholders filled in) ----
  app.get('/api/admin/faqs', access.admin, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { items: await listFaqsForEditing(db) };
  });
  app.post('/api/admin/faqs', access.admin, async (req, reply) =>
    reply.code(201).send({ faq: await createFaq(db, parseInput(FaqInput, req.body)) }),
  );
  app.put('/api/admin/faqs/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    return { faq: await updateFaq(db, id, parseInput(FaqInput, req.body)) };
  });
  app.delete('/api/admin/faqs/:id', access.admin, async (req) => {
    await deleteFaq(db, parseInput(Id, req.params).id);
    return { ok: true };
  });

  // ---- E-mail templates, test sends, the outbox ----
  app.get('/api/admin/email-templates', access.admin, async () => ({ items: await listTemplates(db) }));
  app.post('/api/admin/email-templates', access.admin, async (req) => ({
    template: await saveTemplate(db, parseInput(EmailTemplateInput, req.body)),
  }));
  app.delete('/api/admin/email-templates/:id', access.admin, async (req) => {
    await deleteTemplate(db, parseInput(Id, req.params).id);
    return { ok: true };
  });
  app.get('/api/admin/email-templates/:id/preview', access.admin, async (req) => previewTemplate(db, parseInput(Id, req.params).id));
  app.post('/api/admin/email-templates/test', access.admin, async (req) => {
    const { templateId, testEmail } = parseInput(TestEmailInput, req.body);
    if (!mailer) throw new HttpError(503, CONTENT_MESSAGES.emailConnectionFailed);
    const queued = await queueEmail(db, {
      to: testEmail,
      templateId,
      variables: SAMPLE_VARIABLES,
      textVariables: SAMPLE_TEXT_VARIABLES,
    }).catch((err: Error) => {
      throw new HttpError(404, err.message.includes('does not exist') ? CONTENT_MESSAGES.templateNotFound : err.message);
    });
    const result = await deliverOne(db, mailer, config.mailFrom, queued.id);
    if (result !== 'sent') throw new HttpError(502, CONTENT_MESSAGES.testEmailFailed);
    return { ok: true, message: CONTENT_MESSAGES.testEmailSent };
  });
  app.post('/api/admin/email-outbox/:id/retry', access.admin, async (req) => {
    const ok = await retryEmail(db, parseInput(Id, req.params).id);
    if (!ok) throw new HttpError(404, 'E-mail not found, or already sent');
    return { ok: true };
  });

  // ---- Contact messages (the form itself posts to the store's /api/contact) ----
  const forwardNow = () => forwardContactMessagesNow(app, db);
  app.get('/api/admin/contact-messages', access.admin, async (req) => listContactMessages(db, parseInput(PageQuery, req.query)));
  app.post('/api/admin/contact-messages/:id/retry', access.admin, async (req) => {
    await retryContactForward(db, parseInput(Id, req.params).id);
    forwardNow();
    return { ok: true };
  });
}

/** The shop's own checks of its outside services (integrations surface, admins only). */
export function registerEmailCheckRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { mailer } = deps;
  /** A real SMTP check (EHLO and, when configured, authentication). Admins only. */
  app.get('/api/email/test-connection', access.admin, async (req, reply) => {
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
}
