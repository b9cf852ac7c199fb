import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { EmailTemplateInput, TestEmailInput, CONTENT_MESSAGES } from '../../shared/schemas/content.js';
import { listOutbox, queueEmail } from './outbox.js';
import {
  deleteTemplate,
  listTemplates,
  previewTemplate,
  restoreDefaultTemplate,
  saveTemplate,
  SAMPLE_TEXT_VARIABLES,
  SAMPLE_VARIABLES,
} from './templates.js';
import { TEST_EMAIL_SUBJECT_PREFIX } from '../../shared/schemas/content.js';
import { deliverOne, retryEmail } from './delivery.js';
import { access } from '../http/access.js';
import { auditTemplateEdit } from '../audit/audit.js';

const OutboxQuery = z
  .object({
    page: z.coerce.number({ message: 'page must be a number' }).int().min(1, 'page must be at least 1').default(1),
    pageSize: z.coerce
      .number({ message: 'pageSize must be a number' })
      .int()
      .min(1, 'pageSize must be at least 1')
      .max(100, 'pageSize cannot exceed 100')
      .default(25),
  })
  .strict();

const Id = z.object({ id: z.string().min(1, 'id is required').max(100, 'id cannot exceed 100 characters') });

/** The back office's e-mail: templates, test sends, the outbox (admin surface). */
export async function registerEmailRoutes(app: FastifyInstance, { db, config, mailer }: AppDeps): Promise<void> {
  app.get('/api/admin/email-templates', access.admin, async () => ({ items: await listTemplates(db) }));
  app.post('/api/admin/email-templates', access.admin, async (req) => {
    const template = await saveTemplate(db, parseInput(EmailTemplateInput, req.body));
    await auditTemplateEdit(db, req.session, template.id, 'saved');
    return { template };
  });
  app.post('/api/admin/email-templates/:id/restore-default', access.admin, async (req) => {
    const template = await restoreDefaultTemplate(db, parseInput(Id, req.params).id);
    await auditTemplateEdit(db, req.session, template.id, 'restored');
    return { template };
  });
  app.delete('/api/admin/email-templates/:id', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    await deleteTemplate(db, id);
    await auditTemplateEdit(db, req.session, id, 'deleted');
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
      // A test in the owner's inbox must not pass for a real order's e-mail.
      subjectPrefix: TEST_EMAIL_SUBJECT_PREFIX,
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
  app.get('/api/admin/email-outbox', access.admin, async (req) => listOutbox(db, parseInput(OutboxQuery, req.query)));
}
