import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatCents } from '../../shared/money.js';
import { formatUnitPrice } from '../../shared/unit-price.js';
import { CART_STOCK_MESSAGES, CHECKOUT_MESSAGES } from '../../shared/checkout-text.js';
import { lineHeading } from '../../shared/line-options.js';
import { freeShippingMinimumFromSettings } from '../../shared/shop-facts.js';
import { useSettings } from '../lib/get-settings.js';
import type { QuoteLine } from '../../shared/schemas/checkout.js';
import { paths } from '../lib/paths.js';
import { Skeleton } from '../ui/skeleton.js';
import { Alert } from '../ui/alert.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { CartIcon, TrashIcon } from '../ui/icons.js';
import { ProductImage } from '../ui/product-image.js';
import { QuantityStepper } from '../ui/quantity-stepper.js';
import { toast } from '../ui/toast.js';
import { getCart, lineKey, removeFromCart, setCartQuantity, useCartKnown, type CartLine } from './cart-store.js';
import { RECOVERY_MESSAGES } from '../../shared/recovery.js';
import { buyLineOnce } from './buy-line-once.js';
import { lineLabelName, SubscriptionLineNote } from './subscription-line.js';
import { SUBSCRIPTION_TEXTS } from '../../shared/subscription-words.js';
import { CouponForm } from './coupon-form.js';
import { FreeGiftBadge, refuseFreeGiftIncrease } from '../ui/free-gift.js';
import { FreeShippingLine } from '../ui/free-shipping-line.js';
import { OrderSummaryTotals } from '../ui/order-summary.js';
import { useCartQuote } from './use-cart-quote.js';
import { useCartFollowsStock } from './use-cart-follows-stock.js';
import { HELD_STOCK_MESSAGES, heldUntilTime } from './stock-fit.js';
import { useHydrated } from '../lib/use-hydrated.js';
import { StockChangedNotice } from './stock-changed-notice.js';
import { cannotShip, NoShippingNotice } from '../ui/no-shipping-notice.js';

/** `?name=value` in the address: say it once, then take the query off the URL. */
function useOnceToast(name: string, value: string, message: { title: string; description: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const shown = useRef(false);
  const present = params.get(name) === value;
  const { title, description } = message;
  useEffect(() => {
    if (!present) return;
    if (!shown.current) {
      shown.current = true;
      toast({ title, description });
    }
    const next = new URLSearchParams(params);
    next.delete(name);
    const search = next.toString();
    void navigate({ pathname: paths.cart, search: search ? `?${search}` : '' }, { replace: true });
  }, [present, params, navigate, name, title, description]);
}

const CANCELED_TOAST = {
  title: 'Payment Canceled',
  description: "Your payment has been canceled. You can make changes to your cart and try again when you're ready.",
};
const RESTORED_TOAST = { title: 'Cart restored', description: RECOVERY_MESSAGES.restored };

/**
 * The shopper removed the cart's last line by hand: no reminder is sent about a checkout they left
 * (issue [7/8]). Told without waiting; a lost request only means a reminder may still come.
 */
function tellCartEmptied(): void {
  if (getCart().items.length > 0) return;
  void fetch('/api/cart/emptied', { method: 'POST', credentials: 'same-origin', keepalive: true }).catch(() => undefined);
}

/** The cart's outline while the browser reads it: two rows and the summary box, as tall as the real ones. */
function CartPlaceholder() {
  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_24rem]" aria-busy="true">
      <p role="status" className="sr-only">
        Loading your cart
      </p>
      <div className="flex flex-col divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
        {[0, 1].map((i) => (
          <div key={i} className="flex gap-4 p-4">
            <Skeleton className="h-24 w-24 shrink-0" />
            <div className="flex flex-1 flex-col gap-3">
              <Skeleton className="h-5 w-2/3" />
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-10 w-32" />
            </div>
          </div>
        ))}
      </div>
      <div className="flex h-fit flex-col gap-4 rounded-xl border border-stone-200 bg-stone-50 p-6">
        <Skeleton className="h-6 w-1/2" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    </div>
  );
}

export default function CartPage() {
  // ?canceled=true: back from the payment page; ?restored=1: a recovery e-mail's link put the cart back.
  useOnceToast('canceled', 'true', CANCELED_TOAST);
  useOnceToast('restored', '1', RESTORED_TOAST);
  const { cart, quote, updating, error, lineFor, giftLine } = useCartQuote();
  // The cart lives in this browser; the server draws it when the cookie says what is in it, and an outline otherwise.
  const known = useCartKnown();
  const { changed: lowered, subtotalBeforeCents } = useCartFollowsStock(quote, updating);
  const { data: settings } = useSettings();
  const freeMinimum = freeShippingMinimumFromSettings(settings);
  // Lowering to what is in stock took the subtotal under the free-shipping minimum: said with the lowering.
  const lostFreeShipping =
    freeMinimum !== null &&
    freeMinimum > 0 &&
    subtotalBeforeCents !== null &&
    subtotalBeforeCents >= freeMinimum &&
    quote !== undefined &&
    !updating &&
    quote.subtotalCents < freeMinimum;
  const noShippingId = useId();

  return (
    <Container className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'Cart' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Shopping Cart</h1>

      {known && lowered.length > 0 && <StockChangedNotice changed={lowered} />}
      {known && lowered.length > 0 && lostFreeShipping && (
        <p className="-mt-4 mb-6 text-sm font-medium text-amber-900" data-testid="lost-free-shipping" role="status">
          {CART_STOCK_MESSAGES.lostFreeShipping(freeMinimum)}
        </p>
      )}

      {!known ? (
        <CartPlaceholder />
      ) : cart.items.length === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-stone-300 px-4 py-16 text-center">
          <CartIcon size={40} className="text-stone-500" />
          <h2 id={EMPTY_CART_HEADING_ID} tabIndex={-1} className="text-xl font-semibold text-stone-900 focus:outline-none">
            Your cart is empty
          </h2>
          <Link to={paths.products} className={buttonClasses('primary', 'lg')}>
            Continue Shopping
          </Link>
        </div>
      ) : (
        <div className="grid gap-8 lg:grid-cols-[1fr_24rem]">
          <section aria-labelledby="cart-items-title" className="flex flex-col gap-4">
            <h2 id="cart-items-title" className="sr-only">
              Items in your cart
            </h2>
            <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
              {cart.items.map((line) => (
                <CartLineRow
                  key={`${line.product.id}|${line.product.variantId ?? ''}|${line.size}|${line.color}|${line.everyWeeks ?? ''}`}
                  line={line}
                  quoted={lineFor(lineKey(line))}
                />
              ))}
              {giftLine && <GiftLineRow line={giftLine} />}
            </ul>
          </section>

          <section
            aria-labelledby="cart-summary-title"
            className="flex h-fit flex-col gap-5 rounded-xl border border-stone-200 bg-stone-50 p-6"
          >
            <h2 id="cart-summary-title" className="text-lg font-semibold text-stone-900">
              Order Summary
            </h2>
            <p className="-mt-3 text-sm text-stone-700">
              {cart.itemCount} {cart.itemCount === 1 ? 'item' : 'items'}
            </p>
            {error && !quote ? (
              <Alert variant="destructive" title="We couldn't calculate your total. Please try again." />
            ) : (
              <OrderSummaryTotals quote={quote} couponCode={cart.appliedCouponCode} updating={updating} />
            )}
            <FreeShippingLine subtotalCents={quote?.subtotalCents ?? null} />
            <CouponForm />
            {quote && cannotShip(quote) && <NoShippingNotice quote={quote} id={noShippingId} />}
            <div className="flex flex-col gap-3">
              {quote && cannotShip(quote) ? (
                // Nothing can ship this order: the checkout would be refused, so it is not offered.
                <Button size="lg" className="w-full" disabled aria-describedby={noShippingId}>
                  Proceed to Checkout
                </Button>
              ) : (
                <Link to={paths.checkout} className={buttonClasses('primary', 'lg', 'w-full')}>
                  Proceed to Checkout
                </Link>
              )}
              <Link to={paths.products} className={buttonClasses('outline', 'md', 'w-full')}>
                Continue Shopping
              </Link>
            </div>
          </section>
        </div>
      )}
    </Container>
  );
}

/**
 * Removes a line and keeps the keyboard in the cart: focus moves to the Remove button of the line
 * that took its place (or of the one before it), and to the empty cart's heading when none is left,
 * instead of falling back to the top of the page with the removed button.
 */
function removeLineKeepingFocus(button: HTMLElement, remove: () => void): void {
  const list = button.closest('ul');
  const buttons = list ? [...list.querySelectorAll<HTMLElement>('[data-remove-line]')] : [];
  const at = buttons.indexOf(button);
  remove();
  requestAnimationFrame(() => {
    const left = list?.isConnected ? [...list.querySelectorAll<HTMLElement>('[data-remove-line]')] : [];
    const next = left[Math.min(at, left.length - 1)] ?? document.getElementById(EMPTY_CART_HEADING_ID);
    next?.focus();
  });
}

const EMPTY_CART_HEADING_ID = 'cart-empty-title';

function CartLineRow({ line, quoted }: { line: CartLine; quoted: QuoteLine | undefined }) {
  const key = lineKey(line);
  const { product } = line;
  const missing = quoted?.missing ?? false;
  // The server's name, price and stock once it has answered; what the cart remembers until then.
  const name = missing ? 'Unknown Product' : (quoted?.name ?? product.name);
  // A subscription line is told apart from the same product bought once, to a screen reader too.
  const labelName = lineLabelName(name, line.everyWeeks);
  const subscriptionError = quoted && !missing ? (quoted.subscriptionError ?? null) : null;
  // The product's name over its own options ("Scent: Lavender · Size: 32 oz"); nothing without options.
  const heading = quoted && !missing ? lineHeading(quoted) : { title: name, options: '' };
  const priceCents = quoted && !missing ? quoted.priceCents : product.priceCents;
  const unitPrice = quoted && !missing ? formatUnitPrice(quoted.priceCents, quoted.unitQuantity, quoted.unit) : null;
  const inventory = quoted && !missing ? quoted.inventory : undefined;
  const image = quoted?.image ?? product.images[0];
  const lineTotal = quoted && quoted.quantity === line.quantity ? quoted.lineTotalCents : priceCents * line.quantity;
  // Short only for units other shoppers' checkouts hold: the line stays as it is and says until when.
  const held = quoted && !missing && quoted.insufficientStock && (quoted.held ?? 0) > 0 ? (quoted.held ?? 0) : 0;
  const heldOnly = held > 0 && inventory !== undefined && quoted !== undefined && quoted.quantity <= inventory + held;
  // The time is the shopper's clock: written once the page is live (the server's HTML cannot know their zone).
  const hydrated = useHydrated();
  const until = hydrated ? heldUntilTime(quoted?.heldUntil) : null;
  // The shopper may lower a held line, not raise it past what it holds.
  const stepperMax = inventory !== undefined ? Math.max(1, inventory, heldOnly ? line.quantity : 0) : undefined;
  // A quantity typed above what can be bought is cut to it (the stepper's bound): the line says why.
  const [cutTo, setCutTo] = useState<number | null>(null);
  const onTyped = (e: FormEvent<HTMLDivElement>) => {
    const target = e.target;
    if (!(target instanceof HTMLInputElement) || stepperMax === undefined) return;
    const typed = Number.parseInt(target.value, 10);
    if (Number.isNaN(typed)) return;
    setCutTo(typed > stepperMax ? stepperMax : null);
  };
  return (
    <li className={`flex gap-3 p-3 sm:gap-4 sm:p-4 ${missing ? 'bg-red-50/60' : ''}`}>
      <Link to={paths.product(product.id, product.variantId)} tabIndex={-1} aria-hidden="true" className="shrink-0">
        <ProductImage
          src={missing ? undefined : image}
          alt=""
          width={96}
          height={96}
          className="h-16 w-16 rounded-lg object-cover sm:h-24 sm:w-24"
        />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h3 className="font-semibold text-stone-900">
            {missing ? (
              name
            ) : (
              <Link
                to={paths.product(product.id, product.variantId)}
                // The whole title ("Cleaner — Lavender, 32 oz"), so two versions of a product are two links.
                aria-label={name}
                className="rounded hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                {heading.title}
              </Link>
            )}
          </h3>
          {heading.options && (
            <p className="text-sm text-stone-700" data-line-options="">
              {heading.options}
            </p>
          )}
          <SubscriptionLineNote everyWeeks={line.everyWeeks} discountPercent={quoted?.planDiscountPercent} />
          {subscriptionError && (
            <div className="mt-1 flex flex-col items-start gap-2 text-sm" data-subscription-error="">
              <p className="font-medium text-red-700">{subscriptionError}</p>
              <Button size="sm" variant="outline" onClick={() => buyLineOnce(key)}>
                {SUBSCRIPTION_TEXTS.switchToOneTime}
              </Button>
            </div>
          )}
          {missing ? (
            <p className="text-sm font-medium text-red-700">{CHECKOUT_MESSAGES.missingProduct}</p>
          ) : (
            <p className="text-sm text-stone-700">
              {formatCents(priceCents)} each
              {/* The price per unit ("$0.94 / oz"), to compare sizes (decision 0043). */}
              {unitPrice && <span data-unit-price="">{` · ${unitPrice}`}</span>}
            </p>
          )}
          {heldOnly && (
            <div data-held-line="" className="mt-1 text-sm">
              <p className="font-medium text-amber-900">{HELD_STOCK_MESSAGES.line(held, until)}</p>
              <p className="text-stone-700">{HELD_STOCK_MESSAGES.canBuyNow(inventory ?? 0, line.quantity)}</p>
            </div>
          )}
        </div>
        <div className="flex items-center gap-2 sm:justify-end sm:gap-4">
          <div className="flex flex-col gap-1" onChange={onTyped}>
            <QuantityStepper
              size="sm"
              label={`Quantity of ${labelName}`}
              value={line.quantity}
              max={stepperMax}
              disabled={missing}
              onChange={(q) => {
                if (stepperMax === undefined || q < stepperMax) setCutTo(null);
                setCartQuantity(key, q, stepperMax);
              }}
            />
            <p role="status" className="text-xs font-medium text-amber-900 empty:hidden" data-testid="only-in-stock">
              {cutTo !== null && cutTo === line.quantity ? CART_STOCK_MESSAGES.onlyInStock(cutTo) : ''}
            </p>
          </div>
          <p className="ml-auto text-right font-semibold whitespace-nowrap text-stone-900 sm:ml-0 sm:w-24">
            {missing ? '—' : formatCents(lineTotal)}
          </p>
          <button
            type="button"
            data-remove-line=""
            onClick={(e) =>
              removeLineKeepingFocus(e.currentTarget, () => {
                removeFromCart(key);
                tellCartEmptied();
              })
            }
            aria-label={`Remove ${labelName}`}
            className="rounded-md p-2 text-stone-600 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <TrashIcon size={18} />
          </button>
        </div>
      </div>
    </li>
  );
}

function GiftLineRow({ line }: { line: QuoteLine }) {
  return (
    <li className="flex gap-3 bg-brand-50/50 p-3 sm:gap-4 sm:p-4">
      <ProductImage
        src={line.image ?? undefined}
        alt=""
        width={96}
        height={96}
        className="h-16 w-16 shrink-0 rounded-lg object-cover sm:h-24 sm:w-24"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <h3 className="font-semibold text-stone-900">{lineHeading(line).title}</h3>
          {lineHeading(line).options && (
            <p className="text-sm text-stone-700" data-line-options="">
              {lineHeading(line).options}
            </p>
          )}
          <FreeGiftBadge />
        </div>
        <div className="flex items-center gap-2 sm:justify-end sm:gap-4">
          <QuantityStepper
            size="sm"
            label={`Quantity of ${line.name}`}
            value={1}
            onChange={(q) => {
              if (q > 1) refuseFreeGiftIncrease();
            }}
          />
          <p className="ml-auto text-right font-semibold text-brand-800 sm:ml-0 sm:w-24">FREE</p>
          {/* Keeps the columns aligned with the rows that have a remove button. */}
          <span aria-hidden="true" className="w-[34px]" />
        </div>
      </div>
    </li>
  );
}
