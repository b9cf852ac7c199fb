/**
 * What the shop says about its own rules, written from the rules and the owner's data at read
 * time, never typed in: the shipping rates and the free-shipping minimum come from the enabled
 * shipping options, the tax sentence from the tax rule (pricing.ts). An FAQ answer holds them as
 * placeholders (`{{tax_rule}}`), filled in when the FAQ is read; the site description ends with
 * the free-shipping sentence. See docs/decisions/0013-truthful-content.md.
 *
 * Plain data and strings (no zod): the page declarations load it in the first-load bundle.
 */
import { formatCents } from './money.js';
import {
  LOYALTY_BIG_ORDER_CENTS,
  LOYALTY_REWARD_EVERY,
  LOYALTY_REWARD_PERCENT,
  LOYALTY_REWARD_VALID_DAYS,
  pointsForOrder,
  TAX_RATE_PERCENT,
  taxCents,
} from './pricing.js';

/** An enabled shipping option, in the shop's order. */
export type FactShippingOption = {
  name: string;
  priceCents: number;
  estimatedDays: string;
  minimumOrderCents: number | null;
};

/**
 * Not a stored setting: the server adds it to the public settings answer (GET /api/settings and
 * every page's first data), read from the enabled shipping options. The smallest order, in cents,
 * that can ship free ('0': every order); '' when no enabled option is free.
 */
export const FREE_SHIPPING_MINIMUM_KEY = 'free_shipping_minimum_cents';

/** The site description without the shipping sentence (the part that depends on no rule). */
export const SITE_DESCRIPTION_BASE =
  'Eco-friendly cleaning products: reusable cleaning cloths, sweep-and-mop tools, refills, laundry powder and concentrated cleaner.';

/** The smallest order that can ship free, or null when no enabled option is free. */
export function freeShippingMinimumCents(options: readonly FactShippingOption[]): number | null {
  let best: number | null = null;
  for (const o of options) {
    if (o.priceCents !== 0) continue;
    const min = Math.max(0, o.minimumOrderCents ?? 0);
    if (best === null || min < best) best = min;
  }
  return best;
}

/** The setting's value as the server writes it. */
export function freeShippingSettingValue(options: readonly FactShippingOption[]): string {
  const min = freeShippingMinimumCents(options);
  return min === null ? '' : String(min);
}

/** "Free shipping on orders with a subtotal of $50.00 or more." ('' when nothing ships free). */
export function freeShippingSentence(minimumCents: number | null): string {
  if (minimumCents === null) return '';
  if (minimumCents <= 0) return 'Free shipping on every order.';
  return `Free shipping on orders with a subtotal of ${formatCents(minimumCents)} or more.`;
}

function readMinimum(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  return Number(value);
}

/** The free-shipping minimum the server put in the public settings answer (null: nothing ships free). */
export function freeShippingMinimumFromSettings(settings: Readonly<Record<string, string>> | undefined): number | null {
  return readMinimum(settings?.[FREE_SHIPPING_MINIMUM_KEY]);
}

/** The site description, with the free-shipping sentence read from the public settings answer. */
export function siteDescription(settings: Readonly<Record<string, string>> | undefined): string {
  const sentence = freeShippingSentence(readMinimum(settings?.[FREE_SHIPPING_MINIMUM_KEY]));
  return sentence ? `${SITE_DESCRIPTION_BASE} ${sentence}` : SITE_DESCRIPTION_BASE;
}

function joinList(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

const priceWord = (cents: number) => (cents === 0 ? 'free' : formatCents(cents));

/**
 * "Standard Shipping is $5.99 (5-7 business days) and Expedited Shipping is $12.99 (2-3 business
 * days). Orders with a subtotal of $50.00 or more can choose Free Shipping (free, 7-10 business days)."
 */
export function shippingRatesText(options: readonly FactShippingOption[]): string {
  if (options.length === 0) return 'Shipping options and prices are shown at checkout.';
  const always = options.filter((o) => !o.minimumOrderCents);
  const from = options.filter((o) => o.minimumOrderCents);
  const sentences: string[] = [];
  if (always.length) sentences.push(`${joinList(always.map((o) => `${o.name} is ${priceWord(o.priceCents)} (${o.estimatedDays})`))}.`);
  for (const o of from) {
    sentences.push(
      `Orders with a subtotal of ${formatCents(o.minimumOrderCents!)} or more can choose ${o.name} (${priceWord(o.priceCents)}, ${o.estimatedDays}).`,
    );
  }
  return sentences.join(' ');
}

/** The order in the tax example: a subtotal and a discount, with the cheapest paid option's shipping. */
export const TAX_EXAMPLE = { subtotalCents: 4000, discountCents: 400 } as const;

/**
 * The tax rule in words, with a worked example computed by the rule itself (taxCents), so the
 * sentence cannot drift from what checkout charges: tax on subtotal − discount + shipping.
 */
export function taxRuleText(options: readonly FactShippingOption[]): string {
  const paid = options.filter((o) => o.priceCents > 0 && !o.minimumOrderCents).sort((a, b) => a.priceCents - b.priceCents)[0];
  const shipping = paid?.priceCents ?? 0;
  const { subtotalCents, discountCents } = TAX_EXAMPLE;
  const base = subtotalCents - discountCents + shipping;
  return (
    `Sales tax of ${TAX_RATE_PERCENT}% is charged on your order subtotal minus any discount, plus shipping, and is shown at checkout before you pay. ` +
    `For example, a ${formatCents(subtotalCents)} order with a ${formatCents(discountCents)} discount and ` +
    `${shipping ? `${formatCents(shipping)} shipping` : 'free shipping'} pays ${formatCents(taxCents(subtotalCents, discountCents, shipping))} tax ` +
    `(${TAX_RATE_PERCENT}% of ${formatCents(base)}).`
  );
}

/**
 * The loyalty rule in words, from its constants (pricing.ts): points go by the order's total, what
 * the customer pays, unlike free shipping, which goes by the subtotal. Said on the loyalty card
 * and in the FAQ (`{{loyalty_rule}}`).
 */
export function loyaltyRuleText(): string {
  const big = pointsForOrder(LOYALTY_BIG_ORDER_CENTS);
  const small = pointsForOrder(LOYALTY_BIG_ORDER_CENTS - 1);
  return (
    `Signed-in customers earn ${big} points for every order whose total (what you pay, after any discount and with shipping and tax) ` +
    `is ${formatCents(LOYALTY_BIG_ORDER_CENTS)} or more, and ${small} points for smaller orders. ` +
    `Every ${LOYALTY_REWARD_EVERY} points automatically gives you a ${LOYALTY_REWARD_PERCENT}% off coupon, valid for ${LOYALTY_REWARD_VALID_DAYS} days.`
  );
}

/** The placeholders an FAQ answer may hold, with what each becomes (shown in the admin FAQ editor). */
export const FAQ_PLACEHOLDERS = {
  shipping_rates: 'the enabled shipping options with their prices, delivery times and minimum orders',
  free_shipping:
    'the free-shipping sentence, e.g. "Free shipping on orders with a subtotal of $50.00 or more." (empty when nothing ships free)',
  tax_rule: 'how sales tax is charged, with a worked example',
  loyalty_rule: 'how loyalty points are earned (by the order total) and what they give',
} as const;
type FaqPlaceholder = keyof typeof FAQ_PLACEHOLDERS;

const PLACEHOLDER_PATTERN = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** Placeholders in `text` that the shop does not know (for the FAQ form's validation). */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1]!).filter((name) => !(name in FAQ_PLACEHOLDERS));
}

/** The FAQ answer as shoppers read it: each known placeholder replaced by its text. */
export function fillPlaceholders(text: string, options: readonly FactShippingOption[]): string {
  if (!text.includes('{{')) return text;
  const values: Record<FaqPlaceholder, () => string> = {
    shipping_rates: () => shippingRatesText(options),
    free_shipping: () => freeShippingSentence(freeShippingMinimumCents(options)),
    tax_rule: () => taxRuleText(options),
    loyalty_rule: () => loyaltyRuleText(),
  };
  return text
    .replace(PLACEHOLDER_PATTERN, (whole, name: string) => (name in values ? values[name as FaqPlaceholder]() : whole))
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
