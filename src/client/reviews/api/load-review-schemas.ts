import type * as Schemas from './review-schemas.js';
import { afterZod } from '../../lib/load-zod.js';

export type ReviewSchemas = typeof Schemas;

let pending: Promise<ReviewSchemas> | undefined;

/** The review answers' schemas, with zod, once; a failed load (a deploy replaced the chunk) is tried again next time. */
export function loadReviewSchemas(): Promise<ReviewSchemas> {
  pending ??= afterZod(() => import('./review-schemas.js'))().catch((err: unknown) => {
    pending = undefined;
    throw err;
  });
  return pending;
}
