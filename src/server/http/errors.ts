import type { ZodType } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);

/** Parses input with a zod schema; a failure becomes a 400 naming the field and what is wrong. */
export function parseInput<S extends ZodType>(schema: S, input: unknown): S['_output'] {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest('Invalid request');
  const field = issue.path.join('.');
  const message = field && !issue.message.toLowerCase().includes(field.toLowerCase())
    ? `${field}: ${issue.message}`
    : issue.message;
  throw badRequest(message);
}
