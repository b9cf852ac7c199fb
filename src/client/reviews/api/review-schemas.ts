/**
 * The review answers the storefront parses (issue [6/8]), checked against the shared types in
 * src/shared/reviews.ts; a product's page of reviews is among the catalogue's answers (lib/response-schemas.ts). Loaded on demand with zod (load-review-schemas.ts): the product page's
 * first paint reads the reviews the server wrote into its HTML and needs none of this.
 */
import '../../lib/zod-config.js';
import { z } from 'zod';
import {
  REVIEW_HIDE_REASONS,
  type MyReview as MyReviewShape,
  type ReviewFormState as ReviewFormStateShape,
} from '../../../shared/reviews.js';
import { PublicReview, RatingSummary, ReviewPage } from '../../lib/response-schemas.js';

const count = z.number().int().min(0);

export { PublicReview, RatingSummary, ReviewPage };

export const MyReview = PublicReview.extend({
  productId: z.string(),
  status: z.enum(['pending', 'published', 'hidden']),
  hiddenReason: z.enum(REVIEW_HIDE_REASONS).nullable(),
  // A review waiting for approval has not been published yet.
  publishedAt: z
    .string()
    .nullable()
    .transform((v) => v ?? ''),
}) satisfies z.ZodType<MyReviewShape, unknown>;

export const ReviewFormState = z.object({
  product: z.object({ id: z.string(), name: z.string(), image: z.string().nullable() }),
  variantLabel: z.string(),
  verified: z.boolean(),
  canWrite: z.boolean(),
  reason: z.string().nullable(),
  defaultDisplayName: z.string(),
  review: MyReview.nullable(),
}) satisfies z.ZodType<ReviewFormStateShape, unknown>;

/** What a review write answers: the review as now stored, and the sentence to show. */
export const SavedReview = z.object({ review: MyReview, message: z.string() });
export type SavedReview = z.infer<typeof SavedReview>;

/** GET /api/account/reviews. */
export const MyReviewsPage = z.object({
  items: z.array(MyReview),
  total: count,
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
});
export type MyReviewsPage = z.infer<typeof MyReviewsPage>;

export const MessageResponse = z.object({ message: z.string() });
