import { formatCents, formatCount } from './money.js';

/*
 * Unit prices (decision 0043): what a size costs per ounce, per count, per 100 ml, so a shopper
 * compares a 16 oz bottle with a 32 oz one the way refill shoppers do, instead of reading a
 * struck-through "was" price that was never charged. Plain functions, no zod: the product page and
 * the cart load this in their first bundle.
 */

/**
 * The units a size may be given in, and the quantity a price is shown per: grams and millilitres
 * per 100 (as shelf labels do), everything else per one.
 */
export const UNIT_BASES = {
  oz: 1,
  'fl oz': 1,
  lb: 1,
  g: 100,
  kg: 1,
  ml: 100,
  l: 1,
  count: 1,
} as const satisfies Record<string, number>;
export type Unit = keyof typeof UNIT_BASES;
export const UNITS = Object.keys(UNIT_BASES) as Unit[];

export function isUnit(value: unknown): value is Unit {
  return typeof value === 'string' && Object.hasOwn(UNIT_BASES, value);
}

/** The most a unit quantity may be, and its finest step (three decimals: 0.125 lb, 1.5 l). */
export const UNIT_QUANTITY_LIMITS = { max: 100_000, decimals: 3 } as const;

/** What the owner reads when a unit size is refused (the editor and the server's 400 say the same). */
export const UNIT_MESSAGES = {
  quantity: 'Unit size must be a number above 0 (e.g. 16 for 16 oz)',
  quantityTooLarge: `Unit size cannot exceed ${formatCount(UNIT_QUANTITY_LIMITS.max)}`,
  quantityDecimals: `Unit size can have at most ${UNIT_QUANTITY_LIMITS.decimals} decimals`,
  unit: `Choose a unit: ${UNITS.join(', ')}`,
  both: 'Give both the unit size and its unit (e.g. 16 and oz), or neither',
} as const;

/**
 * The price per unit in cents, rounded to the cent half up (0.5 cent and above rounds up; 1499
 * cents for 16 oz is 93.6875 cents, shown $0.94), or null when the size is unknown or not
 * positive. Per 100 for g and ml (UNIT_BASES).
 */
export function unitPriceCents(priceCents: number, quantity: number | null | undefined, unit: string | null | undefined): number | null {
  if (quantity == null || !isUnit(unit) || !(quantity > 0) || !Number.isFinite(quantity)) return null;
  const exact = (priceCents * UNIT_BASES[unit]) / quantity;
  // Cut the float noise first (1.005 would otherwise be 1.00499…), then round half up to the cent.
  return Math.round(Math.round(exact * 1e6) / 1e6);
}

/** "per oz", "per 100 ml": the unit as a price is given per it. */
export function unitBasisLabel(unit: Unit): string {
  return UNIT_BASES[unit] === 1 ? unit : `${UNIT_BASES[unit]} ${unit}`;
}

/**
 * "$0.94 / oz", "$1.25 / 100 ml", "$0.50 / count"; under half a cent per unit, "< $0.01 / count";
 * null when the variant has no unit size.
 */
export function formatUnitPrice(priceCents: number, quantity: number | null | undefined, unit: string | null | undefined): string | null {
  const cents = unitPriceCents(priceCents, quantity, unit);
  if (cents === null || !isUnit(unit)) return null;
  const amount = cents === 0 && priceCents > 0 ? '< $0.01' : formatCents(cents);
  return `${amount} / ${unitBasisLabel(unit)}`;
}

/** What a screen reader says for it: "$0.94 per oz". */
export function unitPriceForReader(text: string): string {
  return text.replace(' / ', ' per ');
}
