import type { Kysely, Selectable } from 'kysely';
import type { Database, OrderItemsTable, OrdersTable } from '../../db/schema.js';
import type { OrderDelivery } from '../../../shared/schemas/orders.js';
import { queueEmail } from '../../email/outbox.js';
import { writeTogether, type PendingWrite } from '../../db/query-helpers.js';
import { orderConfirmationVariables, type ConfirmationSubscriptions } from '../../email/order-email-variables.js';
import { deliveryChoice } from '../delivery-choice.js';
import { emailOnTimeline } from '../events.js';
import { orderLineOptions } from '../../catalog/line-options.js';

/**
 * Queues the order confirmation e-mail in the outbox, to the order's e-mail address (none, no
 * e-mail). The delivery chosen at checkout comes with the locked rows (read with the order's
 * lines); a caller without it (an order the owner entered) has it read here.
 */
export async function queueConfirmation(
  trx: Kysely<Database>,
  { order, items, delivery }: { order: Selectable<OrdersTable>; items: Selectable<OrderItemsTable>[]; delivery?: OrderDelivery | null },
  publicUrl: string,
  /** Writes of the payment's to run with the e-mail's (one round trip on PostgreSQL). */
  writeWith: PendingWrite[] = [],
  /** The subscriptions the payment started (issue [4/8]): their terms and links join the e-mail. */
  subscriptions: ConfirmationSubscriptions | null = null,
): Promise<void> {
  if (!order.email) return writeTogether(trx, writeWith);
  // Lines name the product's own options ("Scent: Lavender · Size: 32 oz"); no read when none has options.
  const optionsOf = await orderLineOptions(trx, items);
  const named = items.map((i) => ({ ...i, options: optionsOf(i) }));
  await queueEmail(trx, {
    to: order.email,
    order: emailOnTimeline(order.id),
    templateId: 'order-confirmation',
    ...orderConfirmationVariables(
      order,
      named,
      publicUrl,
      delivery !== undefined ? delivery : await deliveryChoice(trx, order.id),
      subscriptions,
    ),
    writeWith,
  });
}
