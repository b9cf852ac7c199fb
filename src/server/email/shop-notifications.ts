import type { Kysely } from 'kysely';
import type { Database, OrderItemsTable, OrdersTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import type { PendingWrite } from '../db/query-helpers.js';
import { MicroCache } from '../http/micro-cache.js';
import { emailWrites, queueEmail, UnknownTemplateError } from './outbox.js';
import { orderConfirmationVariables } from './order-email-variables.js';
import type { LineOption } from '../../shared/line-options.js';
import {
  SHOP_EMAIL_SETTINGS,
  SHOP_EMAIL_TEMPLATES,
  SHOP_NOTICES_EMAIL_SETTING,
  shopEmailOn,
} from '../../shared/schemas/shop-notifications.js';

/*
 * The e-mails the shop sends itself (issue 28: "new orders reach the owner"), to the contact
 * address the owner keeps in Settings → General (the one the Contact page shows, and where the
 * stock alerts go), each behind its own switch in Settings → Notifications. Each is queued in the
 * transaction of the event it tells of: a paid order's in the one fulfilment step (which runs once
 * however often the provider's webhook comes, from however many processes: it stops at "paid
 * already"), a contact message's with the message's row. So one event, one e-mail.
 */

type Kind = keyof typeof SHOP_EMAIL_SETTINGS;

/** The contact address and the switches, read once a second at most (every paid order asks; a settings save clears it). */
const shopSettings = new MicroCache<Record<string, string>>(1000, 4);

/**
 * Where one kind of notice goes: the notices' own address (Settings → Notifications), else the
 * contact address; null when that kind is switched off or neither address is set.
 */
export async function shopAddressFor(db: Kysely<Database>, kind: Kind): Promise<string | null> {
  const s = await shopSettings.get('shop-email', async () => {
    const rows = await db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', ['contact_email', SHOP_NOTICES_EMAIL_SETTING, ...Object.values(SHOP_EMAIL_SETTINGS)])
      .execute();
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  });
  if (!shopEmailOn(s[SHOP_EMAIL_SETTINGS[kind]])) return null;
  const to = s[SHOP_NOTICES_EMAIL_SETTING]?.trim() || s.contact_email?.trim();
  return to ? to : null;
}

/** The back office's order page, linked from the e-mail. */
export function adminOrderUrl(publicUrl: string, orderId: string): string {
  return `${publicUrl}/admin?tab=orders&view=details&order=${encodeURIComponent(orderId)}`;
}

function customerEmailOf(order: Pick<Selectable<OrdersTable>, 'email'>): string {
  return order.email ?? '';
}

/**
 * The "new order" e-mail to the shop, as writes for the fulfilment step to run with its own (none
 * when it is switched off or no contact address is set). A template missing (a database never
 * seeded) sends nothing rather than failing the payment. `readLineOptions` reads the lines' option
 * names (the catalogue's `orderLineOptions`, passed in: the catalogue's stock alerts e-mail, so
 * e-mail imports no catalogue code), only when the e-mail is sent.
 */
export async function newOrderShopEmailWrites(
  trx: Kysely<Database>,
  { order, items }: { order: Selectable<OrdersTable>; items: Selectable<OrderItemsTable>[] },
  publicUrl: string,
  readLineOptions: () => Promise<(line: Selectable<OrderItemsTable>) => LineOption[]>,
): Promise<PendingWrite[]> {
  const to = await shopAddressFor(trx, 'newOrder');
  if (!to) return [];
  const optionsOf = await readLineOptions();
  const confirmation = orderConfirmationVariables(
    order,
    items.map((i) => ({ ...i, options: optionsOf(i) })),
    publicUrl,
  );
  try {
    const { writes } = await emailWrites(trx, {
      to,
      templateId: SHOP_EMAIL_TEMPLATES.newOrder,
      variables: {
        ...confirmation.variables,
        customerEmail: customerEmailOf(order),
        orderAdminUrl: adminOrderUrl(publicUrl, order.id),
      },
      textVariables: confirmation.textVariables,
    });
    return writes;
  } catch (err) {
    if (err instanceof UnknownTemplateError) return [];
    throw err;
  }
}

/** The "new contact message" e-mail to the shop, queued in the caller's transaction. */
export async function queueContactShopEmail(
  trx: Kysely<Database>,
  message: { name: string; email: string; subject: string; message: string },
  publicUrl: string,
): Promise<void> {
  const to = await shopAddressFor(trx, 'contactMessage');
  if (!to) return;
  try {
    await queueEmail(trx, {
      to,
      templateId: SHOP_EMAIL_TEMPLATES.contactMessage,
      variables: {
        senderName: message.name,
        senderEmail: message.email,
        messageSubject: message.subject,
        message: message.message,
        messagesAdminUrl: `${publicUrl}/admin?tab=email&view=messages`,
      },
      // The notice says "Reply to … to answer": a reply goes straight to the visitor.
      replyTo: message.email,
    });
  } catch (err) {
    if (!(err instanceof UnknownTemplateError)) throw err;
  }
}
