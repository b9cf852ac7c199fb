import '../lib/zod-config.js';
import { CHECKOUT_FIELD_LABELS, CheckoutForm } from '../../shared/schemas/checkout.js';
import type { CheckoutErrors, CheckoutField, CheckoutValues } from './checkout-values.js';

export { EMPTY_CHECKOUT_VALUES, validationToastText, valuesFromUser } from './checkout-values.js';

/** Checks the form with the schema the server checks the order with; the first problem of each field. */
export function validateCheckout(values: CheckoutValues): { data: CheckoutForm; errors: null } | { data: null; errors: CheckoutErrors } {
  const result = CheckoutForm.safeParse(values);
  if (result.success) return { data: result.data, errors: null };
  const errors: CheckoutErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in CHECKOUT_FIELD_LABELS && !errors[field as CheckoutField]) {
      errors[field as CheckoutField] = issue.message;
    }
  }
  return { data: null, errors };
}
