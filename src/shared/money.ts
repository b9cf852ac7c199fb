/** Money is integer cents everywhere inside; dollars appear only on screen. */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** "$1,595.95" style, two decimals, US dollars. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}$${dollars}.${rest}`;
}
