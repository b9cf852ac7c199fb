import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { hashToken, newToken } from './tokens.js';

/**
 * A random, HttpOnly per-browser token. Guests' orders and coupon uses are tied to its hash, so
 * "the browser that created it" can read its order and a guest device uses a coupon once.
 */
const DEVICE_COOKIE = 'did';

export function deviceHash(req: FastifyRequest): string | null {
  const token = req.cookies[DEVICE_COOKIE];
  return token && token.length <= 100 ? hashToken(token) : null;
}

export function ensureDeviceHash(req: FastifyRequest, reply: FastifyReply, config: Config): string {
  const existing = deviceHash(req);
  if (existing) return existing;
  const token = newToken();
  reply.setCookie(DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https://'),
    path: '/',
    maxAge: 365 * 24 * 3600,
  });
  return hashToken(token);
}
