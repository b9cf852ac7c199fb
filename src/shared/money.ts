/** Money is integer cents everywhere inside; dollars appear only on screen. */

/**
 * The most one order may total, and the most any price or amount the owner enters may be:
 * $999,999.99. Far above any real order of the shop, far below what the columns (bigint) and a
 * JavaScript number (2^53) hold, and below Stripe's per-charge ceiling.
 */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;

export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** "$1,595.95" style, two decimals, US dollars. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  // Thousands separators by hand: toLocaleString builds a number formatter on every call, which
  // made this the costliest function of a cart page's start-up on a phone-speed CPU.
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}$${dollars}.${rest}`;
}
