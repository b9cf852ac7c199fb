import '../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckoutForm } from '../../shared/schemas/checkout.js';

/**
 * The checkout form's validation: the form schema built on the body the server checks the order
 * with (shared/schemas/checkout.ts). The page loads it, with zod, when the shopper reaches the form.
 */
export const checkoutResolver = zodResolver(CheckoutForm);
