import type { ZodType } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Headers the answer carries, e.g. `Retry-After` on a 429. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/**
 * A 429 whose sentence and `Retry-After` come from one number: `message` is given the same whole
 * seconds the header carries, so "Please wait 12 minutes" and `Retry-After: 720` never disagree.
 */
export function tooManyRequests(message: (retryAfterSeconds: number) => string, retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, message(seconds), { 'Retry-After': String(seconds) });
}

const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);

/** True when a string anywhere in the value holds a NUL character, which no database text column accepts. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || hasNul(v, depth + 1)) return true;
  return false;
}

/** Parses input with a zod schema; a failure becomes a 400 naming the field and what is wrong. */
export function parseInput<S extends ZodType>(schema: S, input: unknown): S['_output'] {
  if (hasNul(input)) throw badRequest('Text cannot contain NUL characters');
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest('Invalid request');
  const field = issue.path.join('.');
  const message = field && !issue.message.toLowerCase().includes(field.toLowerCase()) ? `${field}: ${issue.message}` : issue.message;
  throw badRequest(message);
}
