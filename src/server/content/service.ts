import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { readEnabledShippingOptions } from '../shipping/service.js';
import { PUBLIC_SETTING_KEYS, type Faq } from '../../shared/schemas/catalog.js';
import { PAYMENT_PROVIDER_KEY, type CheckoutProvider } from '../../shared/payment-provider.js';
import { fillPlaceholders, FREE_SHIPPING_MINIMUM_KEY, freeShippingSettingValue, type FactShippingOption } from '../../shared/shop-facts.js';

/** The enabled shipping options, in the shop's order: what the shop's texts about shipping and tax are written from. */
async function readFactShippingOptions(db: Kysely<Database>): Promise<FactShippingOption[]> {
  const rows = await readEnabledShippingOptions(db);
  return rows.map((r) => ({
    name: r.name,
    priceCents: Number(r.price_cents),
    estimatedDays: r.estimated_days,
    minimumOrderCents: r.minimum_order_cents === null ? null : Number(r.minimum_order_cents),
  }));
}

/**
 * The public settings, plus the free-shipping minimum read from the shipping options (shop-facts.ts)
 * and the card payment provider the server is configured with (shared/payment-provider.ts; null
 * leaves it out, and the storefront then names no provider).
 */
export async function getPublicSettings(db: Kysely<Database>, paymentProvider: CheckoutProvider | null): Promise<Record<string, string>> {
  const [rows, options] = await Promise.all([
    db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', [...PUBLIC_SETTING_KEYS])
      .execute(),
    readFactShippingOptions(db),
  ]);
  const out: Record<string, string> = {};
  for (const key of PUBLIC_SETTING_KEYS) out[key] = '';
  for (const r of rows) out[r.key] = r.value;
  out[FREE_SHIPPING_MINIMUM_KEY] = freeShippingSettingValue(options);
  if (paymentProvider) out[PAYMENT_PROVIDER_KEY] = paymentProvider;
  return out;
}

/** The FAQs as the owner wrote them, placeholders and all (the admin FAQ editor). */
export async function listFaqsForEditing(db: Kysely<Database>): Promise<Faq[]> {
  const rows = await db.selectFrom('faqs').selectAll().orderBy('sort_order').orderBy('created_at').execute();
  return rows.map((r) => ({ id: r.id, question: r.question, answer: r.answer, category: r.category }));
}

/** The FAQs as shoppers read them: placeholders filled in from the shop's current rules and options. */
export async function listFaqs(db: Kysely<Database>): Promise<Faq[]> {
  const [faqs, options] = await Promise.all([listFaqsForEditing(db), readFactShippingOptions(db)]);
  return faqs.map((f) => ({ ...f, answer: fillPlaceholders(f.answer, options) }));
}
