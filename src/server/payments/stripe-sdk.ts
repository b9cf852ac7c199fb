import { createRequire } from 'node:module';
import type StripeSdk from 'stripe';

const load = createRequire(import.meta.url);
let sdk: typeof StripeSdk | null = null;

/**
 * The Stripe SDK, loaded the first time a Stripe client is made: a shop without a Stripe key (the
 * built-in test card page) never loads it, which keeps about 10 MB of code out of every process.
 */
export function stripeSdk(): typeof StripeSdk {
  return (sdk ??= load('stripe') as typeof StripeSdk);
}

/** Whether `err` is one of the SDK's errors of that class (none can exist before the SDK is loaded). */
export function isStripeError(
  err: unknown,
  kind:
    'StripeError' | 'StripeConnectionError' | 'StripeCardError' | 'StripeInvalidRequestError' | 'StripeAPIError' | 'StripeRateLimitError',
): err is StripeSdk.errors.StripeError {
  return sdk !== null && err instanceof sdk.errors[kind];
}
