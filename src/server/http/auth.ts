import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.js';
import type { Config } from '../config.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import { SESSION_COOKIE, SESSION_TTL_MS, type LoadedSession } from '../accounts/sessions.js';
import { HttpError } from './errors.js';
import { deviceHash } from '../lib/device.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: LoadedSession | null;
  }
}

/** Every request starts as nobody; the surfaces that read sessions fill it in (see access.ts). */
export function registerSessionDecorator(app: FastifyInstance): void {
  app.decorateRequest('session', null);
}

function sessionCookieOptions(config: Config) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.publicUrl.startsWith('https://'),
    path: '/',
    maxAge: SESSION_TTL_MS / 1000,
  };
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(config));
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { ...sessionCookieOptions(config), maxAge: undefined });
}

/** The user the request acts as; 401 when nobody is signed in. */
export function requireUser(req: FastifyRequest): UserRow {
  if (!req.session) throw new HttpError(401, AUTH_MESSAGES.authRequired);
  return req.session.user;
}

/**
 * An admin acting as themselves. While an admin impersonates a customer the request acts as the
 * customer, so the admin area is closed until the impersonation ends.
 */
export function requireAdmin(req: FastifyRequest, deniedMessage: string = AUTH_MESSAGES.accessDenied): UserRow {
  const user = requireUser(req);
  if (user.role !== 'admin') throw new HttpError(403, deniedMessage);
  return user;
}

/**
 * Who asks for an order: the signed-in person (an admin may read any order) and this browser
 * (a guest reads the orders it placed). The order services decide from it what may be seen.
 */
export function orderViewer(req: FastifyRequest): { userId: string | null; isAdmin: boolean; deviceHash: string | null } {
  return { userId: req.session?.user.id ?? null, isAdmin: req.session?.user.role === 'admin', deviceHash: deviceHash(req) };
}
