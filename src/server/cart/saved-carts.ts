import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { SAVED_CART_LIMITS, type SavedCartInput, type SavedCartLine } from '../../shared/schemas/saved-cart.js';
import { mergeCarts, plainWithoutBoughtLines, type PlainCart } from '../../shared/cart-merge.js';
import { isPostgres } from '../db/query-helpers.js';
import { forUpdate } from '../db/locks.js';
import { defaultVariantIdOf, variantOfLine } from '../../shared/variants.js';
import { cartCookieLine } from '../../shared/cart-cookie.js';

/**
 * Carts of signed-in customers (decision 0030): one row per account in `saved_carts`, owned here.
 * Only lines and a coupon code are kept; the quote prices them whenever the cart is shown, so
 * nothing the browser says about prices is ever stored. Writes replace the row (last write wins:
 * two tabs saving at once both succeed, the later one stays).
 */
export type SavedCart = PlainCart & { updatedAt: string | null };

type Db = Kysely<Database>;

function parseLines(json: string): SavedCartLine[] {
  try {
    const raw: unknown = JSON.parse(json);
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((l: unknown) =>
      Array.isArray(l) && typeof l[0] === 'string' && Number.isInteger(l[1]) && typeof l[2] === 'string' && typeof l[3] === 'string'
        ? [
            {
              productId: l[0],
              quantity: l[1] as number,
              size: l[2],
              color: l[3],
              // The product's first variant is written only before an interval: read as a line naming none.
              ...(typeof l[4] === 'string' && l[4] !== '' && l[4] !== defaultVariantIdOf(l[0]) ? { variantId: l[4] } : {}),
              ...(Number.isInteger(l[5]) ? { everyWeeks: l[5] as number } : {}),
            },
          ]
        : [],
    );
  } catch {
    return [];
  }
}

export async function getSavedCart(db: Db, userId: string): Promise<SavedCart> {
  const row = await db.selectFrom('saved_carts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return { lines: [], couponCode: null, updatedAt: null };
  return { lines: parseLines(row.lines), couponCode: row.coupon_code, updatedAt: row.updated_at };
}

/** Lines of variants the shop no longer has are dropped; the same variant, size and colour are one line. */
async function knownLines(db: Db, lines: readonly SavedCartLine[]): Promise<SavedCartLine[]> {
  const ids = [...new Set(lines.map((l) => variantOfLine(l.productId, l.variantId)))];
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('product_variants').select(['id', 'product_id']).where('id', 'in', ids).execute();
  const known = new Set(rows.map((v) => `${v.product_id}\n${v.id}`));
  const kept = lines.filter((l) => known.has(`${l.productId}\n${variantOfLine(l.productId, l.variantId)}`));
  return mergeCarts({ lines: [], couponCode: null }, { lines: kept, couponCode: null }).lines;
}

async function write(db: Db, userId: string, cart: PlainCart, now: Date): Promise<SavedCart> {
  const updatedAt = now.toISOString();
  // A 5th element only for a variant other than the product's first (a 4-tuple means that one), as
  // the cookie writes them; a subscription line's interval as a 6th (shared/cart-cookie.ts).
  const lines = JSON.stringify(
    cart.lines.map((l) =>
      cartCookieLine(
        l.productId,
        l.quantity,
        l.size,
        l.color,
        l.variantId && l.variantId !== defaultVariantIdOf(l.productId) ? l.variantId : undefined,
        l.everyWeeks,
      ),
    ),
  );
  const couponCode = cart.lines.length === 0 ? null : cart.couponCode;
  await db
    .insertInto('saved_carts')
    .values({ user_id: userId, lines, coupon_code: couponCode, updated_at: updatedAt })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ lines, coupon_code: couponCode, updated_at: updatedAt }))
    .execute();
  return { lines: cart.lines, couponCode, updatedAt };
}

/** Replaces the account's cart with this one (the browser's cart as it is now). */
export async function saveCart(db: Db, userId: string, input: SavedCartInput, now = new Date()): Promise<SavedCart> {
  return write(db, userId, { lines: await knownLines(db, input.lines), couponCode: input.couponCode }, now);
}

/**
 * Adds a guest's cart to the account's on sign-in: same line, quantities added; the guest's
 * coupon if any, else the account's (shared/cart-merge.ts `mergeCarts`). In one transaction, so
 * the merge reads the cart it writes over.
 */
export async function mergeIntoSavedCart(db: Db, userId: string, guest: SavedCartInput, now = new Date()): Promise<SavedCart> {
  const guestLines = await knownLines(db, guest.lines);
  return db.transaction().execute(async (trx) => {
    const current = await getSavedCart(trx, userId);
    const merged = mergeCarts(
      { lines: await knownLines(trx, current.lines), couponCode: current.couponCode },
      { lines: guestLines, couponCode: guest.couponCode },
      SAVED_CART_LIMITS.maxLines,
      SAVED_CART_LIMITS.maxLineQuantity,
    );
    return write(trx, userId, merged, now);
  });
}

/**
 * A paid order's lines leave its buyer's saved cart (what they added since stays), as the
 * confirmation page does in the browser that paid: a payment confirmed by the provider's webhook,
 * or a browser closed before the confirmation, leaves the account's cart true on every device.
 * Run after the payment's commit; the row is locked against a save from a tab at the same moment.
 */
export async function removeBoughtFromSavedCart(db: Db, userId: string, orderId: string, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await forUpdate(
      trx.selectFrom('saved_carts').select(['lines', 'coupon_code']).where('user_id', '=', userId),
      isPostgres(db) ? 'postgres' : 'sqlite',
    ).executeTakeFirst();
    if (!row) return;
    const [order, items] = await Promise.all([
      trx.selectFrom('orders').select('coupon_code').where('id', '=', orderId).executeTakeFirst(),
      trx
        .selectFrom('order_items')
        .select(['product_id', 'variant_id', 'size', 'color', 'quantity', 'is_free_gift', 'every_weeks'])
        .where('order_id', '=', orderId)
        .execute(),
    ]);
    const before: PlainCart = { lines: parseLines(row.lines), couponCode: row.coupon_code };
    const after = plainWithoutBoughtLines(before, {
      couponCode: order?.coupon_code ?? null,
      items: items.map((i) => ({
        productId: i.product_id,
        variantId: i.variant_id ?? undefined,
        size: i.size,
        color: i.color,
        quantity: i.quantity,
        isFreeGift: Boolean(i.is_free_gift),
        everyWeeks: i.every_weeks,
      })),
    });
    if (
      after.lines.length === before.lines.length &&
      after.lines.every((l, i) => l.quantity === before.lines[i]!.quantity) &&
      after.couponCode === before.couponCode
    )
      return;
    await write(trx, userId, after, now);
  });
}
