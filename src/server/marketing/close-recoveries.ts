import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { PendingWrite } from '../db/query-helpers.js';
import { RECOVERY_LIMITS, type RecoveryReason } from '../../shared/schemas/recovery.js';

/** The states a checkout recovery can still move from (an e-mail may still go, or an order still count). */
export const OPEN_STATES = ['abandoned', 'emailed'] as const;

const normal = (email: string) => email.trim().toLowerCase();

/** A checkout paid this long after it was made may have been decided by the recovery pass meanwhile. */
const SETTLE_ALWAYS_AFTER_MS = RECOVERY_LIMITS.firstHoursMin * 3_600_000 - 10 * 60_000;

/**
 * A paid order's writes (run with the payment's, checkout/fulfilment/mark-order-paid.ts): the same
 * address's open recoveries end, recovered when an e-mail had gone (the order and its amount kept
 * for the figures), else closed as ordered; an e-mail of theirs still queued is deleted first, so a
 * payment that arrives by webhook between the scheduling and the sending stops it.
 */
export function settleRecoveriesWrites(
  trx: Kysely<Database>,
  order: { id: string; email: string | null; total_cents: number; created_at: string },
  now: Date,
  /** Whether the address had recoveries when the payment began (lock-order-rows.ts); undefined: not known. */
  known?: boolean,
): PendingWrite[] {
  if (!order.email) return [];
  // None when the payment began, and none can have come since: the pass decides only checkouts older
  // than the first delay (an hour at least, less a margin for clocks), and locks the order to do so,
  // so one deciding this order while it is paid is seen by these writes, made after the order's lock.
  if (known === false && Date.parse(order.created_at) > now.getTime() - SETTLE_ALWAYS_AFTER_MS) return [];
  const email = normal(order.email);
  const at = now.toISOString();
  // The e-mails that went: those counted, less the last one while it is still queued (it is deleted
  // next). The update comes first and the delete reads no state: on SQLite they run one after the
  // other, on PostgreSQL on one snapshot (writeTogether), and both read the mail as still queued.
  const went = sql<number>`emails_sent - case when mail_id is not null and exists (select 1 from email_outbox eo where eo.id = checkout_recoveries.mail_id and eo.status = 'queued') then 1 else 0 end`;
  const ifWent = (then: unknown, otherwise: unknown) => sql`case when ${went} > 0 then ${then} else ${otherwise} end` as never;
  return [
    trx
      .updateTable('checkout_recoveries')
      .set({
        state: ifWent(sql.lit('recovered'), sql.lit('closed')),
        reason: ifWent(sql.lit(null), sql.lit('ordered')),
        recovered_order_id: ifWent(order.id, null),
        recovered_at: ifWent(at, null),
        recovered_cents: ifWent(sql`cast(${order.total_cents} as integer)`, null),
        emails_sent: went as never,
        next_email_at: null,
        updated_at: at,
      })
      .where('email', '=', email)
      .where('expires_at', '>', at)
      .where((eb) =>
        eb.or([
          eb('state', 'in', [...OPEN_STATES]),
          eb.and([eb('state', '=', 'closed'), eb('reason', 'in', ['emptied', 'newer-checkout'])]),
        ]),
      ),
    // Every recovery e-mail to this address not yet sent.
    trx
      .deleteFrom('email_outbox')
      .where('status', '=', 'queued')
      .where('id', 'in', (eb) =>
        eb.selectFrom('checkout_recoveries').select('mail_id').where('email', '=', email).where('mail_id', 'is not', null),
      ),
  ];
}

/**
 * Ends the open recoveries of an address (an unsubscribe: 'opted-out') or of a browser or account
 * (an emptied cart: 'closed', 'emptied'), deleting any of their e-mails still queued.
 */
export async function closeRecoveries(
  trx: Kysely<Database>,
  who: { email: string } | { holders: string[] },
  to: { state: 'opted-out' | 'closed'; reason: RecoveryReason | null },
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const ids = await trx
    .selectFrom('checkout_recoveries')
    .select(['id', 'mail_id'])
    .where('state', 'in', [...OPEN_STATES])
    .where((eb) => {
      if ('email' in who) return eb('email', '=', normal(who.email));
      const ors = who.holders.flatMap((h) =>
        h.startsWith('device:') ? [eb('device_id', '=', h.slice(7))] : h.startsWith('user:') ? [eb('user_id', '=', h.slice(5))] : [],
      );
      return eb.or(ors);
    })
    .execute();
  if (!ids.length) return;
  const mails = ids.map((r) => r.mail_id).filter((m): m is string => m !== null);
  // An e-mail still queued is deleted, and no longer counted as sent.
  const stopped = mails.length
    ? (await trx.selectFrom('email_outbox').select('id').where('status', '=', 'queued').where('id', 'in', mails).execute()).map((m) => m.id)
    : [];
  if (stopped.length) await trx.deleteFrom('email_outbox').where('status', '=', 'queued').where('id', 'in', stopped).execute();
  for (const r of ids) {
    const unsent = r.mail_id !== null && stopped.includes(r.mail_id);
    await trx
      .updateTable('checkout_recoveries')
      .set((eb) => ({
        state: to.state,
        reason: to.reason,
        next_email_at: null,
        updated_at: at,
        ...(unsent ? { emails_sent: eb('emails_sent', '-', 1) } : {}),
      }))
      .where('id', '=', r.id)
      .where('state', 'in', [...OPEN_STATES])
      .execute();
  }
}

/**
 * An account's deletion (accounts/self-service.ts): the recovery rows of its deleted checkout
 * attempts go with them; its other recovery and reorder reminder rows stay for the shop's figures,
 * without the person (no address, account or browser).
 */
export async function forgetMarketingRecords(
  trx: Kysely<Database>,
  who: { email: string; userId: string; deletedOrderIds: readonly string[] },
): Promise<void> {
  const email = normal(who.email);
  if (who.deletedOrderIds.length)
    await trx
      .deleteFrom('checkout_recoveries')
      .where('order_id', 'in', [...who.deletedOrderIds])
      .execute();
  await trx
    .updateTable('checkout_recoveries')
    .set({ email: '', user_id: null, device_id: null, next_email_at: null })
    .where((eb) => eb.or([eb('email', '=', email), eb('user_id', '=', who.userId)]))
    .execute();
  await trx
    .updateTable('reorder_reminders')
    .set({ email: '', user_id: null })
    .where((eb) => eb.or([eb('email', '=', email), eb('user_id', '=', who.userId)]))
    .execute();
}

/** The person's checkout recoveries and reorder reminders, as Download My Data lists them (newest first). */
export async function marketingRecordsOf(db: Kysely<Database>, who: { email: string; userId: string }) {
  const email = normal(who.email);
  const [recoveries, reminders] = await Promise.all([
    db
      .selectFrom('checkout_recoveries as r')
      .innerJoin('orders as o', 'o.id', 'r.order_id')
      .select(['o.order_number', 'r.checkout_at', 'r.state', 'r.emails_sent', 'r.last_email_at'])
      .where((eb) => eb.or([eb('r.email', '=', email), eb('r.user_id', '=', who.userId)]))
      .orderBy('r.checkout_at', 'desc')
      .execute(),
    db
      .selectFrom('reorder_reminders as m')
      .innerJoin('orders as o', 'o.id', 'm.order_id')
      .innerJoin('products as p', 'p.id', 'm.product_id')
      .select(['o.order_number', 'p.name', 'm.state', 'm.created_at'])
      .where((eb) => eb.or([eb('m.email', '=', email), eb('m.user_id', '=', who.userId)]))
      .orderBy('m.created_at', 'desc')
      .execute(),
  ]);
  return {
    checkoutReminders: recoveries.map((r) => ({
      orderNumber: r.order_number,
      checkoutAt: r.checkout_at,
      state: r.state,
      emailsSent: Number(r.emails_sent),
      lastEmailAt: r.last_email_at,
    })),
    reorderReminders: reminders.map((m) => ({ orderNumber: m.order_number, product: m.name, state: m.state, decidedAt: m.created_at })),
  };
}
