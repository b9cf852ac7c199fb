import '../../lib/zod-config.js';
import { z } from 'zod';
import {
  REVIEW_HIDE_REASONS,
  type AdminReview as AdminReviewShape,
  type ReviewFigures as ReviewFiguresShape,
  type ReviewSettings as ReviewSettingsShape,
} from '../../../shared/reviews.js';

/**
 * The answers of the owner's review routes (issue [6/8]), parsed by the Reviews tab: the shapes are
 * the shared contract's (src/shared/reviews.ts), so a server that drifts from it fails here, loudly,
 * instead of drawing half a row.
 */

const ReviewPhoto = z.object({ url: z.string(), width: z.number(), height: z.number() });

export const AdminReview = z.object({
  id: z.string(),
  product: z.object({ id: z.string(), name: z.string() }),
  rating: z.number().int(),
  title: z.string(),
  body: z.string(),
  displayName: z.string(),
  email: z.string(),
  userId: z.string().nullable(),
  verified: z.boolean(),
  orderId: z.string().nullable(),
  orderNumber: z.string().nullable(),
  variantLabel: z.string(),
  status: z.enum(['pending', 'published', 'hidden']),
  hiddenReason: z.enum(REVIEW_HIDE_REASONS).nullable(),
  hiddenNote: z.string().nullable(),
  photosHidden: z.boolean(),
  photos: z.array(ReviewPhoto),
  reply: z.object({ text: z.string(), at: z.string(), by: z.string().nullable() }).nullable(),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
}) satisfies z.ZodType<AdminReviewShape>;
export type AdminReview = z.infer<typeof AdminReview>;

export const ReviewCounts = z.object({ pending: z.number().int(), published: z.number().int(), hidden: z.number().int() });
export type ReviewCounts = z.infer<typeof ReviewCounts>;

/** GET /api/admin/reviews. */
export const AdminReviewPage = z.object({
  items: z.array(AdminReview),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  counts: ReviewCounts,
});
export type AdminReviewPage = z.infer<typeof AdminReviewPage>;

/** Every action on one review answers the review as it now stands. */
export const AdminReviewResponse = z.object({ review: AdminReview });

/** POST /api/admin/reviews/bulk: how many changed (the others were already so), and each as it now stands. */
export const BulkReviewResponse = z.object({ changed: z.number().int(), reviews: z.array(AdminReview) });
export type BulkReviewResponse = z.infer<typeof BulkReviewResponse>;

export const ReviewSettings = z.object({
  moderation: z.enum(['publish', 'hold']),
  requestAfterDays: z.number().int(),
  allowWithoutOrder: z.boolean(),
}) satisfies z.ZodType<ReviewSettingsShape>;

export const ReviewFigures = z.object({
  from: z.string(),
  to: z.string(),
  byDay: z.array(z.object({ day: z.string(), count: z.number().int(), averageRating: z.number() })),
  total: z.number().int(),
  averageRating: z.number(),
  byProduct: z.array(z.object({ productId: z.string(), name: z.string(), count: z.number().int(), average: z.number() })),
  requests: z.object({ sent: z.number().int(), reviewed: z.number().int(), share: z.number() }),
}) satisfies z.ZodType<ReviewFiguresShape>;
export type ReviewFigures = z.infer<typeof ReviewFigures>;

/** The queue's own sentences (the review rules' are REVIEW_MESSAGES). */
export const REVIEW_QUEUE_MESSAGES = {
  emptyPending: 'No reviews waiting',
  emptyPublished: 'No published reviews yet',
  emptyHidden: 'No hidden reviews',
  emptyAll: 'No reviews yet',
  emptyFiltered: 'Showing only the reviews that match the filters.',
  /** The hide dialog's promise: a low rating is never a reason. */
  notForRating:
    'A review cannot be hidden for its rating: a low score is the customer’s honest opinion. Hide it only for one of these reasons.',
  withoutOrderNote: 'Reviews from customers without an order are never marked “Verified buyer”.',
  settingsSaved: 'The review settings have been saved.',
} as const;
