/**
 * "Notify me when it's back": loaded with the form (a lazy chunk, after zod), never with the page.
 * zod-config must run before any schema is created, hence the first import.
 */
import '../../lib/zod-config.js';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequestWith } from '../../lib/api-client.js';

/** 202 whether the request is new or the same e-mail already waits (nobody learns which): what will happen. */
const BackInStockAnswer = z.object({ ok: z.literal(true), message: z.string() });
type BackInStockAnswer = z.infer<typeof BackInStockAnswer>;

function notifyBackInStock(productId: string, variantId: string | undefined, email: string): Promise<BackInStockAnswer> {
  return apiRequestWith(`/api/products/${encodeURIComponent(productId)}/notify`, () => Promise.resolve(BackInStockAnswer), {
    method: 'POST',
    body: variantId ? { email, variantId } : { email },
  });
}

/** The request is for the variant shown (absent: the product's first). */
export function useNotifyBackInStock(productId: string, variantId?: string) {
  return useMutation({
    mutationFn: ({ email }: { email: string }) => notifyBackInStock(productId, variantId, email),
    // The form shows the server's refusal (in stock again, too many requests) to the person.
    onError: () => undefined,
  });
}
