import '../../lib/zod-config.js';
import { z } from 'zod';
import type { CreateCheckoutSessionInput } from '../../../shared/schemas/checkout.js';
import { apiRequest } from '../../lib/api-client.js';

const CheckoutSessionCreated = z.object({ url: z.string().min(1), sessionId: z.string(), orderId: z.string() });
export type CheckoutSessionCreated = z.infer<typeof CheckoutSessionCreated>;

/** Creates the pending order and the payment session; the browser then goes to `url` to pay. */
export function createCheckoutSession(input: CreateCheckoutSessionInput): Promise<CheckoutSessionCreated> {
  return apiRequest('/api/create-checkout-session', () => CheckoutSessionCreated, { method: 'POST', body: input });
}
