import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { queueEmail } from '../../email/outbox.js';
import { writeTogether, type PendingWrite } from '../../db/query-helpers.js';
import { orderConfirmationVariables } from '../../email/order-email-variables.js';
import type { LockedOrderRows } from './lock-order-rows.js';
import { deliveryChoice } from '../../orders/delivery-choice.js';

/** Queues the order confirmation e-mail in the outbox, to the order's e-mail address (none, no e-mail). */
export async function queueConfirmation(
  trx: Kysely<Database>,
  { order, items }: Pick<LockedOrderRows, 'order' | 'items'>,
  publicUrl: string,
  /** Writes of the payment's to run with the e-mail's (one round trip on PostgreSQL). */
  writeWith: PendingWrite[] = [],
): Promise<void> {
  if (!order.email) return writeTogether(trx, writeWith);
  await queueEmail(trx, {
    to: order.email,
    orderId: order.id,
    templateId: 'order-confirmation',
    ...orderConfirmationVariables(order, items, publicUrl, await deliveryChoice(trx, order.id)),
    writeWith,
  });
}
