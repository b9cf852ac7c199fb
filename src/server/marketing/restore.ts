import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { HttpError, notFound, parseInput } from '../http/errors.js';
import { deviceHash } from '../lib/device.js';
import { RECOVERY_MESSAGES, type RestorePreview } from '../../shared/schemas/recovery.js';
import { recoveryLines } from './recovery.js';
import { recoveryIdOfToken } from './restore-token.js';
import { closeRecoveries, OPEN_STATES } from './close-recoveries.js';

/**
 * The recovery e-mail's link (issue [7/8] item 3): `/cart/restore?token=<recovery id>.<mac>`, an
 * HMAC-SHA256 of the row's id with a key of the shop's own, so a link names one checkout and nobody
 * can make one for another. It signs nobody in and reading it (GET) changes nothing: the page shows
 * the cart it would put back, priced now. The shopper's button POSTs, which takes the link (once:
 * `restored_at`) and answers the lines for the browser's cart; a link works RECOVERY_LIMITS.linkDays
 * days after its e-mail.
 */
async function recoveryOfToken(db: Kysely<Database>, token: string) {
  const id = await recoveryIdOfToken(db, token);
  if (!id) return null;
  return (
    (await db
      .selectFrom('checkout_recoveries as r')
      .leftJoin('coupons as c', 'c.id', 'r.coupon_id')
      .select([
        'r.id',
        'r.order_id',
        'r.expires_at',
        'r.restored_at',
        'r.coupon_code',
        'c.is_active',
        'c.valid_until',
        'c.current_uses',
        'c.max_uses',
      ])
      .where('r.id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

type Recovery = NonNullable<Awaited<ReturnType<typeof recoveryOfToken>>>;

/** The coupon the second e-mail gave, while it can still be used. */
function couponOf(r: Recovery, now: Date): string | null {
  if (!r.coupon_code || Number(r.is_active ?? 0) !== 1) return null;
  if (r.valid_until && Date.parse(r.valid_until) <= now.getTime()) return null;
  if (r.max_uses !== null && r.max_uses !== undefined && Number(r.current_uses) >= Number(r.max_uses)) return null;
  return r.coupon_code;
}

async function previewOf(db: Kysely<Database>, r: Recovery, now: Date): Promise<RestorePreview> {
  const lines = await recoveryLines(db, r.order_id, now);
  return {
    lines: lines.map((l) => ({
      productId: l.productId,
      variantId: l.variantId,
      name: l.name,
      variantLabel: l.variantLabel,
      image: l.image,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      available: l.available,
      inventory: l.inventory,
      size: l.size,
      color: l.color,
      everyWeeks: l.everyWeeks,
    })),
    couponCode: couponOf(r, now),
  };
}

/** How far back a browser's checkout still matters to an emptied cart: the latest first e-mail (48 h) and its catch-up (48 h). */
const EMPTIED_LOOKBACK_MS = 96 * 3_600_000;

/**
 * Whether this browser (device hash) made a checkout since `since`, as its orders keep it
 * (`orders.guest_token_hash`, orders_device_idx; migration 0053).
 */
async function deviceCheckedOutSince(db: Kysely<Database>, deviceId: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('guest_token_hash', '=', deviceId)
    .where('created_at', '>', since.toISOString())
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether a recovery still e-mails about a checkout of this browser, however long ago it was made
 * (a second e-mail can come later than the lookback below).
 */
async function deviceHasOpenRecovery(db: Kysely<Database>, device: string): Promise<boolean> {
  const row = await db
    .selectFrom('checkout_recoveries')
    .select('id')
    .where('state', 'in', [...OPEN_STATES])
    .where('device_id', '=', device)
    .executeTakeFirst();
  return row !== undefined;
}

const TokenParam = z.object({ token: z.string().max(200) }).strict();
const NoBody = z.union([z.undefined(), z.null(), z.object({}).strict()]);

export async function registerRestoreRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db' | 'config'>): Promise<void> {
  const recoveryOf = async (params: unknown) => {
    const { token } = parseInput(TokenParam, params);
    const r = await recoveryOfToken(db, token);
    if (!r) throw notFound(RECOVERY_MESSAGES.linkUnknown);
    return r;
  };
  const usable = (r: Recovery, now: Date) => {
    if (r.restored_at) throw new HttpError(409, RECOVERY_MESSAGES.linkUsed);
    if (Date.parse(r.expires_at) <= now.getTime()) throw new HttpError(410, RECOVERY_MESSAGES.linkExpired);
  };

  app.get('/api/cart-restore/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const now = new Date();
    const r = await recoveryOf(req.params);
    usable(r, now);
    return previewOf(db, r, now);
  });

  app.post('/api/cart-restore/:token', access.public, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    parseInput(NoBody, req.body);
    const now = new Date();
    const r = await recoveryOf(req.params);
    usable(r, now);
    // Taken once: of two clicks at the same moment, one puts the cart back.
    const took = await db
      .updateTable('checkout_recoveries')
      .set({ restored_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', r.id)
      .where('restored_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    if (Number(took.numUpdatedRows) === 0) throw new HttpError(409, RECOVERY_MESSAGES.linkUsed);
    return previewOf(db, r, now);
  });

  /**
   * The shopper emptied their cart by hand (the cart page's Remove on its last line): no reminder
   * goes about a checkout this browser or account left before now. Counted per browser and account;
   * a browser without the shop's device cookie has no checkout to stop.
   */
  app.post('/api/cart/emptied', access.public, async (req, reply) => {
    parseInput(NoBody, req.body);
    reply.header('cache-control', 'no-store');
    if (req.session?.impersonator) return { ok: true };
    const now = new Date();
    // A browser is noted only when it made a checkout lately, or one is still e-mailed about (any cookie value would otherwise add a row).
    const cookie = deviceHash(req);
    const since = new Date(now.getTime() - EMPTIED_LOOKBACK_MS);
    const device =
      cookie && ((await deviceCheckedOutSince(db, cookie, since)) || (await deviceHasOpenRecovery(db, cookie))) ? cookie : null;
    const userId = req.session?.user.id ?? null;
    const holders = [...(device ? [`device:${device}`] : []), ...(userId ? [`user:${userId}`] : [])];
    if (!holders.length) return { ok: true };
    await db.transaction().execute(async (trx) => {
      for (const holder of holders) {
        await trx
          .insertInto('emptied_carts')
          .values({ holder, emptied_at: now.toISOString() })
          .onConflict((oc) => oc.column('holder').doUpdateSet({ emptied_at: now.toISOString() }))
          .execute();
      }
      await closeRecoveries(trx, { holders }, { state: 'closed', reason: 'emptied' }, now);
    });
    return { ok: true };
  });
}
