import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { CONTENT_MESSAGES } from '../../shared/schemas/content.js';
import { renderTemplate } from './render.js';
import { orderConfirmationVariables, shippingNotificationVariables, statusUpdateVariables } from './order-email-variables.js';
import { defaultEmailTemplates } from './default-templates.js';
import {
  templateVocabulary,
  unescapedOutputMessage,
  unescapedOutputs,
  unknownVariables,
  unknownVariablesMessage,
} from './template-variables.js';

/** A sample order for previews and test sends, drawn through the same builders as real e-mails. */
const SAMPLE_ORDER = {
  id: 'order_sample_A1B2C3D4',
  order_number: 'A1B2C3D4',
  subtotal_cents: 11997,
  discount_cents: 1200,
  shipping_cents: 0,
  tax_cents: 864,
  total_cents: 11661,
  shipping_address: JSON.stringify({
    name: 'Jamie Sample',
    address: '12 Green Lane',
    city: 'Portland',
    state: 'OR',
    zip: '97201',
    country: 'US',
  }),
  shipstation_tracking_number: '9400100000000000000000',
  shipping_carrier: 'usps',
  payment_status: 'paid' as const,
};
const SAMPLE_ITEMS = [
  { product_name: '10 - Reusable Cleaning Cloths (10-Pack)', quantity: 2, price_cents: 3499, is_free_gift: 0 },
  { product_name: 'Concentrated All-Purpose Cleaner', variant_label: 'Lavender, 1 L', quantity: 1, price_cents: 2499, is_free_gift: 0 },
  { product_name: 'Sweep & Mop Tool', quantity: 1, price_cents: 4999, is_free_gift: 0 },
];
const sampleConfirmation = orderConfirmationVariables(SAMPLE_ORDER, SAMPLE_ITEMS, 'https://shop.example', {
  method: 'Standard Shipping',
  estimatedDays: '5-7 business days',
});
const sampleStatus = statusUpdateVariables(SAMPLE_ORDER, 'shipped', { full_name: 'Jamie Sample' });
const sampleShipping = shippingNotificationVariables({
  orderNumber: SAMPLE_ORDER.order_number,
  shipTo: { name: 'Jamie Sample', address: '12 Green Lane', city: 'Portland', state: 'OR', zip: '97201' },
  trackingNumber: SAMPLE_ORDER.shipstation_tracking_number,
  carrierCode: SAMPLE_ORDER.shipping_carrier,
});

/**
 * Sample values for previews and test sends, one per known variable, in the shapes the shop sends
 * (items and address lines as lists, tracking as an object, and the legacy pre-rendered pieces).
 */
export const SAMPLE_VARIABLES: Record<string, unknown> = {
  ...sampleShipping.variables,
  ...sampleStatus.variables,
  ...sampleConfirmation.variables,
  shopUrl: 'https://shop.example',
  resetUrl: 'https://shop.example/reset-password?token=sample',
  signInUrl: 'https://shop.example/auth?tab=signin&deviceToken=sample',
  expiresInMinutes: '60',
  verifyUrl: 'https://shop.example/verify-email?token=sample',
  expiresInHours: '24',
  couponCode: 'REWARD-SAMPLE1',
  discountPercent: '15',
  expiresAt: '2027-02-21',
  points: '300',
  refundAmount: '$25.00',
  refundedTotal: '$25.00',
  refundKind: 'in part',
  newEmail: 'jamie.new@example.com',
  contactUrl: 'https://shop.example/contact',
  changedAt: '14 March 2026, 09:30 UTC',
  resetRequestUrl: 'https://shop.example/password-reset',
  customerEmail: 'jamie@example.com',
  orderAdminUrl: 'https://shop.example/admin?tab=orders&view=details&order=order_sample_A1B2C3D4',
  senderName: 'Jamie Sample',
  senderEmail: 'jamie@example.com',
  messageSubject: 'Refills for the mop',
  message: 'Hello,\nDo you sell the mop refills in packs of three?\nThanks, Jamie',
  messagesAdminUrl: 'https://shop.example/admin?tab=email&view=messages',
  // Subscriptions (subscription-templates.ts): the dates as the e-mails write them.
  terms: 'Every 4 weeks · 10% off',
  renewalDate: 'March 28, 2026',
  nextRenewal: 'April 25, 2026',
  appliesFrom: 'March 28, 2026',
  resumeDate: 'May 2, 2026',
  deliveryDate: 'March 28, 2026',
  skipDate: 'April 11, 2026',
  nextTry: 'March 31, 2026',
  cancelledAt: 'March 14, 2026',
  reason: 'your card was declined',
  missing: 'Laundry Powder, 2 lb',
  payUrl: 'https://shop.example/pay/cs_sample',
  manageUrl: 'https://shop.example/subscriptions/manage/sample',
  headline: 'payment failing',
  detail: 'the renewal due March 28, 2026 could not be charged after 4 tries and was skipped.',
  adminUrl: 'https://shop.example/admin?tab=subscriptions',
  change: 'Glass Cleaner, 16 oz × 1 rides along once.',
  consentText: 'I agree to be charged every 4 weeks until I cancel.',
  address: 'Jamie Sample, 12 Fern Way, Portland, OR 97201',
  city: 'Portland',
  cardBrand: 'Visa',
  cardLast4: '4242',
  retryNote: 'We are trying your unpaid delivery again with this card now.',
  // The price change (subscription-price-change): told March 14, charged from the delivery 14 days later (at least 7).
  noticeDate: 'March 14, 2026',
  effectiveDate: 'March 28, 2026',
  priceChanges: [{ name: 'Laundry Powder, 2 lb', quantity: 2, oldPrice: '$36.00', newPrice: '$39.60' }],
  priceNote: 'Until then, every delivery is charged at the price you pay now.',
  // The review request (review-templates.ts): each product of the order with its own link.
  products: [
    {
      name: 'Concentrated All-Purpose Cleaner',
      variant: 'Lavender, 1 L',
      image: 'https://shop.example/uploads/products/all-purpose-cleaner-w320.jpg',
      reviewUrl: 'https://shop.example/review/sample-1',
    },
    { name: 'Sweep & Mop Tool', variant: '', image: '', reviewUrl: 'https://shop.example/review/sample-2' },
  ],
  optOutUrl: 'https://shop.example/reviews/opt-out?token=sample',
  // Offers and reminders (marketing-templates.ts): the cart left at checkout, the footer's link and address.
  cartLines: [
    { name: 'Laundry Powder', variant: 'Unscented, 2 lb', quantity: '2', price: '$36.00', image: '', soldOut: false },
    { name: 'Glass Cleaner', variant: '16 oz', quantity: '1', price: '$12.50', image: '', soldOut: true },
  ],
  cartTotal: '$36.00',
  restoreUrl: 'https://shop.example/cart/restore?token=sample',
  linkDays: '7',
  couponExpiresAt: '2026-12-07',
  // The reorder reminder (reorder-reminder): the lines of the order to buy again, subscribe and save where offered.
  orderDate: 'March 14, 2026',
  reorderLines: [
    {
      name: 'Laundry Powder (2 lb)',
      variant: '',
      quantity: '2',
      price: '$37.98',
      image: '',
      subscribeUrl: 'https://shop.example/products/laundry-powder?variant=var_laundry-powder',
      subscribePercent: '10',
    },
    { name: 'Mop Refill Pad', variant: '', quantity: '1', price: '$12.99', image: '', subscribeUrl: '', subscribePercent: '' },
  ],
  reorderTotal: '$50.97',
  reorderUrl: 'https://shop.example/reorder?token=sample',
  reorderLinkDays: '30',
  unsubscribeUrl: 'https://shop.example/unsubscribe?token=sample',
  shopAddress: 'EcoClean, 12 Green Lane, Portland, OR 97201',
};
const SAMPLE_TEXT: Record<string, unknown> = {
  ...sampleShipping.textVariables,
  ...sampleStatus.textVariables,
  ...sampleConfirmation.textVariables,
};

function toTemplateView(t: {
  id: string;
  name: string;
  subject: string;
  html: string;
  text: string | null;
  variables: string;
  built_in: number;
  updated_at: string;
}) {
  return {
    id: t.id,
    name: t.name,
    subject: t.subject,
    html: t.html,
    text: t.text,
    variables: parseJson<string[]>(t.variables, []),
    builtIn: Boolean(t.built_in),
    updatedAt: t.updated_at,
  };
}

export async function listTemplates(db: Kysely<Database>) {
  return (await db.selectFrom('email_templates').selectAll().orderBy('built_in', 'desc').orderBy('name').execute()).map(toTemplateView);
}

async function getTemplate(db: Kysely<Database>, id: string) {
  const t = await db.selectFrom('email_templates').selectAll().where('id', '=', id).executeTakeFirst();
  if (!t) throw new HttpError(404, CONTENT_MESSAGES.templateNotFound);
  return toTemplateView(t);
}

/**
 * Handlebars reports "Parse error on line 3:", then the source near the fault and a caret; the
 * owner needs the line and that source, not the parser's token names.
 */
function templateErrorText(message: string): string {
  const [first = '', near] = message.split('\n');
  if (!first.startsWith('Parse error')) return first;
  const snippet = near?.trim().slice(-80);
  return `${first.replace(/:$/, '')}${snippet ? ` near "${snippet}"` : ''}. Check that every {{ has its }} and every {{#block}} is closed.`;
}

export async function saveTemplate(
  db: Kysely<Database>,
  input: { id: string; name: string; subject: string; html: string; text?: string | null; variables: string[] },
) {
  // A template that does not compile must not replace a working one.
  try {
    renderTemplate({ subject: input.subject, html: input.html, text: input.text ?? null }, SAMPLE_VARIABLES, {
      ...SAMPLE_VARIABLES,
      ...SAMPLE_TEXT,
    });
  } catch (err) {
    throw new HttpError(400, `The template has an error: ${templateErrorText((err as Error).message)}`);
  }
  // Three braces ({{{name}}}, {{&name}}) draw a variable as HTML: a visitor's name would become markup.
  const unescaped = unescapedOutputs([input.subject, input.html, input.text ?? '']);
  if (unescaped.length) throw new HttpError(400, unescapedOutputMessage(unescaped));
  // A built-in template's variables are what the shop sends it, whatever the form listed.
  const vocabulary = templateVocabulary(input.id, input.variables, SAMPLE_VARIABLES);
  const unknown = unknownVariables([input.subject, input.html, input.text ?? ''], {
    names: vocabulary.names,
    sample: SAMPLE_VARIABLES,
    ...(vocabulary.nested ? { nested: vocabulary.nested } : {}),
  });
  if (unknown.length) throw new HttpError(400, unknownVariablesMessage(unknown, vocabulary.offered));
  const at = nowIso();
  const values = {
    name: input.name,
    subject: input.subject,
    html: input.html,
    text: input.text ?? null,
    variables: JSON.stringify(vocabulary.builtIn ? vocabulary.offered : input.variables),
    updated_at: at,
  };
  await db
    .insertInto('email_templates')
    .values({ id: input.id, ...values, built_in: 0, created_at: at })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
  return getTemplate(db, input.id);
}

export async function deleteTemplate(db: Kysely<Database>, id: string): Promise<void> {
  const t = await db.selectFrom('email_templates').select(['built_in']).where('id', '=', id).executeTakeFirst();
  if (!t) throw new HttpError(404, CONTENT_MESSAGES.templateNotFound);
  // The shop sends the built-in ones on its own events; deleting one would silently stop those e-mails.
  if (t.built_in) throw new HttpError(409, 'Built-in templates are used by the shop and cannot be deleted; edit them instead.');
  await db.deleteFrom('email_templates').where('id', '=', id).execute();
}

export const NO_DEFAULT_TO_RESTORE = 'Only built-in templates have a default text to restore.';

/**
 * Puts a built-in template back to the shop's own text. Its `updated_at` returns to its
 * `created_at`, the mark of an unedited copy (migration 0015), so a later change of the built-in
 * text reaches it again like any template the owner never touched.
 */
export async function restoreDefaultTemplate(db: Kysely<Database>, id: string) {
  const stored = await db.selectFrom('email_templates').select(['built_in']).where('id', '=', id).executeTakeFirst();
  if (!stored) throw new HttpError(404, CONTENT_MESSAGES.templateNotFound);
  const builtIn = defaultEmailTemplates.find((t) => t.id === id);
  if (!builtIn || !stored.built_in) throw new HttpError(409, NO_DEFAULT_TO_RESTORE);
  await db
    .updateTable('email_templates')
    .set((eb) => ({
      name: builtIn.name,
      subject: builtIn.subject,
      html: builtIn.html,
      text: builtIn.text,
      variables: JSON.stringify(builtIn.variables),
      updated_at: eb.ref('created_at'),
    }))
    .where('id', '=', id)
    .execute();
  return getTemplate(db, id);
}

export async function previewTemplate(db: Kysely<Database>, id: string) {
  const t = await getTemplate(db, id);
  return renderTemplate(t, SAMPLE_VARIABLES, { ...SAMPLE_VARIABLES, ...SAMPLE_TEXT });
}

export const SAMPLE_TEXT_VARIABLES = SAMPLE_TEXT;
