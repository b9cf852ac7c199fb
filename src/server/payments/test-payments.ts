import type { Config } from '../config.js';
import { testPaymentsExplanation, TEST_PAYMENT_TEXTS, type PaymentModeResponse } from '../../shared/schemas/payments.js';
import { checkoutProviderOf } from './stripe.js';

/** Whether this shop takes real money, from its configuration (never from a setting a request could change). */
export function paymentMode(config: Config): PaymentModeResponse {
  return { provider: checkoutProviderOf(config), testPayments: config.testPayments };
}

/** The startup log's warning while payments are not real (production starts so only with ALLOW_TEST_PAYMENTS=true). */
export function testPaymentsWarning(config: Config): string {
  const { provider } = paymentMode(config);
  const rule = '!'.repeat(78);
  return [
    rule,
    `${TEST_PAYMENT_TEXTS.title.toUpperCase()}${config.env === 'production' ? ' (ALLOW_TEST_PAYMENTS=true)' : ''}`,
    testPaymentsExplanation(provider),
    TEST_PAYMENT_TEXTS.howToEnd,
    rule,
  ].join('\n');
}
