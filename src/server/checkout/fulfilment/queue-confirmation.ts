import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { queueEmail } from '../../email/outbox.js';
import { formatCents } from '../../../shared/money.js';
import { escapeHtml } from '../../seo/html.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/** Queues the order confirmation e-mail in the outbox, to the order's e-mail address (none, no e-mail). */
export async function queueConfirmation(
  trx: Kysely<Database>,
  { order, items }: Pick<LockedOrderRows, 'order' | 'items'>,
  publicUrl: string,
): Promise<void> {
  if (!order.email) return;
  const address = JSON.parse(order.shipping_address ?? '{}') as Record<string, string>;
  const addressText = [address.name, address.address, `${address.city ?? ''}, ${address.state ?? ''} ${address.zip ?? ''}`, address.country]
    .filter(Boolean)
    .join('\n');
  const itemsHtml = `<table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">${items
    .map(
      (i) =>
        `<tr><td>${escapeHtml(i.product_name)}${i.is_free_gift ? ' (Free Gift)' : ''} &times; ${i.quantity}</td><td align="right">${escapeHtml(
          formatCents(i.price_cents * i.quantity),
        )}</td></tr>`,
    )
    .join('')}</table>`;
  const itemsText = items.map((i) => `${i.product_name} x ${i.quantity}  ${formatCents(i.price_cents * i.quantity)}`).join('\n');
  await queueEmail(trx, {
    to: order.email,
    orderId: order.id,
    templateId: 'order-confirmation',
    variables: {
      orderNumber: order.order_number,
      customerName: address.name ?? 'Customer',
      itemsList: itemsHtml,
      subtotal: formatCents(order.subtotal_cents),
      discount: formatCents(order.discount_cents),
      shipping: order.shipping_cents === 0 ? 'FREE' : formatCents(order.shipping_cents),
      tax: formatCents(order.tax_cents),
      total: formatCents(order.total_cents),
      shippingAddress: addressText,
      orderUrl: `${publicUrl}/order-confirmation?orderId=${order.id}`,
    },
    textVariables: { itemsList: itemsText },
  });
}
