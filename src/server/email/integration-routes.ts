import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { CONTENT_MESSAGES } from '../../shared/schemas/content.js';

/** The shop's own checks of its outside services (integrations surface, admins only). */
export async function registerEmailCheckRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
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
