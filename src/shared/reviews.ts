/**
 * Reviews from people who bought (issue [6/8], decision 0059): the limits, sentences and shapes the
 * server, the storefront and the back office share. No zod here (the storefront's first load reads
 * it); the request schemas are in schemas/reviews.ts.
 */

import { formatCount } from './money.js';

export const REVIEW_LIMITS = {
  ratingMin: 1,
  ratingMax: 5,
  titleMax: 100,
  bodyMin: 10,
  bodyMax: 5000,
  displayNameMax: 40,
  /** Photos per review. */
  photosMax: 3,
  replyMax: 2000,
  hideNoteMax: 500,
  /** A review request's links are valid this many days. */
  linkDays: 60,
  /** The request e-mail goes this many days after the order shipped (the owner's setting). */
  requestDaysMin: 1,
  requestDaysMax: 60,
  requestDaysDefault: 10,
  /** The product page's list. */
  pageSize: 10,
  /** Reviews written without an order (when the owner allows them): at most this many per account a day. */
  withoutOrderPerDay: 3,
  /** The JSON-LD's `review` items: the first reviews the page shows. */
  jsonLdReviews: 5,
} as const;

export const REVIEW_SORTS = ['newest', 'highest', 'lowest', 'photos'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
export const REVIEW_SORT_LABELS: Record<ReviewSort, string> = {
  newest: 'Newest',
  highest: 'Highest rated',
  lowest: 'Lowest rated',
  photos: 'With photos',
};

export const REVIEW_HIDE_REASONS = ['spam', 'abuse', 'personal-data', 'off-topic'] as const;
export type ReviewHideReason = (typeof REVIEW_HIDE_REASONS)[number];
export const REVIEW_HIDE_REASON_LABELS: Record<ReviewHideReason, string> = {
  spam: 'Spam',
  abuse: 'Abuse',
  'personal-data': 'Personal data',
  'off-topic': 'Off-topic',
};

export type ReviewStatus = 'pending' | 'published' | 'hidden';
export type ReviewModeration = 'publish' | 'hold';

/** The sentences a shopper or the owner reads: every limit has its own. */
export const REVIEW_MESSAGES = {
  ratingRequired: 'Choose a star rating from 1 to 5',
  titleRequired: 'Give your review a title',
  titleTooLong: `The title cannot exceed ${REVIEW_LIMITS.titleMax} characters`,
  bodyTooShort: `Your review must be at least ${REVIEW_LIMITS.bodyMin} characters`,
  bodyTooLong: `Your review cannot exceed ${formatCount(REVIEW_LIMITS.bodyMax)} characters`,
  displayNameRequired: 'Enter the name to show with your review',
  displayNameTooLong: `The name shown cannot exceed ${REVIEW_LIMITS.displayNameMax} characters`,
  tooManyPhotos: `At most ${REVIEW_LIMITS.photosMax} photos`,
  replyRequired: 'Write a reply',
  replyTooLong: `The reply cannot exceed ${formatCount(REVIEW_LIMITS.replyMax)} characters`,
  hideReasonRequired: 'Choose why this review is hidden: spam, abuse, personal data or off-topic',
  hideNoteTooLong: `The note cannot exceed ${REVIEW_LIMITS.hideNoteMax} characters`,
  requestDaysRange: `Send the request between ${REVIEW_LIMITS.requestDaysMin} and ${REVIEW_LIMITS.requestDaysMax} days after shipping`,
  alreadyReviewed: 'You have already reviewed this product. You can edit your review instead.',
  linkUsed: 'This link has already been used to review this product.',
  /** A second tab's (or a Back-ed form's) send, when the review was already saved: the form then edits that review. */
  alreadySavedElsewhere:
    'Your review of this product is already saved (sent from another tab or window). What you wrote here is kept below: choose Save changes to replace the saved review with it.',
  linkExpired: 'This review link has expired.',
  linkUnknown: 'This review link is not valid.',
  needsOrder: 'Only customers who bought this product can review it.',
  signInToReview: 'Sign in to review this product.',
  tooManyWithoutOrder: `You can write at most ${REVIEW_LIMITS.withoutOrderPerDay} reviews a day for products you have not bought.`,
  notYours: 'This review is not yours.',
  alreadyReplied: 'The shop has already replied to this review.',
  reviewNotFound: 'Review not found',
  thanksPublished: 'Thank you! Your review is published.',
  thanksPending: 'Thank you! Your review will appear once the shop has checked it.',
  edited: 'Your review is updated.',
  optedOut: 'You will not get review requests from us any more.',
  /** The opt-out link read (GET) before its button is pressed: nothing has changed yet. */
  optOutOpen: 'Review requests are still on for this address. Press the button to stop them.',
} as const;

/** The default name shown with a review: first name and the last name's initial ("Jane D."). */
export function defaultDisplayName(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '';
  const first = parts[0]!;
  const last = parts.length > 1 ? parts[parts.length - 1]! : '';
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first;
}

/** A product's stars as shoppers see them: count, average (one decimal) and each star's count, 1 to 5. */
export type RatingSummary = {
  count: number;
  /** Rounded to one decimal (4.25 → 4.3); 0 when count is 0. */
  average: number;
  /** stars[0] is the number of 1-star reviews, … stars[4] of 5-star ones. */
  stars: [number, number, number, number, number];
};

/** The average as shown: the same figure on the page, the cards and the JSON-LD. */
export function averageOf(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 10) / 10 : 0;
}

/** "4.3 out of 5 stars, 12 reviews" (for screen readers and the card's label). */
export function ratingLabel(average: number, count: number): string {
  return `${average.toFixed(1)} out of 5 stars, ${count} ${count === 1 ? 'review' : 'reviews'}`;
}

export type ReviewPhoto = { url: string; width: number; height: number };

/** A published review as the storefront shows it. */
export type PublicReview = {
  id: string;
  rating: number;
  title: string;
  body: string;
  displayName: string;
  /** From a paid order of this product: set by the server only. */
  verified: boolean;
  /** 'Lavender, 32 oz' (the variant bought); '' when none. */
  variantLabel: string;
  /** Empty when the shop hid the photos. */
  photos: ReviewPhoto[];
  /** When first published. */
  publishedAt: string;
  /** Set when its author changed it ("Edited"). */
  editedAt: string | null;
  reply: { text: string; at: string } | null;
};

/** GET /api/products/:id/reviews?page=&sort=&rating= */
export type ReviewPage = {
  summary: RatingSummary;
  items: PublicReview[];
  /** Reviews matching the rating filter (the summary counts all). */
  total: number;
  page: number;
  pageSize: number;
  sort: ReviewSort;
  /** The star filter (1–5) or null for all. */
  rating: number | null;
};

/** A review as its author sees and edits it. */
export type MyReview = PublicReview & {
  productId: string;
  status: ReviewStatus;
  /** Only when hidden: the shop's stated reason. */
  hiddenReason: ReviewHideReason | null;
};

/**
 * What the review form needs: GET /api/account/reviews/product/:productId (signed in) and
 * GET /api/reviews/link/:token (a request e-mail's link, nobody signed in).
 */
export type ReviewFormState = {
  product: { id: string; name: string; image: string | null };
  /** 'Bought: Lavender, 32 oz' comes from this; '' when unknown. */
  variantLabel: string;
  /** Whether a review written now is a "Verified buyer" one. */
  verified: boolean;
  /** false with `reason` when this person cannot write (or edit) one now. */
  canWrite: boolean;
  reason: string | null;
  /** The name shown by default (first name and initial). */
  defaultDisplayName: string;
  /** Their review of this product, when they have written one (then the form edits it). */
  review: MyReview | null;
};

/** The owner's review settings (GET/PUT /api/admin/review-settings). */
export type ReviewSettings = {
  /** 'publish': new reviews appear at once; 'hold': they wait for the owner's approval. */
  moderation: ReviewModeration;
  /** Days after shipping the request e-mail goes (1–60, default 10). */
  requestAfterDays: number;
  /** Whether signed-in customers without an order of the product may review it (not "Verified buyer"). Default false. */
  allowWithoutOrder: boolean;
};

export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  moderation: 'publish',
  requestAfterDays: REVIEW_LIMITS.requestDaysDefault,
  allowWithoutOrder: false,
};

/** A review in the owner's queue. */
export type AdminReview = {
  id: string;
  product: { id: string; name: string };
  rating: number;
  title: string;
  body: string;
  displayName: string;
  /** The author's address and account (the owner sees who wrote it). */
  email: string;
  userId: string | null;
  verified: boolean;
  orderId: string | null;
  orderNumber: string | null;
  variantLabel: string;
  status: ReviewStatus;
  hiddenReason: ReviewHideReason | null;
  hiddenNote: string | null;
  photosHidden: boolean;
  photos: ReviewPhoto[];
  reply: { text: string; at: string; by: string | null } | null;
  createdAt: string;
  editedAt: string | null;
  publishedAt: string | null;
};

/** GET /api/admin/reviews/figures?from=&to= (dates in the shop's time zone, as other figures). */
export type ReviewFigures = {
  from: string;
  to: string;
  /** Reviews written per day in the period (every status). */
  byDay: { day: string; count: number; averageRating: number }[];
  total: number;
  /** The period's reviews' average rating (one decimal; 0 when none). */
  averageRating: number;
  /** Published reviews' average per product, most reviewed first (top 20). */
  byProduct: { productId: string; name: string; count: number; average: number }[];
  /** Request e-mails sent in the period, and how many led to at least one review. */
  requests: { sent: number; reviewed: number; share: number };
};
