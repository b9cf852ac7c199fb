import type Stripe from 'stripe';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Config } from '../config.js';
import { isRecordedPaymentMethod } from '../../shared/schemas/owner-orders.js';
import { manualProvider } from './manual-provider.js';
import type { PaymentProvider, PaymentProviders } from './provider.js';
import { createStripeClient } from './stripe.js';
import { stripeProvider } from './stripe-provider.js';
import { testCardProvider } from './test-provider.js';

/**
 * The app's payment providers, built once from its configuration (buildApp and main.ts, as the
 * mailer is): one Stripe client for every route, the worker and the coupons; the card provider
 * checkouts go to; and the adapter for whatever an order or refund stores as its provider. With the
 * shop's database the test card page can also charge the cards it kept (subscriptions' renewals).
 */
export function buildPaymentProviders(config: Config, db?: Kysely<Database>): PaymentProviders {
  return providersWith(createStripeClient(config), config, db);
}

/** Providers without Stripe (the test card page and manual): for a caller given none, as a shop without a key has. */
export function offlinePaymentProviders(publicUrl: string): PaymentProviders {
  return providersWith(null, { publicUrl });
}

function providersWith(
  stripeClient: Stripe | null,
  config: Pick<Config, 'publicUrl' | 'stripeWebhookSecret'>,
  db?: Kysely<Database>,
): PaymentProviders {
  const stripe = stripeProvider(stripeClient, { publicUrl: config.publicUrl, webhookSecret: config.stripeWebhookSecret });
  // The test card page keeps its saved methods and off-session answers in the shop's database.
  const test = testCardProvider({ publicUrl: config.publicUrl, ...(db ? { db } : {}) });
  const manual = manualProvider();
  const card = (stripeClient ? stripe : test) as PaymentProviders['card'];
  return {
    card,
    stripeClient,
    of(stored: string | null): PaymentProvider {
      if (stored === 'stripe') return stripe;
      if (isRecordedPaymentMethod(stored)) return manual;
      // 'test', and anything older: the built-in card page, which takes no money.
      return test;
    },
  };
}
