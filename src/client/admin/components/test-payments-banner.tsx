import { testPaymentsExplanation, TEST_PAYMENT_TEXTS } from '../../../shared/schemas/payments.js';
import { AlertIcon } from '../../ui/icons.js';
import { usePaymentMode } from '../api/get-payment-mode.js';

/**
 * Above every back-office tab while the shop takes no real money (the built-in test card page, or
 * Stripe with a test key): orders it marks paid were not paid. Said by the server's configuration.
 */
export function TestPaymentsBanner() {
  const { data } = usePaymentMode();
  if (!data?.testPayments) return null;
  return (
    <section
      aria-labelledby="test-payments-title"
      className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950"
      data-testid="test-payments-banner"
    >
      <AlertIcon size={22} className="mt-0.5 shrink-0 text-amber-700" />
      <div className="flex min-w-0 flex-col gap-1">
        <h2 id="test-payments-title" className="font-semibold">
          {TEST_PAYMENT_TEXTS.title}
        </h2>
        <p className="text-sm">{testPaymentsExplanation(data.provider)}</p>
        <p className="text-sm">{TEST_PAYMENT_TEXTS.howToEnd}</p>
      </div>
    </section>
  );
}
