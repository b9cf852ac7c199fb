import { CHECKOUT_FIELD_LABELS, CHECKOUT_MESSAGES, DEFAULT_STATE } from '../../shared/checkout-text.js';
import type { SessionUser } from '../../shared/schemas/auth.js';
import type { CheckoutForm } from '../../shared/schemas/checkout.js';

/* The checkout form's fields and texts, without zod: the page shows them from the first paint and
   loads the validation (checkout-form.ts, with zod) when the shopper starts filling it in. */

export type CheckoutField = keyof typeof CHECKOUT_FIELD_LABELS;
type CheckoutValues = Record<CheckoutField, string>;
/** What the form holds: the fields people fill in and the bot trap's hidden ones. */
export type CheckoutFormValues = CheckoutForm;
/** Each field's problem, as the form reports it. */
type CheckoutErrors = Partial<Record<CheckoutField, { message?: string } | undefined>>;

export const CHECKOUT_FIELDS = Object.keys(CHECKOUT_FIELD_LABELS) as CheckoutField[];

export const EMPTY_CHECKOUT_VALUES: CheckoutFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  address: '',
  city: '',
  state: DEFAULT_STATE,
  zip: '',
  contact_name: '',
  contact_email: '',
  consent: false,
};

/** Spec: full name split into first and last, e-mail, and the saved shipping address. */
export function valuesFromUser(user: SessionUser): Partial<CheckoutValues> {
  const [first = '', ...rest] = user.fullName.trim().split(/\s+/);
  const a = user.shippingAddress;
  return {
    firstName: first,
    lastName: rest.join(' '),
    email: user.email,
    ...(a ? { address: a.address, city: a.city, state: a.state || DEFAULT_STATE, zip: a.zip } : {}),
  };
}

/** The 'Validation Error' toast's text: the intro, then one bullet line per field in form order. */
export function validationToastText(errors: CheckoutErrors): string {
  const lines = CHECKOUT_FIELDS.filter((f) => errors[f]?.message).map((f) => `• ${CHECKOUT_FIELD_LABELS[f]}: ${errors[f]?.message}`);
  return [CHECKOUT_MESSAGES.validationIntro, ...lines].join('\n');
}
