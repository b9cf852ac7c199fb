import type * as Schemas from './response-schemas.js';
import { loadZod } from './load-zod.js';

export type ResponseSchemas = typeof Schemas;

let pending: Promise<ResponseSchemas> | undefined;

/** Loads the zod response schemas once; later calls share the same promise. */
export function loadResponseSchemas(): Promise<ResponseSchemas> {
  pending ??= loadZod()
    .then(() => import('./response-schemas.js'))
    .catch((err: unknown) => {
      pending = undefined; // let the next request try again (e.g. after a deploy replaced the chunk)
      throw err;
    });
  return pending;
}
