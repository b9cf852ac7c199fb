import { z } from 'zod';

/** The order search's limits: what the box takes, and how many words one search looks up. */
export const ORDER_SEARCH_MAX_CHARS = 100;
export const ORDER_SEARCH_MAX_WORDS = 5;

export const ORDER_SEARCH_MESSAGES = {
  tooLong: `Search text cannot exceed ${ORDER_SEARCH_MAX_CHARS} characters`,
  tooManyWords: `Search can use at most ${ORDER_SEARCH_MAX_WORDS} words`,
} as const;

/**
 * The admin order search box (GET /api/admin/orders `search`, and the CSV export's): trimmed,
 * empty meaning no search. Too long or too many words is refused with its own sentence rather than
 * cut short, so the owner never sees a list for a search other than the one they typed.
 */
export const OrderSearchText = z
  .string()
  .trim()
  .max(ORDER_SEARCH_MAX_CHARS, ORDER_SEARCH_MESSAGES.tooLong)
  .refine((v) => v.split(/\s+/).filter(Boolean).length <= ORDER_SEARCH_MAX_WORDS, ORDER_SEARCH_MESSAGES.tooManyWords)
  .optional()
  .transform((v) => v || undefined);

/** The box's own check before a search is sent: the message to show under it, or null. */
export function orderSearchProblem(text: string): string | null {
  const r = OrderSearchText.safeParse(text);
  return r.success ? null : (r.error.issues[0]?.message ?? ORDER_SEARCH_MESSAGES.tooLong);
}
