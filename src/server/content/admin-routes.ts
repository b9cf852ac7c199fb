import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import {
  AboutContentInput,
  FaqInput,
  GeneralSettingsInput,
  HomepageContentInput,
  IntegrationSettingsInput,
  SocialSettingsInput,
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
import {
  contactMessageCounts,
  forwardContactMessagesNow,
  listContactMessages,
  retryContactForward,
  setContactMessageState,
} from './contact.js';
import { ContactMessagesQuery, ContactMessageStateInput } from '../../shared/schemas/contact-messages.js';
import { listFaqsForEditing } from './service.js';
import { access } from '../http/access.js';
import { auditBySession } from '../audit/audit.js';
import { TimeZoneSettingsInput } from '../../shared/schemas/reports.js';
import { NotificationSettingsInput } from '../../shared/schemas/shop-notifications.js';

const Id = z.object({ id: z.string().min(1).max(100) });

export async function registerContentAdminRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  // ---- Settings (secrets only ever leave masked) ----
  app.get('/api/admin/settings', access.admin, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/general', access.admin, async (req) => {
    await writeSettings(db, parseInput(GeneralSettingsInput, req.body), auditBySession(req.session));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/social', access.admin, async (req) => {
    await writeSettings(db, parseInput(SocialSettingsInput, req.body), auditBySession(req.session));
    return { settings: await adminSettingsView(db) };
  });
  // The shop's time zone: its days in reports, the order list's period and the CSV dates (orders/shop-calendar.ts).
  app.put('/api/admin/settings/time-zone', access.admin, async (req) => {
    await writeSettings(db, parseInput(TimeZoneSettingsInput, req.body), auditBySession(req.session));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/settings/integrations', access.admin, async (req) => {
    // An omitted, empty or masked secret keeps the stored one; null removes it.
    await saveIntegrationSettings(db, parseInput(IntegrationSettingsInput, req.body), auditBySession(req.session));
    return { settings: await adminSettingsView(db) };
  });

  // The shop's own e-mails (a paid order, a contact message), each switched on or off (email/shop-notifications.ts).
  app.put('/api/admin/settings/notifications', access.admin, async (req) => {
    await writeSettings(db, parseInput(NotificationSettingsInput, req.body), auditBySession(req.session));
    return { settings: await adminSettingsView(db) };
  });

  // ---- Page content ----
  app.put('/api/admin/content/homepage', access.admin, async (req) => {
    await saveHomepageContent(db, parseInput(HomepageContentInput, req.body), auditBySession(req.session));
    return { settings: await adminSettingsView(db) };
  });
  app.put('/api/admin/content/about', access.admin, async (req) => {
    await writeSettings(db, parseInput(AboutContentInput, req.body), auditBySession(req.session));
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

  // ---- Contact messages (the form itself posts to the store's /api/contact) ----
  app.get('/api/admin/contact-messages', access.admin, async (req) => listContactMessages(db, parseInput(ContactMessagesQuery, req.query)));
  app.get('/api/admin/contact-messages/counts', access.admin, async () => contactMessageCounts(db));
  app.patch('/api/admin/contact-messages/:id/state', access.admin, async (req) => ({
    message: await setContactMessageState(db, parseInput(Id, req.params).id, parseInput(ContactMessageStateInput, req.body).state),
  }));
  app.post('/api/admin/contact-messages/:id/retry', access.admin, async (req) => {
    await retryContactForward(db, parseInput(Id, req.params).id);
    forwardContactMessagesNow(db, app.log);
    return { ok: true };
  });
}
