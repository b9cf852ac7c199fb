import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowIso } from '../lib/ids.js';
import { indexOrderSearch, indexOrdersOfUser } from './search-terms.js';

/*
 * An account's orders when the account changes: a verified address gathers its guest orders, a
 * deleted account leaves its orders to the shop. Written here because orders/ owns the table
 * (decision 0048); accounts/ calls these inside its own transactions.
 */

/**
 * Checkout attempts that never took money (the caller chose them: unpaid, failed or expired, no
 * refund) are erased; their lines, sessions, holds, events, redemptions and search terms go with
 * them (foreign keys). Records of money are never erased: the caller passes none.
 */
export async function deleteCheckoutAttempts(trx: Kysely<Database>, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length)
    await trx.deleteFrom('orders').where('id', 'in', orderIds).where('origin', '=', 'checkout').where('paid_at', 'is', null).execute();
}

/** A deleted account's orders stay the shop's, without the account; found in the back office by what the order says. */
export async function detachOrdersOfUser(trx: Kysely<Database>, userId: string): Promise<void> {
  const kept = await trx.selectFrom('orders').select('id').where('user_id', '=', userId).orderBy('id').execute();
  if (!kept.length) return;
  await trx.updateTable('orders').set({ user_id: null }).where('user_id', '=', userId).execute();
  for (const { id } of kept) await indexOrderSearch(trx, id);
}

/**
 * Gives the account the guest orders its verified address paid for: paid or refunded, placed
 * without an account, the same address in any case. Unpaid, failed and expired checkouts stay
 * where they are, and so does every order that already belongs to an account. Answers how many moved.
 */
export async function linkGuestOrdersTo(trx: Kysely<Database>, user: { id: string; email: string }): Promise<number> {
  const result = await trx
    .updateTable('orders')
    .set({ user_id: user.id, updated_at: nowIso() })
    .where('user_id', 'is', null)
    .where('payment_status', 'in', ['paid', 'refunded'])
    .where(sql<string>`lower(email)`, '=', user.email.toLowerCase())
    .executeTakeFirst();
  const linked = Number(result.numUpdatedRows);
  // The back office finds an account's orders by its name and e-mail too.
  if (linked) await indexOrdersOfUser(trx, user.id);
  return linked;
}

/**
 * A guest's order joins the account made for it at payment (a subscription needs an account: issue
 * [4/8]), in the payment's transaction; only an order without one. Its search terms name the account.
 */
export async function giveOrderToAccount(trx: Kysely<Database>, orderId: string, userId: string): Promise<void> {
  const result = await trx
    .updateTable('orders')
    .set({ user_id: userId, updated_at: nowIso() })
    .where('id', '=', orderId)
    .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', 'guest')]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows)) await indexOrderSearch(trx, orderId);
}
