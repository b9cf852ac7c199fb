import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { createOrder } from '../../orders/create-order.js';
import { CUSTOMER_ACTOR } from '../../lib/actors.js';
import { randomString } from '../../lib/ids.js';
import { transactionWithRetry } from '../locks.js';
import { isPostgres } from '../query-helpers.js';
import { lockProductRating, refreshProductRating } from '../../reviews/ratings.js';
import { defaultDisplayName } from '../../../shared/reviews.js';
import { variantLabel } from '../../../shared/variants.js';
import { createUser } from './factories.js';
import { DEMO_CUSTOMER } from './demo-accounts.js';
import { DEMO_SUBSCRIPTION } from './subscriptions.js';

/**
 * Reviews in the demo shop (issue [6/8]): four products carry eight reviews, each from a paid,
 * delivered order of the product (the demo customer's and three demo buyers'), so every one is a
 * "Verified buyer" review naming the variant bought; two carry the shop's reply. Reset at every
 * start like the demo accounts: the same ids, moved to dates counted back from the start. The
 * orders shipped long enough ago that no request e-mail is due for them (reviews/requests.ts asks
 * only about the last 30 days past the owner's setting).
 *
 * Only where the demo accounts live and only on `npm start` / `npm run dev` (seed.ts): the tests
 * count reviews and orders from an empty shop, and call `seedDemoReviews` themselves where needed.
 */

/** The demo buyers besides the demo customer (no password anyone knows: they exist to have bought). */
export const DEMO_REVIEW_BUYERS = [
  { key: 'maria', email: 'maria.lopez@example.com', fullName: 'Maria Lopez' },
  { key: 'sam', email: 'sam.okafor@example.com', fullName: 'Sam Okafor' },
  { key: 'lee', email: 'lee.chen@example.com', fullName: 'Lee Chen' },
] as const;
type Buyer = 'customer' | (typeof DEMO_REVIEW_BUYERS)[number]['key'];

/** The demo orders: fixed ids, so order numbers read #DEMOREV1… and every start finds the same rows. */
const DEMO_REVIEW_ORDERS: { id: string; buyer: Buyer; shippedDaysAgo: number; lines: { productId: string; variantId: string }[] }[] = [
  {
    id: 'order_seed_DEMOREV1',
    buyer: 'customer',
    shippedDaysAgo: 60,
    lines: [{ productId: 'concentrated-cleaner', variantId: 'var_concentrated-cleaner-lavender-32-oz' }],
  },
  {
    id: 'order_seed_DEMOREV2',
    buyer: 'maria',
    shippedDaysAgo: 95,
    lines: [
      { productId: 'concentrated-cleaner', variantId: 'var_concentrated-cleaner' },
      { productId: 'cloth-5-pack', variantId: 'var_cloth-5-pack' },
    ],
  },
  {
    id: 'order_seed_DEMOREV3',
    buyer: 'sam',
    shippedDaysAgo: 75,
    lines: [
      { productId: 'concentrated-cleaner', variantId: 'var_concentrated-cleaner-lemon-32-oz' },
      { productId: 'window-squeegee', variantId: 'var_window-squeegee' },
    ],
  },
  {
    id: 'order_seed_DEMOREV4',
    buyer: 'lee',
    shippedDaysAgo: 50,
    lines: [
      { productId: 'cloth-5-pack', variantId: 'var_cloth-5-pack' },
      { productId: 'window-squeegee', variantId: 'var_window-squeegee' },
    ],
  },
];

type DemoReview = {
  id: string;
  buyer: Buyer;
  orderId: string;
  productId: string;
  rating: number;
  title: string;
  body: string;
  daysAgo: number;
  reply?: { text: string; daysAgo: number };
};

export const DEMO_REVIEWS: DemoReview[] = [
  {
    id: 'rev_demo_cleaner_customer',
    buyer: 'customer',
    orderId: 'order_seed_DEMOREV1',
    productId: 'concentrated-cleaner',
    rating: 5,
    title: 'One bottle, months of spray',
    body: 'A capful in the spray bottle does the kitchen counters, the hob and the bathroom tiles. The lavender is gentle, not perfumey, and the big bottle has lasted me since spring.',
    daysAgo: 52,
    reply: { text: 'Thank you! Lavender is our favourite too. A capful per 500 ml is all it needs.', daysAgo: 50 },
  },
  {
    id: 'rev_demo_cleaner_maria',
    buyer: 'maria',
    orderId: 'order_seed_DEMOREV2',
    productId: 'concentrated-cleaner',
    rating: 4,
    title: 'Does the job without a smell',
    body: 'I wanted something without fragrance for a small flat and this is it. Cuts grease on the stove well. One star off because the cap drips a little when you pour.',
    daysAgo: 84,
  },
  {
    id: 'rev_demo_cleaner_sam',
    buyer: 'sam',
    orderId: 'order_seed_DEMOREV3',
    productId: 'concentrated-cleaner',
    rating: 5,
    title: 'The lemon one is great on glass',
    body: 'Mixed a little stronger it leaves the windows and the mirror streak-free. Fresh smell that fades after a few minutes.',
    daysAgo: 66,
  },
  {
    id: 'rev_demo_cloths_maria',
    buyer: 'maria',
    orderId: 'order_seed_DEMOREV2',
    productId: 'cloth-5-pack',
    rating: 5,
    title: 'Replaced our paper towels',
    body: 'Five cloths go round the week and through the wash on Sunday. Still soft after three months of washing, no fraying at the edges.',
    daysAgo: 80,
  },
  {
    id: 'rev_demo_cloths_lee',
    buyer: 'lee',
    orderId: 'order_seed_DEMOREV4',
    productId: 'cloth-5-pack',
    rating: 3,
    title: 'Good once washed',
    body: 'They left some lint on dark surfaces the first couple of uses. After two washes that stopped and they absorb well, but wash them before you start.',
    daysAgo: 40,
    reply: {
      text: 'Thanks for saying so, Lee. We now print "wash before first use" on the band; a warm wash without softener keeps them absorbent.',
      daysAgo: 38,
    },
  },
  {
    id: 'rev_demo_squeegee_sam',
    buyer: 'sam',
    orderId: 'order_seed_DEMOREV3',
    productId: 'window-squeegee',
    rating: 4,
    title: 'Sturdy, clean edge',
    body: 'The blade leaves no lines on the patio doors. A bit wide for small bathroom windows, otherwise exactly what I wanted.',
    daysAgo: 60,
  },
  {
    id: 'rev_demo_squeegee_lee',
    buyer: 'lee',
    orderId: 'order_seed_DEMOREV4',
    productId: 'window-squeegee',
    rating: 5,
    title: 'Shower screen done in a minute',
    body: 'I keep it in the shower and wipe the glass after each use: no more limescale spots. The handle fits the extension pole too.',
    daysAgo: 35,
  },
  {
    id: 'rev_demo_laundry_customer',
    buyer: 'customer',
    // The demo subscription's first delivery (seedDemoSubscription): reviewed only when it exists.
    orderId: DEMO_SUBSCRIPTION.orderIds[0],
    productId: 'laundry-powder',
    rating: 4,
    title: 'Clean clothes, no plastic tub',
    body: 'Works in cold washes and the box is recyclable. The scoop is a little big for a half load, so I use half of it.',
    daysAgo: 20,
  },
];

const DAY_MS = 86_400_000;

/** The demo buyers' accounts, made once (the demo customer is made by seedAccounts). */
async function demoBuyers(db: Kysely<Database>): Promise<Map<Buyer, { id: string; email: string; fullName: string }>> {
  const out = new Map<Buyer, { id: string; email: string; fullName: string }>();
  const customer = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name'])
    .where('email', '=', DEMO_CUSTOMER.email)
    .executeTakeFirst();
  if (customer) out.set('customer', { id: customer.id, email: customer.email, fullName: customer.full_name });
  for (const b of DEMO_REVIEW_BUYERS) {
    const row = await db.selectFrom('users').select(['id', 'full_name']).where('email', '=', b.email).executeTakeFirst();
    const id =
      row?.id ??
      (
        await createUser(db, {
          email: b.email,
          fullName: b.fullName,
          password: randomString(32),
          emailVerified: true,
          createdAt: new Date(Date.now() - 200 * DAY_MS).toISOString(),
        })
      ).id;
    out.set(b.key, { id, email: b.email, fullName: row?.full_name ?? b.fullName });
  }
  return out;
}

/**
 * The demo orders (made once, then moved to this start's dates: paid the day before they shipped,
 * delivered) and the reviews written from them, with each product's stars counted again. A demo
 * review whose author already reviewed the product another way (in the shop, by hand) is left out.
 * Answers how many demo reviews stand.
 */
export async function seedDemoReviews(db: Kysely<Database>, now = new Date()): Promise<number> {
  const buyers = await demoBuyers(db);
  const productIds = [...new Set(DEMO_REVIEW_ORDERS.flatMap((o) => o.lines.map((l) => l.productId)))];
  const variants = await db
    .selectFrom('product_variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(['v.id', 'v.product_id', 'v.price_cents', 'v.sku', 'v.option1', 'v.option2', 'v.option3', 'p.name', 'p.images'])
    .where('v.product_id', 'in', productIds)
    .execute();
  const variantOf = new Map(variants.map((v) => [v.id, v]));
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS).toISOString();

  for (const order of DEMO_REVIEW_ORDERS) {
    const buyer = buyers.get(order.buyer);
    const lines = order.lines.map((l) => ({ ...l, v: variantOf.get(l.variantId) }));
    if (!buyer || lines.some((l) => !l.v || l.v.product_id !== l.productId)) continue;
    const shippedAt = at(order.shippedDaysAgo);
    const paidAt = at(order.shippedDaysAgo + 1);
    await db.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('orders').select('id').where('id', '=', order.id).executeTakeFirst();
      if (!exists) {
        const subtotal = lines.reduce((sum, l) => sum + Number(l.v!.price_cents), 0);
        await createOrder(trx, {
          id: order.id,
          origin: 'checkout',
          status: 'delivered',
          lines: lines.map((l) => ({
            productId: l.productId,
            variantId: l.variantId,
            productName: l.v!.name,
            variantLabel: variantLabel([l.v!.option1, l.v!.option2, l.v!.option3]),
            image: (JSON.parse(l.v!.images) as string[])[0] ?? null,
            sku: l.v!.sku,
            quantity: 1,
            priceCents: Number(l.v!.price_cents),
            size: 'One Size',
            color: 'Default',
            isFreeGift: false,
          })),
          money: { subtotalCents: subtotal, discountCents: 0, shippingCents: 0, taxCents: 0, totalCents: subtotal },
          customer: {
            userId: buyer.id,
            email: buyer.email,
            shippingAddress: JSON.stringify({
              name: buyer.fullName,
              address: '8 Demo Street',
              city: 'Portland',
              state: 'OR',
              zip: '97205',
              country: 'US',
              email: buyer.email,
            }),
          },
          session: null,
          shippingOptionId: null,
          placed: { actor: CUSTOMER_ACTOR, data: { totalCents: subtotal, provider: 'test' } },
          at: new Date(paidAt),
        });
      }
      await trx
        .updateTable('orders')
        .set({
          status: 'delivered',
          payment_status: 'paid',
          payment_provider: 'test',
          paid_at: paidAt,
          shipped_at: shippedAt,
          created_at: paidAt,
          updated_at: shippedAt,
        })
        .where('id', '=', order.id)
        .execute();
      await trx
        .updateTable('order_events')
        .set({ created_at: paidAt })
        .where('order_id', '=', order.id)
        .where('type', '=', 'placed')
        .execute();
    });
  }

  let standing = 0;
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  for (const productId of [...new Set(DEMO_REVIEWS.map((r) => r.productId))]) {
    const reviews = DEMO_REVIEWS.filter((r) => r.productId === productId);
    const product = await db.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst();
    if (!product) continue;
    standing += await transactionWithRetry(db, async (trx) => {
      const stamp = now.toISOString();
      await lockProductRating(trx, dialect, productId, stamp);
      let written = 0;
      for (const r of reviews) {
        const buyer = buyers.get(r.buyer);
        const line = await trx
          .selectFrom('order_items as i')
          .innerJoin('orders as o', 'o.id', 'i.order_id')
          .select(['i.variant_label', 'o.user_id'])
          .where('i.order_id', '=', r.orderId)
          .where('i.product_id', '=', productId)
          .executeTakeFirst();
        if (!buyer || !line || line.user_id !== buyer.id) continue;
        const authorKey = `user:${buyer.id}`;
        const clash = await trx
          .selectFrom('reviews')
          .select('id')
          .where('product_id', '=', productId)
          .where('author_key', '=', authorKey)
          .where('id', '<>', r.id)
          .executeTakeFirst();
        if (clash) continue;
        const row = {
          product_id: productId,
          author_key: authorKey,
          user_id: buyer.id,
          email: buyer.email,
          display_name: defaultDisplayName(buyer.fullName),
          order_id: r.orderId,
          variant_label: line.variant_label,
          rating: r.rating,
          title: r.title,
          body: r.body,
          status: 'published' as const,
          hidden_reason: null,
          hidden_note: null,
          hidden_at: null,
          hidden_by: null,
          photos_hidden: 0,
          photo_count: 0,
          reply_text: r.reply?.text ?? null,
          reply_at: r.reply ? at(r.reply.daysAgo) : null,
          reply_by: null,
          source: 'account' as const,
          request_id: null,
          created_at: at(r.daysAgo),
          updated_at: at(r.reply?.daysAgo ?? r.daysAgo),
          edited_at: null,
          published_at: at(r.daysAgo),
        };
        await trx
          .insertInto('reviews')
          .values({ id: r.id, ...row })
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
        await trx.deleteFrom('review_photos').where('review_id', '=', r.id).execute();
        written++;
      }
      await refreshProductRating(trx, productId, stamp);
      return written;
    });
  }
  return standing;
}
