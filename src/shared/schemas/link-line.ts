import { z } from 'zod';

/**
 * One line that an e-mail's link puts in the cart (the restore link of checkout recovery, the
 * reorder link of a reorder reminder): the product as it was bought, priced now, and whether it
 * can be bought now. Each link's answer adds what is its own.
 */
export const LinkLine = z.object({
  productId: z.string(),
  variantId: z.string(),
  name: z.string(),
  variantLabel: z.string(),
  image: z.string().nullable(),
  quantity: z.number(),
  unitPriceCents: z.number(),
  available: z.boolean(),
  /** Units that can be bought now (0 when not available). */
  inventory: z.number(),
  size: z.string(),
  color: z.string(),
});
