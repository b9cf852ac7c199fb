import type { z } from 'zod';
import { loadResponseSchemas, type ResponseSchemas } from './load-response-schemas.js';

/** An HTTP failure from our API; `status` lets callers tell "not found" from "server down". */
export class ApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
};

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function readErrorMessage(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
      return body.error;
    }
  } catch {
    // Not JSON (e.g. a proxy error page); fall through to the status text.
  }
  return res.statusText || `Request failed with status ${res.status}`;
}

/**
 * Fetches JSON from the API and validates it with the schema `pick` chooses; a non-2xx answer
 * throws an ApiError carrying the server's `error` text. The schemas load in parallel with the request.
 */
export function apiRequest<S extends z.ZodType>(
  path: string,
  pick: (schemas: ResponseSchemas) => S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return apiRequestWith(path, () => loadResponseSchemas().then(pick), options);
}

/** apiRequest with a schema from elsewhere than the shared response schemas (loaded in parallel too). */
export async function apiRequestWith<S extends z.ZodType>(
  path: string,
  loadSchema: () => Promise<S>,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const [schema, res] = await Promise.all([
    loadSchema(),
    fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      credentials: 'same-origin',
      signal: options.signal,
    }),
  ]);
  if (!res.ok) {
    throw new ApiError(await readErrorMessage(res), res.status);
  }
  const json: unknown = await res.json();
  return schema.parse(json);
}
