import '../lib/zod-config.js';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { MailIcon } from '../ui/icons.js';
import { isNotFound, useCheckoutSession } from './api/get-checkout-session.js';
import { NoOrderNamed, OrderWaitScreen, type OrderWaitState } from './order-parts.js';
import { SuccessMark } from './success-mark.js';

export default function SuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  // The payment session as the server has it (only to the browser or account that started it):
  // success is said only for a paid one; no session or an unknown one is "Order not found.".
  const session = useCheckoutSession(sessionId);
  if (!sessionId) return <NoOrderNamed />;

  const wait: OrderWaitState | null =
    !sessionId || (session.isError && isNotFound(session.error))
      ? 'not-found'
      : session.isPending
        ? 'loading'
        : session.isError
          ? 'failed'
          : session.data.payment_status !== 'paid'
            ? 'not-paid'
            : null;
  if (wait !== null || !session.isSuccess) return <OrderWaitScreen state={wait ?? 'loading'} />;

  return (
    <Container className="py-12 sm:py-20">
      <div className="mx-auto flex max-w-lg flex-col items-center gap-5 rounded-xl border border-stone-200 bg-white p-8 text-center shadow-sm">
        <SuccessMark />
        <h1 className="text-3xl font-bold text-stone-900">Payment Successful!</h1>
        <dl className="flex w-full flex-col gap-3 rounded-lg bg-stone-50 p-4 text-left">
          <div>
            <dt className="text-sm text-stone-600">Order ID</dt>
            <dd className="font-medium break-all text-stone-900">{session.data.metadata.orderId}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-600">Payment reference</dt>
            <dd className="font-medium break-all text-stone-900">{sessionId}</dd>
          </div>
        </dl>
        <p className="flex items-start gap-2 text-sm text-stone-700">
          <MailIcon size={18} className="mt-0.5 shrink-0" />
          <span>A confirmation email will be sent to you shortly.</span>
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to={paths.products} className={buttonClasses('primary', 'lg')}>
            Continue Shopping
          </Link>
          <Link to={paths.home} className={buttonClasses('outline', 'lg')}>
            Return to Home
          </Link>
        </div>
      </div>
    </Container>
  );
}
