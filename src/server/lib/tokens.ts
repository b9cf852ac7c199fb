import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, URL-safe. Only its SHA-256 is stored, so a database leak reveals no usable token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
