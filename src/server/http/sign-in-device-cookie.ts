import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { DEVICE_TOKEN_TTL_MS } from '../accounts/sign-in-devices.js';

/** The signed device cookie that lets this browser keep signing in to its account during a guessing attack. */
export const SIGN_IN_DEVICE_COOKIE = 'signin_device';

export function readSignInDeviceCookie(req: FastifyRequest): string | undefined {
  return req.cookies[SIGN_IN_DEVICE_COOKIE];
}

/** HttpOnly, SameSite=Lax, Secure when the shop is served over https; about a year. Kept at sign-out. */
export function setSignInDeviceCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SIGN_IN_DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https://'),
    path: '/',
    maxAge: DEVICE_TOKEN_TTL_MS / 1000,
  });
}
