// The bench's reviews (issue [6/8]): one product with 1,000 published reviews, whose page and
// review lists `npm run bench` measures, and a few reviews on every fourth other product, so the
// shop list's "Top rated" order has stars to sort. Written straight to a freshly seeded database
// before its server starts, each product's in one transaction with its ratings row locked and
// counted again, as every review write does (src/server/reviews/ratings.ts).
import { sql } from 'kysely';
import { openDatabase } from '../src/server/db/database.js';
import { lockProductRating, refreshProductRating } from '../src/server/reviews/ratings.js';

/** The product given 1,000 reviews: the seed's cleaner, sold in versions (else the first product). */
const REVIEWED_ID = 'concentrated-cleaner';
export const BENCH_REVIEW_COUNT = 1000;

const TITLES = ['Works well', 'Does the job', 'Smells fresh', 'Lasts for months', 'Not for me', 'Streak-free glass', 'Good value'];
const BODY =
  'A capful in the spray bottle does the kitchen counters and the bathroom tiles. The bottle lasts for months and the smell fades after a few minutes. ';

/** A deterministic spread of stars, leaning to 4 and 5 as real shops' do. */
const starsOf = (n: number) => [5, 4, 5, 3, 5, 4, 2, 5, 4, 1, 5, 4][n % 12]!;

export async function addBenchReviews(url: string): Promise<{ productId: string; reviews: number }> {
  const { db, dialect, close } = openDatabase(url);
  try {
    const products = await db.selectFrom('products').select('id').where('status', '=', 'active').orderBy('id').execute();
    const reviewed = products.find((p) => p.id === REVIEWED_ID)?.id ?? products[0]!.id;
    const plan: [string, number][] = [[reviewed, BENCH_REVIEW_COUNT]];
    products.forEach((p, i) => {
      if (p.id !== reviewed && i % 4 === 0) plan.push([p.id, 1 + (i % 9)]);
    });
    const start = Date.parse('2025-01-01T00:00:00.000Z');
    let total = 0;
    for (const [productId, count] of plan) {
      await db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        await lockProductRating(trx, dialect, productId, now);
        const rows = Array.from({ length: count }, (_, n) => {
          const at = new Date(start + n * 3_600_000 * 13 + (n % 7) * 60_000).toISOString();
          const email = `bench-reviewer-${n}@example.com`;
          return {
            id: `rev_bench_${productId.slice(0, 40)}_${n}`,
            product_id: productId,
            author_key: `email:${email}`,
            user_id: null,
            email,
            display_name: `Reader ${n}`,
            order_id: null,
            variant_label: n % 3 === 0 ? 'Lavender, 32 oz' : '',
            rating: starsOf(n + productId.length),
            title: TITLES[n % TITLES.length]!,
            body: BODY.repeat(1 + (n % 3)).trim(),
            status: n % 50 === 49 ? ('hidden' as const) : ('published' as const),
            hidden_reason: n % 50 === 49 ? ('spam' as const) : null,
            hidden_note: null,
            hidden_at: n % 50 === 49 ? at : null,
            hidden_by: null,
            reply_text: n % 10 === 0 ? 'Thank you for writing to us.' : null,
            reply_at: n % 10 === 0 ? at : null,
            reply_by: null,
            source: 'link' as const,
            request_id: null,
            created_at: at,
            updated_at: at,
            edited_at: null,
            published_at: at,
          };
        });
        for (let i = 0; i < rows.length; i += 200)
          await trx
            .insertInto('reviews')
            .values(rows.slice(i, i + 200))
            .execute();
        await refreshProductRating(trx, productId, now);
      });
      total += count;
    }
    // PostgreSQL's autovacuum analyzes a table within a minute of so many new rows; the bench's server
    // starts sooner, and without statistics the planner sorts a product's every review for each page.
    if (dialect === 'postgres') await sql`analyze reviews, product_ratings`.execute(db);
    return { productId: reviewed, reviews: total };
  } finally {
    await close();
  }
}
