import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { queueEmail } from '../../email/outbox.js';
import { orderConfirmationVariables } from '../../email/order-email-variables.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/** Queues the order confirmation e-mail in the outbox, to the order's e-mail address (none, no e-mail). */
export async function queueConfirmation(
  trx: Kysely<Database>,
  { order, items }: Pick<LockedOrderRows, 'order' | 'items'>,
  publicUrl: string,
): Promise<void> {
  if (!order.email) return;
  await queueEmail(trx, {
    to: order.email,
    orderId: order.id,
    templateId: 'order-confirmation',
    ...orderConfirmationVariables(order, items, publicUrl),
  });
}
