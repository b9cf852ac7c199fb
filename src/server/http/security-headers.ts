import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * Security headers on every answer. Scripts only from our own origin (no inline scripts:
 * the server's JSON data blocks are not executable); videos may be embedded from https sites.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self'",
  "connect-src 'self'",
  'frame-src https:',
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  // HSTS means something only over https (browsers ignore it on plain http), and a shop reached
  // at a plain-http address must not claim it.
  const https = config.publicUrl.startsWith('https://');
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    if (https) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    return payload;
  });
}
