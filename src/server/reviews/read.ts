import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ReviewPage } from '../../shared/reviews.js';
import type { ReviewListQuery } from '../../shared/schemas/reviews.js';
import { readReviewPage, readStarsOnSale } from '../lib/product-reviews.js';

/**
 * Reading reviews as shoppers see them (issue [6/8]). The reads themselves are beneath the modules
 * (lib/product-reviews.ts), where the catalogue, below this module, reads the same stars and first
 * page for its cards and product page; this module re-exports them and adds what is its own.
 */
export {
  cardRating,
  readCardRatings,
  readFirstReviewPage,
  readProductStars,
  readReviewPage,
  readStarsOnSale,
  toPublicReview,
  type CardRating,
} from '../lib/product-reviews.js';

/** GET /api/products/:id/reviews: null when no product of that id is on sale (unknown, or a draft: migration 0037). */
export async function listProductReviews(db: Kysely<Database>, productId: string, query: ReviewListQuery): Promise<ReviewPage | null> {
  // The product and its stars in one read, then the page's rows: two statements for most pages.
  const stars = await readStarsOnSale(db, productId);
  return stars ? readReviewPage(db, productId, query, stars) : null;
}
