import { afterZod } from './load-zod.js';

/** The checkout schemas alone, zod first: the cart and checkout pages build none of the catalogue's. */
export const loadCheckoutSchemas = afterZod(() => import('../../shared/schemas/checkout.js'));
