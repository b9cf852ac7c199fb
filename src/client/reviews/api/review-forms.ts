import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReviewFormState } from '../../../shared/reviews.js';
import { ApiError, apiRequestWith } from '../../lib/api-client.js';
import { loadReviewSchemas } from './load-review-schemas.js';
import type { SavedReview } from './review-schemas.js';

/** The signed-in customer's own reviews and forms: not public (dropped when who is signed in changes). */
export const accountReviewsKey = ['account-reviews'] as const;

/** A refusal that asking again will not change: unknown or expired link, not signed in, not theirs. */
function final(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/** The form for a product from the customer's account: whether they may write, and their review when they have one. */
export function accountReviewFormQueryOptions(productId: string) {
  return queryOptions({
    queryKey: [...accountReviewsKey, 'form', productId] as const,
    queryFn: ({ signal }): Promise<ReviewFormState> =>
      apiRequestWith(
        `/api/account/reviews/product/${encodeURIComponent(productId)}`,
        () => loadReviewSchemas().then((s) => s.ReviewFormState),
        {
          signal,
        },
      ),
    staleTime: 0,
    retry: (n, error) => !final(error) && n < 1,
  });
}

/** A link refused (unknown, expired): the server's sentence, and the product when the answer names it. */
export class ReviewLinkError extends ApiError {
  readonly product: { id: string; name: string } | null;
  constructor(message: string, status: number, product: { id: string; name: string } | null) {
    super(message, status);
    this.product = product;
  }
}

function productOf(body: unknown): { id: string; name: string } | null {
  if (!body || typeof body !== 'object' || !('product' in body)) return null;
  const p = body.product;
  return p && typeof p === 'object' && 'id' in p && typeof p.id === 'string' && 'name' in p && typeof p.name === 'string'
    ? { id: p.id, name: p.name }
    : null;
}

async function getReviewLink(token: string, signal?: AbortSignal): Promise<ReviewFormState> {
  const [schemas, res] = await Promise.all([
    loadReviewSchemas(),
    fetch(`/api/reviews/link/${encodeURIComponent(token)}`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      signal,
    }),
  ]);
  const body = await readJson(res);
  if (!res.ok) throw new ReviewLinkError(errorOf(body, res), res.status, productOf(body));
  return schemas.ReviewFormState.parse(body);
}

/** The form behind a request e-mail's link: nobody signed in, the link is the key. */
export function reviewLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['review-link', token] as const,
    queryFn: ({ signal }) => getReviewLink(token, signal),
    staleTime: 0,
    retry: (n, error) => !final(error) && n < 1,
  });
}

export function useReviewLink(token: string) {
  return useQuery(reviewLinkQueryOptions(token));
}

/** Where a review is written: from the account (a new one for the product, or theirs by id), or through a link. */
export type ReviewTarget =
  { kind: 'account'; productId: string; reviewId: string | null } | { kind: 'link'; token: string; editing: boolean };

function targetRequest(target: ReviewTarget): { method: 'POST' | 'PUT'; url: string } {
  if (target.kind === 'link') {
    return { method: target.editing ? 'PUT' : 'POST', url: `/api/reviews/link/${encodeURIComponent(target.token)}` };
  }
  return target.reviewId
    ? { method: 'PUT', url: `/api/account/reviews/${encodeURIComponent(target.reviewId)}` }
    : { method: 'POST', url: `/api/account/reviews/product/${encodeURIComponent(target.productId)}` };
}

export type ReviewSubmission = {
  rating: number;
  title: string;
  body: string;
  displayName: string;
  /** The bot guard's clock and decoy (shared/bot-guard.ts), checked for reviews written without an order. */
  elapsedMs: number;
  website: string;
  /** On an edit: the photos kept (the rest are removed). */
  keepPhotos: string[] | null;
  /** New photos, added after the kept ones. */
  photos: File[];
};

/**
 * Sends a review as the routes take it: multipart form data, its fields first, then the files
 * named `photos`. `keepPhotos` goes as one JSON list, so "keep none" is said too (an empty list of
 * repeated fields would be the same as not saying). A refusal arrives as an ApiError with the server's sentence.
 */
export async function sendReview(target: ReviewTarget, s: ReviewSubmission): Promise<SavedReview> {
  const { method, url } = targetRequest(target);
  const form = new FormData();
  form.append('rating', String(s.rating));
  form.append('title', s.title);
  form.append('body', s.body);
  form.append('displayName', s.displayName);
  form.append('elapsedMs', String(s.elapsedMs));
  if (s.website) form.append('website', s.website);
  if (s.keepPhotos) form.append('keepPhotos', JSON.stringify(s.keepPhotos));
  for (const file of s.photos) form.append('photos', file, file.name);
  const [schemas, res] = await Promise.all([
    loadReviewSchemas(),
    fetch(url, { method, body: form, headers: { Accept: 'application/json' }, credentials: 'same-origin' }),
  ]);
  const body = await readJson(res);
  if (!res.ok) throw new ApiError(errorOf(body, res), res.status);
  return schemas.SavedReview.parse(body);
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    // Not JSON (a proxy's error page): the status says it.
    return null;
  }
}

/** The server's sentence (`{ error }`), else the status. */
function errorOf(body: unknown, res: Response): string {
  return body && typeof body === 'object' && 'error' in body && typeof body.error === 'string'
    ? body.error
    : res.statusText || `Request failed with status ${res.status}`;
}
