/**
 * A subscription's card in words (issue [5/8]): its brand as people write it, "Visa ending 4242",
 * and the texts around updating it. No zod here: the product page and the checkout show these
 * words, and what they import is evaluated as they start (subscription-card.ts has the schemas).
 */

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  american_express: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
  eftpos_au: 'eftpos',
  interac: 'Interac',
};

/** A card brand as people write it ("visa" from Stripe, "Visa" from the test page: "Visa"); an unknown one as given, capitalised. */
export function cardBrandName(brand: string): string {
  const key = brand.trim().toLowerCase().replace(/\s+/g, '_');
  const known = BRAND_NAMES[key];
  if (known) return known;
  const plain = brand.trim();
  return plain ? plain.charAt(0).toUpperCase() + plain.slice(1) : 'Card';
}

/** "Visa ending 4242". */
export function cardText(card: { brand: string; last4: string }): string {
  return `${cardBrandName(card.brand)} ending ${card.last4}`;
}

export const CARD_UPDATE_TEXTS = {
  label: 'Card',
  noCard: 'No card on file',
  /** A card kept at checkout whose brand and last four the shop has not read yet (Stripe tells them at the first renewal). */
  cardKept: 'The card you paid with at checkout',
  button: 'Update card',
  opening: 'Opening the card page…',
  /** Under the card: what Update card does. */
  hint: 'Nothing is charged when you change your card: the next delivery is charged to the new one.',
  /** Back from the card page: the card the page saved. */
  updated: (card: { brand: string; last4: string }) => `Card updated: ${cardText(card)}`,
  /** Back from Stripe's page before its word reached the shop. */
  waiting: 'Saving your card…',
  stillWaiting: 'Your card is still being saved. Reload this page in a minute to see it.',
  failed: 'The card page could not be opened. Please try again in a moment.',
} as const;
