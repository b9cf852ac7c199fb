import { ApiError } from './api-client.js';

/** The server's own text for a refused request; the fallback for network and unexpected failures. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
