import { z } from 'zod';
import { MAX_ORDER_TOTAL_CENTS, toCents } from '../../money.js';

// Field builders shared by the back office's schemas (schemas/admin/*.ts), and the helpers that
// turn what a form's inputs hold into the body the server parses.

/** The most any price or amount may be: the order ceiling, $999,999.99 (shared/money.ts). */
export const tooLarge = (label: string) => `${label} cannot exceed $999,999.99`;

export const page = z.coerce
  .number({ message: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be at least 1')
  .max(100000, 'page cannot exceed 100000')
  .default(1);
export const pageSize = (d: number) =>
  z.coerce
    .number({ message: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be at least 1')
    .max(100, 'pageSize cannot exceed 100')
    .default(d);
export const search = z
  .string()
  .trim()
  .max(100, 'Search text cannot exceed 100 characters')
  .optional()
  .transform((v) => v || undefined);

export const money = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be in whole cents (at most 2 decimals)`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_ORDER_TOTAL_CENTS, tooLarge(label));

/** '' → `empty`, else the number typed (NaN for junk; the body schema answers NaN as it answers a missing number). */
export function textToNumber<T>(text: string, empty: T): number | T {
  return text.trim() === '' ? empty : Number(text);
}

/**
 * Dollars typed as text → integer cents ('' → `empty`). An amount with more than two decimals
 * (10.555) is not rounded into a different amount: it stays a fraction of a cent, which the body
 * schema refuses with its "in whole cents (at most 2 decimals)" message.
 */
export function dollarsToCents<T>(text: string, empty: T): number | T {
  const n = textToNumber(text, empty);
  if (typeof n !== 'number' || !Number.isFinite(n)) return n;
  const cents = n * 100;
  // 10.55 × 100 is 1055.0000000000002 in floating point: within a millionth of a cent is whole.
  return Math.abs(cents - toCents(n)) < 1e-6 ? toCents(n) : cents;
}

/** A datetime-local input's value (local time) → ISO, or null when empty or unreadable. */
export function localToIso(text: string): string | null {
  if (!text) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A write-only secret's field: empty keeps the stored one, `remove` deletes it, else the typed value replaces it. */
export function secretBody(typed: string, remove: boolean): string | null | undefined {
  return remove ? null : typed.trim() || undefined;
}
