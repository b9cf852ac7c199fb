import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import type { Config } from '../config.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import { forgetLoadedSessions, loadSession, loadSessionForRead, SESSION_COOKIE, SESSION_TTL_MS, type LoadedSession } from '../accounts/sessions.js';
import { HttpError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: LoadedSession | null;
  }
}

const READS = new Set(['GET', 'HEAD']);

/** Reads the session cookie once per request; the session decides who the request acts as. */
export function registerSessionLoader(app: FastifyInstance, db: Kysely<Database>): void {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (req) => {
    const token = req.cookies[SESSION_COOKIE];
    if (!token || !req.url.startsWith('/api/')) req.session = null;
    else req.session = READS.has(req.method) ? await loadSessionForRead(db, token) : await loadSession(db, token);
  });
  // A write may change what a session shows (a sign-out, a name, loyalty points after a payment):
  // sessions read for a second are forgotten before its answer leaves. A quote changes nothing.
  app.addHook('onSend', async (req, _reply, payload) => {
    if (!READS.has(req.method) && !req.url.startsWith('/api/cart/quote')) forgetLoadedSessions();
    return payload;
  });
}

export function sessionCookieOptions(config: Config) {
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
export function requireAdmin(req: FastifyRequest): UserRow {
  const user = requireUser(req);
  if (user.role !== 'admin') throw new HttpError(403, AUTH_MESSAGES.accessDenied);
  return user;
}

/** Guard for every /api/admin/* route, checked before the body is even read. */
export function registerAdminGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/api/admin/') || req.url === '/api/admin' || req.url.startsWith('/api/shipstation/')) requireAdmin(req);
  });
}
