import { lineTitle } from '../../shared/variants.js';
import { lineNameWithOptions, type LineOption } from '../../shared/line-options.js';
import type { Selectable } from 'kysely';
import { formatAddress } from '../../shared/address.js';
import type { OrderItemsTable, OrdersTable } from '../db/schema.js';
import { formatCents } from '../../shared/money.js';
import { carrierName, trackingUrl } from '../../shared/carriers.js';
import { orderReferenceOf, type OrderDelivery } from '../../shared/schemas/orders.js';
import { BEING_PREPARED_LABEL, isToShipOrder } from '../../shared/order-words.js';
import { deliveryEstimateText } from '../../shared/delivery.js';
import { parseJson } from '../lib/json.js';
import { escapeHtml } from '../lib/html.js';
import { SUBSCRIPTION_TEXTS, subscriptionLineText } from '../../shared/subscription-words.js';

/**
 * The one place that assembles the variables of the order e-mails (confirmation, status update,
 * shipping notification). Line items, tracking and addresses reach the templates as data; the
 * built-in templates (default-templates.ts) draw them with `{{#each}}` / `{{#if}}` blocks and
 * double braces, so everything is escaped by Handlebars and no HTML is built in services.
 *
 * Legacy variables: templates the owner edited before migration 0015 still use `itemsList`,
 * `trackingSection` (pre-rendered pieces drawn with triple braces), the address as one string
 * `shippingAddress`, and on the shipping e-mail `trackingNumber` / `carrier` / `trackingUrl`.
 * They are still passed, built here from the same data (every piece of the HTML ones escaped, as
 * before), so an edited template keeps working. Do not drop them while such templates may exist.
 */

/** What `queueEmail` takes: the HTML body's variables and the plain-text body's where they differ. */
export type EmailVariables = { variables: Record<string, unknown>; textVariables: Record<string, unknown> };

/** One line of the order as the e-mail shows it. */
type EmailLineItem = { name: string; quantity: number; isFreeGift: boolean; lineTotal: string };

/** A parcel's tracking: the carrier's name (null when unknown), the number, the carrier's own page (null when unknown). */
type EmailTracking = { carrier: string | null; number: string; url: string | null };

type Address = { name?: string; address?: string; city?: string; state?: string; zip?: string; country?: string };

/** The stored shipping address (checkout's object, or the owner's free text) as lines (src/shared/address.ts). */
export function storedAddressLines(raw: string | null): string[] {
  return formatAddress(parseJson<Address | string | null>(raw, raw));
}

function storedAddressName(raw: string | null): string | undefined {
  const a = parseJson<Address | string | null>(raw, null);
  return a && typeof a === 'object' && a.name ? a.name : undefined;
}

/** An order line as the e-mails name it: the product and, when it has options, the variant. */
type EmailOrderItem = Pick<Selectable<OrderItemsTable>, 'product_name' | 'quantity' | 'price_cents' | 'is_free_gift'> & {
  variant_label?: string;
  /** A subscription line: its interval and discount, said after its name ("Every 4 weeks · 10% off"). */
  every_weeks?: number | null;
  plan_discount_percent?: number | null;
  /** The product's own option names and values (catalog/line-options.ts); without them, the variant's label. */
  options?: LineOption[];
};

function lineItems(items: EmailOrderItem[]): EmailLineItem[] {
  return items.map((i) => ({
    name:
      (i.options ? lineNameWithOptions(i.product_name, i.options) : lineTitle(i.product_name, i.variant_label ?? '')) +
      (i.every_weeks ? ` (${subscriptionLineText(i.every_weeks, i.plan_discount_percent ?? 0)})` : ''),
    quantity: i.quantity,
    isFreeGift: Boolean(i.is_free_gift),
    lineTotal: formatCents(i.price_cents * i.quantity),
  }));
}

/** Legacy `itemsList` (HTML): the table the confirmation drew before its template drew the items itself. */
function legacyItemsHtml(items: EmailLineItem[]): string {
  return `<table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">${items
    .map(
      (i) =>
        `<tr><td>${escapeHtml(i.name)}${i.isFreeGift ? ' (Free Gift)' : ''} &times; ${i.quantity}</td><td align="right">${escapeHtml(i.lineTotal)}</td></tr>`,
    )
    .join('')}</table>`;
}

/** Legacy `trackingSection` (HTML and text): the paragraph the status update drew before its template drew `tracking`. */
function legacyTrackingSection(t: EmailTracking | null): { html: string; text: string } {
  if (!t) return { html: '', text: '' };
  const html = `<p>${t.carrier ? `Carrier: <strong>${escapeHtml(t.carrier)}</strong><br>` : ''}Tracking number: <strong>${escapeHtml(t.number)}</strong>${
    t.url ? `<br><a href="${escapeHtml(t.url)}">Track your package on the ${escapeHtml(t.carrier ?? '')} website</a>` : ''
  }</p>`;
  const text = [t.carrier ? `Carrier: ${t.carrier}` : '', `Tracking number: ${t.number}`, t.url ? `Track your package: ${t.url}` : '']
    .filter(Boolean)
    .join('\n');
  return { html, text };
}

/**
 * The subscriptions a paid checkout started (issue [4/8]), for the confirmation's block: the terms
 * the shopper ticked (as kept with the consent, a paragraph a line), each subscription's own link to
 * manage or cancel it without signing in, and, for a guest, the e-mail of the account made for them.
 */
export type ConfirmationSubscriptions = {
  termsText: string;
  links: { label: string; url: string }[];
  accountMadeFor: string | null;
};

/** The note of the account a guest's subscription made (shown only then). */
export const accountMadeNote = (email: string) =>
  `We have made an account for ${email} to hold your subscription. It needs no password: the links here manage it, and "Forgot password" on the sign-in page lets you set one whenever you like.`;

type ConfirmationOrder = Pick<
  Selectable<OrdersTable>,
  'id' | 'order_number' | 'subtotal_cents' | 'discount_cents' | 'shipping_cents' | 'tax_cents' | 'total_cents' | 'shipping_address'
>;

/** The order confirmation e-mail ('order-confirmation'), queued when the order is paid. */
export function orderConfirmationVariables(
  order: ConfirmationOrder,
  items: EmailOrderItem[],
  publicUrl: string,
  /** The shipping method and estimate chosen at checkout (orders/delivery-choice.ts); none, and the e-mail says nothing of it. */
  delivery: OrderDelivery | null = null,
  /** The subscriptions the order started; none, and the subscription block is not drawn. */
  subscriptions: ConfirmationSubscriptions | null = null,
): EmailVariables {
  const lines = lineItems(items);
  const address = storedAddressLines(order.shipping_address);
  const started = subscriptions && subscriptions.links.length > 0 ? subscriptions : null;
  return {
    variables: {
      orderNumber: order.order_number,
      shippingMethod: delivery?.method ?? '',
      deliveryEstimate: delivery ? deliveryEstimateText(delivery.estimatedDays) : '',
      customerName: storedAddressName(order.shipping_address) ?? 'Customer',
      items: lines,
      subtotal: formatCents(order.subtotal_cents),
      discount: formatCents(order.discount_cents),
      shipping: order.shipping_cents === 0 ? 'FREE' : formatCents(order.shipping_cents),
      tax: formatCents(order.tax_cents),
      total: formatCents(order.total_cents),
      shippingAddressLines: address,
      orderUrl: `${publicUrl}/order-confirmation?orderId=${order.id}`,
      // The subscription block (issue [4/8]): drawn only when the terms are there.
      subscriptionTerms: started ? started.termsText.split('\n').filter(Boolean) : [],
      subscriptionAccountNote: started?.accountMadeFor ? accountMadeNote(started.accountMadeFor) : '',
      subscriptionManageUrl: started ? `${publicUrl}${SUBSCRIPTION_TEXTS.accountPath}` : '',
      subscriptionCancelLinks: started ? started.links : [],
      // Legacy, for templates edited before migration 0015 (see the top of this file).
      itemsList: legacyItemsHtml(lines),
      shippingAddress: address.join('\n'),
    },
    textVariables: { itemsList: lines.map((i) => `${i.name} x ${i.quantity}  ${i.lineTotal}`).join('\n') },
  };
}

/** The shop's address, for the order links of e-mails queued without one at hand: set once by the app at start. */
let shopUrl = 'http://localhost:3000';
export function setOrderEmailShopUrl(url: string): void {
  shopUrl = url.replace(/\/+$/, '');
}

/**
 * Where an order e-mail sends its reader to see the order: a guest has no account, so their
 * order's own page (the confirmation page the checkout ended on); an account holder, their orders.
 */
export function orderLinkOf(
  order: { id: string; user_id?: string | null },
  publicUrl: string = shopUrl,
): { guestOrder: boolean; orderUrl: string } {
  const guestOrder = !order.user_id || order.user_id === 'guest';
  return {
    guestOrder,
    orderUrl: guestOrder ? `${publicUrl}/order-confirmation?orderId=${encodeURIComponent(order.id)}` : `${publicUrl}/orders`,
  };
}

type StatusOrder = Pick<
  Selectable<OrdersTable>,
  'id' | 'order_number' | 'shipping_address' | 'shipstation_tracking_number' | 'shipping_carrier'
> &
  Partial<Pick<Selectable<OrdersTable>, 'payment_status' | 'user_id'>>;

/** The status as the customer reads it: a paid order not yet shipped is "Paid, being prepared" (never "Completed"). */
function statusWords(status: string, paymentStatus: string | undefined): string {
  if (paymentStatus && isToShipOrder({ status, paymentStatus })) return BEING_PREPARED_LABEL;
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/**
 * The status update e-mail ('order-status-update'). Tracking is only ever the carrier's number
 * from a bought label, with a link to the carrier's own page (never a search engine); before a
 * label, or on a cancelled order, there is none. The specification's brand code goes out as the
 * order's reference (`orderReference`), which no carrier knows.
 */
export function statusUpdateVariables(order: StatusOrder, status: string, customer: { full_name: string } | undefined): EmailVariables {
  const number = status === 'cancelled' ? null : (order.shipstation_tracking_number?.trim() ?? '') || null;
  const tracking: EmailTracking | null = number
    ? { number, carrier: carrierName(order.shipping_carrier), url: trackingUrl(order.shipping_carrier, number) }
    : null;
  const address = storedAddressLines(order.shipping_address);
  const section = legacyTrackingSection(tracking);
  return {
    variables: {
      orderNumber: order.order_number,
      customerName: customer?.full_name ?? storedAddressName(order.shipping_address) ?? 'Customer',
      orderReference: orderReferenceOf(order.id),
      status: statusWords(status, order.payment_status),
      tracking,
      shippingAddressLines: address,
      ...orderLinkOf(order),
      // Legacy, for templates edited before migration 0015 (see the top of this file).
      trackingNumber: number ?? '',
      trackingSection: section.html,
      shippingAddress: address.join('\n'),
    },
    textVariables: { trackingSection: section.text },
  };
}

/** The shipping e-mail ('shipping-notification'), queued when a label is bought. */
export function shippingNotificationVariables(input: {
  orderNumber: string;
  /** Where the parcel goes (the label's ship-to; its country is not shown). */
  shipTo: { name: string; address?: string; city?: string; state?: string; zip?: string };
  trackingNumber: string | null;
  carrierCode: string | null;
}): EmailVariables {
  const tracking: EmailTracking = {
    number: input.trackingNumber ?? '',
    carrier: carrierName(input.carrierCode),
    url: trackingUrl(input.carrierCode, input.trackingNumber),
  };
  const { name, address: street, city, state, zip } = input.shipTo;
  const address = formatAddress({ name, address: street, city, state, zip });
  return {
    variables: {
      orderNumber: input.orderNumber,
      customerName: input.shipTo.name,
      tracking,
      shippingAddressLines: address,
      // Legacy, for templates edited before migration 0015 (see the top of this file).
      trackingNumber: tracking.number,
      carrier: tracking.carrier ?? '',
      trackingUrl: tracking.url ?? '',
      shippingAddress: address.join('\n'),
    },
    textVariables: {},
  };
}
