import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { queueEmail } from '../../email/outbox.js';
import { writeTogether, type PendingWrite } from '../../db/query-helpers.js';
import { orderConfirmationVariables } from '../../email/order-email-variables.js';
import type { LockedOrderRows } from './lock-order-rows.js';
import { deliveryChoice } from '../../orders/delivery-choice.js';

/**
 * Queues the order confirmation e-mail in the outbox, to the order's e-mail address (none, no
 * e-mail). The delivery chosen at checkout comes with the locked rows (read with the order's
 * lines); a caller without it (an order the owner entered) has it read here.
 */
export async function queueConfirmation(
  trx: Kysely<Database>,
  { order, items, delivery }: Pick<LockedOrderRows, 'order' | 'items'> & { delivery?: LockedOrderRows['delivery'] },
  publicUrl: string,
  /** Writes of the payment's to run with the e-mail's (one round trip on PostgreSQL). */
  writeWith: PendingWrite[] = [],
): Promise<void> {
  if (!order.email) return writeTogether(trx, writeWith);
  await queueEmail(trx, {
    to: order.email,
    orderId: order.id,
    templateId: 'order-confirmation',
    ...orderConfirmationVariables(order, items, publicUrl, delivery !== undefined ? delivery : await deliveryChoice(trx, order.id)),
    writeWith,
  });
}
