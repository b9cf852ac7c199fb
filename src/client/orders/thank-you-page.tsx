import '../lib/zod-config.js';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { MailIcon } from '../ui/icons.js';
import { isNotFound } from './api/get-checkout-session.js';
import { useOrder } from './api/get-order.js';
import { NoOrderNamed, OrderWaitScreen, type OrderWaitState } from './order-parts.js';
import { SuccessMark } from './success-mark.js';
import { orderNumberLabel } from '../../shared/order-words.js';

export default function ThankYouPage() {
  const [params] = useSearchParams();
  const orderId = params.get('orderId');
  // The order as the server has it (owner only). Thanks only for an order this browser may read
  // and that was paid (or entered by the shop); an unknown or missing id is "Order not found.".
  const order = useOrder(orderId);
  if (!orderId) return <NoOrderNamed />;

  const wait: OrderWaitState | null =
    !orderId || (order.isError && isNotFound(order.error))
      ? 'not-found'
      : order.isPending
        ? 'loading'
        : order.isError
          ? 'failed'
          : order.data.paymentProvider !== null && order.data.paidAt === null
            ? 'not-paid'
            : null;
  if (wait !== null || !order.isSuccess) return <OrderWaitScreen state={wait ?? 'loading'} />;

  return (
    <Container className="py-12 sm:py-20">
      <div className="mx-auto flex max-w-lg flex-col items-center gap-5 rounded-xl border border-stone-200 bg-white p-8 text-center shadow-sm">
        <SuccessMark />
        <h1 className="text-3xl font-bold text-stone-900">Thank You for Your Order!</h1>
        <p className="text-stone-700">Your order has been processed successfully.</p>
        <dl className="flex w-full flex-col gap-3 rounded-lg bg-stone-50 p-4 text-left">
          <div>
            <dt className="text-sm text-stone-600">Order ID</dt>
            <dd className="font-medium break-all text-stone-900">{order.data.id}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-600">Order Number</dt>
            <dd className="font-medium text-stone-900">{orderNumberLabel(order.data.id)}</dd>
          </div>
        </dl>
        <p className="flex items-start gap-2 text-sm text-stone-700">
          <MailIcon size={18} className="mt-0.5 shrink-0" />
          <span>A confirmation email will be sent to you shortly.</span>
        </p>
        <Link to={paths.products} className={buttonClasses('primary', 'lg')}>
          Continue Shopping
        </Link>
      </div>
    </Container>
  );
}
