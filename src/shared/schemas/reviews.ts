import { z } from 'zod';
import { REVIEW_HIDE_REASONS, REVIEW_LIMITS, REVIEW_MESSAGES, REVIEW_SORTS } from '../reviews.js';

/**
 * The review requests' bodies and queries (issue [6/8]). A review is sent as multipart form data
 * (its fields, then up to REVIEW_LIMITS.photosMax files named `photos`); its fields are these.
 */
export const ReviewInput = z.object({
  rating: z.coerce
    .number({ message: REVIEW_MESSAGES.ratingRequired })
    .int({ message: REVIEW_MESSAGES.ratingRequired })
    .min(REVIEW_LIMITS.ratingMin, { message: REVIEW_MESSAGES.ratingRequired })
    .max(REVIEW_LIMITS.ratingMax, { message: REVIEW_MESSAGES.ratingRequired }),
  title: z
    .string({ message: REVIEW_MESSAGES.titleRequired })
    .trim()
    .min(1, { message: REVIEW_MESSAGES.titleRequired })
    .max(REVIEW_LIMITS.titleMax, { message: REVIEW_MESSAGES.titleTooLong }),
  body: z
    .string({ message: REVIEW_MESSAGES.bodyTooShort })
    .trim()
    .min(REVIEW_LIMITS.bodyMin, { message: REVIEW_MESSAGES.bodyTooShort })
    .max(REVIEW_LIMITS.bodyMax, { message: REVIEW_MESSAGES.bodyTooLong }),
  displayName: z
    .string({ message: REVIEW_MESSAGES.displayNameRequired })
    .trim()
    .min(1, { message: REVIEW_MESSAGES.displayNameRequired })
    .max(REVIEW_LIMITS.displayNameMax, { message: REVIEW_MESSAGES.displayNameTooLong }),
  /** On an edit: the ids of the photos to keep (the others are removed); new files are added after them. */
  keepPhotos: z.array(z.string().max(64)).max(REVIEW_LIMITS.photosMax, { message: REVIEW_MESSAGES.tooManyPhotos }).optional(),
  /** The contact form's spam guard (bot-guard.ts), for reviews written without an order. */
  elapsedMs: z.coerce.number().optional(),
  website: z.string().max(200).optional(),
});
export type ReviewInput = z.infer<typeof ReviewInput>;

export const ReviewListQuery = z.object({
  page: z.coerce
    .number({ message: 'page must be a whole number from 1' })
    .int({ message: 'page must be a whole number from 1' })
    .min(1, { message: 'page must be a whole number from 1' })
    .max(10000, { message: 'page cannot exceed 10,000' })
    .default(1),
  sort: z.enum(REVIEW_SORTS, { message: `sort must be one of: ${REVIEW_SORTS.join(', ')}` }).default('newest'),
  rating: z.coerce
    .number({ message: 'rating must be a whole number from 1 to 5' })
    .int({ message: 'rating must be a whole number from 1 to 5' })
    .min(1, { message: 'rating must be a whole number from 1 to 5' })
    .max(5, { message: 'rating must be a whole number from 1 to 5' })
    .optional(),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

export const AdminReviewQuery = z.object({
  status: z
    .enum(['pending', 'published', 'hidden', 'all'], { message: 'status must be one of: pending, published, hidden, all' })
    .default('all'),
  photos: z.enum(['any', 'with'], { message: 'photos must be any or with' }).default('any'),
  rating: ReviewListQuery.shape.rating,
  productId: z.string().max(64, { message: 'productId cannot exceed 64 characters' }).optional(),
  page: ReviewListQuery.shape.page,
  pageSize: z.coerce
    .number({ message: 'pageSize must be a whole number from 1 to 100' })
    .int({ message: 'pageSize must be a whole number from 1 to 100' })
    .min(1, { message: 'pageSize must be a whole number from 1 to 100' })
    .max(100, { message: 'pageSize must be a whole number from 1 to 100' })
    .default(25),
});
export type AdminReviewQuery = z.infer<typeof AdminReviewQuery>;

export const HideReviewInput = z.object({
  reason: z.enum(REVIEW_HIDE_REASONS, { message: REVIEW_MESSAGES.hideReasonRequired }),
  note: z.string().trim().max(REVIEW_LIMITS.hideNoteMax, { message: REVIEW_MESSAGES.hideNoteTooLong }).optional(),
});
export type HideReviewInput = z.infer<typeof HideReviewInput>;

export const ReplyInput = z.object({
  text: z
    .string({ message: REVIEW_MESSAGES.replyRequired })
    .trim()
    .min(1, { message: REVIEW_MESSAGES.replyRequired })
    .max(REVIEW_LIMITS.replyMax, { message: REVIEW_MESSAGES.replyTooLong }),
});

export const ReviewPhotosInput = z.object({ hidden: z.boolean({ message: 'hidden must be true or false' }) });

export const BulkReviewInput = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('approve'),
      ids: z
        .array(z.string().max(64))
        .min(1, { message: 'Choose at least one review' })
        .max(100, { message: 'At most 100 reviews at once' }),
    }),
    z.object({
      action: z.literal('hide'),
      ids: z
        .array(z.string().max(64))
        .min(1, { message: 'Choose at least one review' })
        .max(100, { message: 'At most 100 reviews at once' }),
      reason: HideReviewInput.shape.reason,
      note: HideReviewInput.shape.note,
    }),
  ],
  { message: 'action must be approve or hide' },
);
export type BulkReviewInput = z.infer<typeof BulkReviewInput>;

export const ReviewSettingsInput = z.object({
  moderation: z.enum(['publish', 'hold'], { message: 'moderation must be publish or hold' }).optional(),
  requestAfterDays: z.coerce
    .number({ message: REVIEW_MESSAGES.requestDaysRange })
    .int({ message: REVIEW_MESSAGES.requestDaysRange })
    .min(REVIEW_LIMITS.requestDaysMin, { message: REVIEW_MESSAGES.requestDaysRange })
    .max(REVIEW_LIMITS.requestDaysMax, { message: REVIEW_MESSAGES.requestDaysRange })
    .optional(),
  allowWithoutOrder: z.boolean({ message: 'allowWithoutOrder must be true or false' }).optional(),
});
export type ReviewSettingsInput = z.infer<typeof ReviewSettingsInput>;
