import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { AlertIcon } from '../ui/icons.js';
import { Container } from '../ui/container.js';
import { Spinner } from '../ui/spinner.js';
import { NO_ORDER_NAMED_TEXTS } from '../../shared/checkout-text.js';

/**
 * The specification's texts for an order page that cannot show an order (confirmation, thank-you
 * and success pages): unknown or missing order or session, an unpaid one, a failed load.
 */
const ORDER_STATE_MESSAGES = {
  loading: 'Processing your order...',
  errorTitle: 'Order Error',
  notPaid: 'Payment was not completed successfully.',
  notFound: 'Order not found.',
  failed: 'Failed to load order information.',
} as const;

/** A centred card for the confirmation page's error and not-found states. */
export function OrderMessageCard({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 rounded-xl border border-red-200 bg-white p-8 text-center shadow-sm">
      <AlertIcon size={40} className="text-red-700" />
      <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
      {children}
      <Link to={paths.home} className={buttonClasses('primary', 'lg')}>
        Return to Home
      </Link>
    </div>
  );
}

/** A thank-you page opened with no order named: the ways to an order, without alarm (decision 0044). */
export function NoOrderNamed() {
  return (
    <Container className="py-12 sm:py-20">
      <div
        className="mx-auto flex max-w-lg flex-col items-center gap-4 rounded-xl border border-stone-200 bg-white p-8 text-center shadow-sm"
        data-testid="no-order-named"
      >
        <h1 className="text-2xl font-bold text-stone-900">{NO_ORDER_NAMED_TEXTS.title}</h1>
        <p className="text-stone-700">{NO_ORDER_NAMED_TEXTS.text}</p>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <Link to={paths.orders} className={buttonClasses('primary', 'lg')}>
            {NO_ORDER_NAMED_TEXTS.myOrders}
          </Link>
          <Link to={paths.products} className={buttonClasses('outline', 'lg')}>
            {NO_ORDER_NAMED_TEXTS.shop}
          </Link>
        </div>
        <Link to={paths.contact} className="text-sm font-medium text-brand-700 underline">
          {NO_ORDER_NAMED_TEXTS.contact}
        </Link>
      </div>
    </Container>
  );
}

/** What a confirmation page shows until it can thank: the order is unknown, loading, unreadable or unpaid. */
export type OrderWaitState = 'not-found' | 'loading' | 'failed' | 'not-paid';

export function OrderWaitScreen({ state }: { state: OrderWaitState }) {
  return (
    <Container className="py-12 sm:py-20">
      {state === 'not-found' ? (
        <OrderMessageCard title={ORDER_STATE_MESSAGES.notFound} />
      ) : state === 'loading' ? (
        <Spinner label={ORDER_STATE_MESSAGES.loading} className="py-24" />
      ) : (
        <OrderMessageCard title={ORDER_STATE_MESSAGES.errorTitle}>
          <p className="text-stone-700">{state === 'failed' ? ORDER_STATE_MESSAGES.failed : ORDER_STATE_MESSAGES.notPaid}</p>
        </OrderMessageCard>
      )}
    </Container>
  );
}
