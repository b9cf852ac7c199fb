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

/**
 * A number with thousands separators and at most three decimals ("12,500", "0.25"), as
 * `toLocaleString('en-US')` writes it, by hand: toLocaleString builds a number formatter on every
 * call (it made money the costliest function of a cart page's start-up on a phone-speed CPU), and a
 * page's first one makes the browser load its number data, some 40 ms of one start-up task on
 * this machine.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const [whole = '0', decimals = ''] = Math.abs(n).toFixed(3).split('.');
  const fraction = decimals.replace(/0+$/, '');
  const text = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction ? `.${fraction}` : '');
  return n < 0 ? `-${text}` : text;
}

/** "$1,595.95" style, two decimals, US dollars. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const dollars = formatCount(Math.floor(abs / 100));
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}$${dollars}.${rest}`;
}
