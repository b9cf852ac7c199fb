import type { z } from 'zod';
import { ApiError, apiRequest } from '../../lib/api-client.js';
import { UploadResponse } from './admin-schemas.js';
import { ADMIN_MESSAGES, IMAGE_MAX_BYTES } from '../../../shared/schemas/admin/messages.js';

type Query = Record<string, string | number | undefined>;

/** GET an admin endpoint and validate the answer. */
export function adminGet<S extends z.ZodType>(path: string, schema: S, query?: Query, signal?: AbortSignal): Promise<z.output<S>> {
  return apiRequest(path, () => schema, { query, signal });
}

/** A write call (POST, PUT, PATCH, DELETE); the server's `error` text arrives as an ApiError. */
export function adminSend<S extends z.ZodType>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> {
  return apiRequest(path, () => schema, { method, body });
}

export type UploadKind = 'products' | 'categories' | 'content';

/** "PNG, JPEG or WebP, up to 5 MB": the limit the server holds, for the hints beside file pickers. */
export const IMAGE_LIMIT_HINT = `PNG, JPEG or WebP, up to ${IMAGE_MAX_BYTES / (1024 * 1024)} MB`;

/**
 * The server's refusal of a file too big, said before it is sent: a 20 MB photo would otherwise
 * upload for a minute on a shop's connection only to be turned away.
 */
export function imageFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (file.size <= IMAGE_MAX_BYTES) return null;
  return `${ADMIN_MESSAGES.imageSize}: "${file.name}" is ${(file.size / (1024 * 1024)).toFixed(1)} MB.`;
}

/** Uploads one image (multipart field `file`) and answers its public URL. */
export async function uploadImage(file: File, kind: UploadKind): Promise<string> {
  const tooBig = imageFileProblem(file);
  if (tooBig) throw new ApiError(tooBig, 413);
  const form = new FormData();
  form.append('file', file);
  const res = await fetch(`/api/admin/uploads?kind=${kind}`, {
    method: 'POST',
    body: form,
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not JSON; handled below
  }
  if (!res.ok) {
    const message =
      body && typeof body === 'object' && 'error' in body && typeof body.error === 'string'
        ? body.error
        : res.statusText || `Upload failed with status ${res.status}`;
    throw new ApiError(message, res.status);
  }
  return UploadResponse.parse(body).url;
}

/** The message to show for a failure. */
export function messageOf(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * Mutation-level onError for the back office: the UI already shows refusals (4xx) in a toast, so
 * only unexpected failures (network, 5xx other than "service not configured") reach the console.
 */
export function logUnexpected(error: unknown): void {
  if (error instanceof ApiError && error.status < 500) return;
  // 502: a payment or label provider refused or did not answer; the server's message says so.
  if (error instanceof ApiError && (error.status === 503 || error.status === 502)) return;
  console.error(error);
}
