import type { CheckoutSessionCreated, CreateCheckoutSessionInput } from '../../../shared/schemas/checkout.js';
import { apiRequestWith } from '../../lib/api-client.js';
import { loadCheckoutSchemas } from '../../lib/load-checkout-schemas.js';

/** The checkout schemas (with zod) load with the first payment, not with the page. */
const loadCreatedSchema = () => loadCheckoutSchemas().then((m) => m.CheckoutSessionCreated);

/** Creates the pending order and the payment session; the browser then goes to `url` to pay. */
export function createCheckoutSession(input: CreateCheckoutSessionInput): Promise<CheckoutSessionCreated> {
  return apiRequestWith('/api/create-checkout-session', loadCreatedSchema, { method: 'POST', body: input });
}
