import '../lib/zod-config.js';
import { useEffect, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatCents } from '../../shared/money.js';
import type { CheckoutSessionView } from '../../shared/schemas/checkout.js';
import type { OrderView } from '../../shared/schemas/orders.js';
import { formatAddress } from '../../shared/address.js';
import { clearCheckoutDraft } from '../lib/checkout-draft.js';
import { removeBoughtLines } from '../cart/bought-lines.js';
import { FreeGiftBadge } from '../ui/free-gift.js';
import { AddressLines } from '../ui/address-lines.js';
import { capitalize, shippingText } from '../lib/format.js';
import { markCouponUsed } from '../cart/used-coupons.js';
import { paymentMethodName } from './payment-provider.js';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { MailIcon } from '../ui/icons.js';
import { ProductImage } from '../ui/product-image.js';
import { Spinner } from '../ui/spinner.js';
import { toast } from '../ui/toast.js';
import { isNotFound, useCheckoutSession } from './api/get-checkout-session.js';
import { useOrder } from './api/get-order.js';
import { SuccessMark } from './success-mark.js';
import { OrderMessageCard } from './order-parts.js';
import { StatusBadge } from '../ui/status-badge.js';
import { isToShipOrder, orderNumberLabel } from '../../shared/order-words.js';
import { deliveryEstimateText } from '../../shared/delivery.js';
import { lineHeading } from '../../shared/line-options.js';
import { SubscriptionLineNote } from '../cart/subscription-line.js';
import { SUBSCRIPTION_TEXTS } from '../../shared/subscription-words.js';

export const CONFIRMATION_MESSAGES = {
  loading: 'Processing your order...',
  errorTitle: 'Order Error',
  notPaid: 'Payment was not completed successfully.',
  notFound: 'Order not found.',
  noInfo: 'No order information found.',
  failed: 'Failed to load order information.',
} as const;

/** sessionStorage marker: this tab already celebrated this order (bought lines removed, coupon noted, toast shown). */
const confirmedKey = (orderId: string) => `orderConfirmed:${orderId}`;

function alreadyConfirmed(orderId: string): boolean {
  try {
    return window.sessionStorage.getItem(confirmedKey(orderId)) !== null;
  } catch {
    return false;
  }
}

function rememberConfirmed(orderId: string): void {
  try {
    window.sessionStorage.setItem(confirmedKey(orderId), '1');
  } catch {
    // Storage disabled: the toast may show again on reload, nothing worse.
  }
}

/**
 * A paid order: take what it bought out of the cart (what was added since stays), note the coupon
 * as used on this device, and say so once.
 */
function usePaidConfirmation(order: OrderView | undefined, paid: boolean) {
  useEffect(() => {
    if (!order || !paid || alreadyConfirmed(order.id)) return;
    rememberConfirmed(order.id);
    removeBoughtLines(order);
    clearCheckoutDraft();
    if (order.couponCode) markCouponUsed(order.couponCode);
    toast({ title: 'Payment Successful!', description: 'Your order has been confirmed and payment processed.' });
  }, [order, paid]);
}

type View =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'not-found' }
  | { kind: 'confirmed'; order: OrderView; session: CheckoutSessionView | null };

export default function OrderConfirmationPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const orderIdParam = params.get('orderId');

  const session = useCheckoutSession(sessionId);
  const sessionPaid = session.data?.payment_status === 'paid';
  const orderId = sessionId ? (sessionPaid ? (session.data?.metadata.orderId ?? null) : null) : orderIdParam;
  const order = useOrder(orderId);

  let view: View;
  if (!sessionId && !orderIdParam) view = { kind: 'error', message: CONFIRMATION_MESSAGES.noInfo };
  else if (sessionId && session.isPending) view = { kind: 'loading' };
  else if (sessionId && session.isError)
    view = isNotFound(session.error) ? { kind: 'not-found' } : { kind: 'error', message: CONFIRMATION_MESSAGES.failed };
  else if (sessionId && !sessionPaid) view = { kind: 'error', message: session.data?.refund_note ?? CONFIRMATION_MESSAGES.notPaid };
  else if (order.isPending) view = { kind: 'loading' };
  else if (order.isError) view = isNotFound(order.error) ? { kind: 'not-found' } : { kind: 'error', message: CONFIRMATION_MESSAGES.failed };
  // An order paid through a payment page counts only once paid; orders the shop entered itself have no payment page.
  else if (order.data.paymentProvider !== null && order.data.paidAt === null)
    view = { kind: 'error', message: CONFIRMATION_MESSAGES.notPaid };
  else view = { kind: 'confirmed', order: order.data, session: sessionId ? (session.data ?? null) : null };

  const confirmed = view.kind === 'confirmed' ? view.order : undefined;
  usePaidConfirmation(confirmed, confirmed?.paymentStatus === 'paid');

  return (
    <Container className="py-10 sm:py-16">
      {view.kind === 'loading' && <Spinner label={CONFIRMATION_MESSAGES.loading} className="py-24" />}
      {view.kind === 'error' && (
        <OrderMessageCard title={CONFIRMATION_MESSAGES.errorTitle}>
          <p className="text-stone-700">{view.message}</p>
        </OrderMessageCard>
      )}
      {view.kind === 'not-found' && <OrderMessageCard title={CONFIRMATION_MESSAGES.notFound} />}
      {view.kind === 'confirmed' && <ConfirmedOrder order={view.order} session={view.session} />}
    </Container>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className="font-medium break-all text-stone-900">{children}</dd>
    </div>
  );
}

function ConfirmedOrder({ order, session }: { order: OrderView; session: CheckoutSessionView | null }) {
  const address = formatAddress(order.shippingAddress);
  const paymentStatus = session ? session.payment_status : order.paymentStatus;
  const amountPaid = session ? session.amount_total : order.paidAt ? order.totalCents : 0;
  // A refund shows on the receipt: its state ("Partially refunded") and the amount given back.
  const refundedCents = order.refundedCents ?? 0;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col items-center gap-3 text-center">
        <SuccessMark />
        <h1 className="text-3xl font-bold text-stone-900">Order Confirmed</h1>
        <p className="text-stone-700">
          Order <span data-testid="order-number">{orderNumberLabel(order.id)}</span>
        </p>
      </div>

      <section aria-labelledby="order-details-title" className="rounded-xl border border-stone-200 bg-white p-6">
        <h2 id="order-details-title" className="mb-4 text-lg font-semibold text-stone-900">
          Order Details
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2">
          <Detail label="Order ID">{order.id}</Detail>
          <Detail label="Status">
            <StatusBadge status={order.status} preparing={isToShipOrder(order)} />
          </Detail>
          <Detail label="Total">
            <span data-testid="order-total">{formatCents(order.totalCents)}</span>
          </Detail>
          {/* The provider that took this order's payment, whether the page was reached by session or by order id. */}
          <Detail label="Payment Method">{paymentMethodName(order.paymentProvider)}</Detail>
          <Detail label="Payment Status">{capitalize((refundedCents > 0 ? order.paymentStatus : paymentStatus).replace('_', ' '))}</Detail>
          <Detail label="Amount Paid">{formatCents(amountPaid)}</Detail>
          {/* As chosen at checkout; an order from before it was kept says nothing rather than guess. */}
          {order.delivery && (
            <>
              <Detail label="Shipping Method">
                <span data-testid="shipping-method">{order.delivery.method}</span>
              </Detail>
              <Detail label="Estimated Delivery">
                <span data-testid="delivery-estimate">{deliveryEstimateText(order.delivery.estimatedDays)}</span>
              </Detail>
            </>
          )}
          {/* A refund, even on a cancelled order: what came back and what the customer paid in the end. */}
          {refundedCents > 0 && (
            <>
              <Detail label="Refunded">
                <span data-testid="order-refunded">{formatCents(refundedCents)}</span>
              </Detail>
              <Detail label="Net Paid">
                <span data-testid="order-net-paid">{formatCents(Math.max(0, amountPaid - refundedCents))}</span>
              </Detail>
            </>
          )}
        </dl>
      </section>

      {address.length > 0 && (
        <section aria-labelledby="order-address-title" className="rounded-xl border border-stone-200 bg-white p-6">
          <h2 id="order-address-title" className="mb-3 text-lg font-semibold text-stone-900">
            Shipping Address
          </h2>
          <AddressLines lines={address} className="text-stone-800" />
        </section>
      )}

      <section aria-labelledby="order-items-title" className="rounded-xl border border-stone-200 bg-white p-6">
        <h2 id="order-items-title" className="mb-4 text-lg font-semibold text-stone-900">
          Items
        </h2>
        <ul className="divide-y divide-stone-200">
          {order.items.map((item) => (
            <li key={item.id} className="flex gap-4 py-4 first:pt-0 last:pb-0">
              <ProductImage
                src={item.image ?? undefined}
                alt=""
                width={72}
                height={72}
                className="h-16 w-16 shrink-0 rounded-md object-cover sm:h-18 sm:w-18"
              />
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <p className="font-medium text-stone-900">{lineHeading(item).title}</p>
                <SubscriptionLineNote everyWeeks={item.everyWeeks} discountPercent={item.planDiscountPercent} />
                <p className="text-sm text-stone-700">
                  {lineHeading(item).options && <span data-line-options="">{lineHeading(item).options} · </span>}
                  Qty: {item.quantity}
                </p>
                {item.isFreeGift && <FreeGiftBadge />}
              </div>
              <p className={`font-semibold ${item.isFreeGift ? 'text-brand-800' : 'text-stone-900'}`}>
                {item.isFreeGift ? 'FREE' : formatCents(item.lineTotalCents)}
              </p>
            </li>
          ))}
        </ul>
        <dl className="mt-5 flex flex-col gap-2 border-t border-stone-200 pt-4 text-stone-700">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd className="text-stone-900">{formatCents(order.subtotalCents)}</dd>
          </div>
          {order.discountCents > 0 && (
            <div className="flex justify-between text-brand-800">
              <dt>Coupon discount{order.couponCode ? ` (${order.couponCode})` : ''}</dt>
              <dd>-{formatCents(order.discountCents)}</dd>
            </div>
          )}
          <div className="flex justify-between">
            <dt>Shipping</dt>
            <dd className="text-stone-900">{shippingText(order.shippingCents)}</dd>
          </div>
          <div className="flex justify-between">
            <dt>Tax</dt>
            <dd className="text-stone-900">{formatCents(order.taxCents)}</dd>
          </div>
          <div className="flex justify-between border-t border-stone-200 pt-2 text-lg font-bold text-stone-900">
            <dt>Total</dt>
            <dd>{formatCents(order.totalCents)}</dd>
          </div>
        </dl>
      </section>

      <p className="flex items-start gap-2 rounded-lg bg-brand-50 p-4 text-sm text-brand-900">
        <MailIcon size={18} className="mt-0.5 shrink-0" />
        <span>A confirmation email will be sent to {order.email ?? 'you'} shortly.</span>
      </p>

      {order.items.some((i) => i.everyWeeks) && (
        <p className="rounded-lg border border-brand-200 bg-white p-4 text-sm text-stone-800" data-subscription-started="">
          {SUBSCRIPTION_TEXTS.started}{' '}
          <Link to={SUBSCRIPTION_TEXTS.accountPath} className="font-medium text-brand-700 underline hover:text-brand-800">
            {SUBSCRIPTION_TEXTS.manageLink}
          </Link>
        </p>
      )}

      <div className="flex justify-center">
        <Link to={paths.home} className={buttonClasses('primary', 'lg')}>
          Continue Shopping
        </Link>
      </div>
    </div>
  );
}
