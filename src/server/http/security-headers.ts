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

/** The headers every answer carries; HSTS only when the shop is reached over https. */
export function securityHeaders(config: Pick<Config, 'publicUrl'>): Record<string, string> {
  // HSTS means something only over https (browsers ignore it on plain http), and a shop reached
  // at a plain-http address must not claim it.
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    ...(config.publicUrl.startsWith('https://') ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  const headers = securityHeaders(config);
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.headers(headers);
    return payload;
  });
}
