import type * as Schemas from './auth-schemas.js';

type AuthSchemas = typeof Schemas;

let pending: Promise<AuthSchemas> | undefined;

/** Loads the account schemas (and zod) once, on the first account API call. */
export function loadAuthSchemas(): Promise<AuthSchemas> {
  pending ??= import('./auth-schemas.js').catch((err: unknown) => {
    pending = undefined; // let the next call try again (e.g. after a deploy replaced the chunk)
    throw err;
  });
  return pending;
}
