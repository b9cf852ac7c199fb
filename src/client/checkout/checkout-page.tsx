import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { useForm, type FieldErrors, type UseFormRegister, type UseFormRegisterReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  BUY_NOW_MESSAGES,
  CART_STOCK_MESSAGES,
  CHECKOUT_FIELD_LABELS,
  CHECKOUT_FIELD_MAX_LENGTH,
  CHECKOUT_MESSAGES,
  SHIPS_TO_TEXT,
  US_STATES,
} from '../../shared/checkout-text.js';
import type { CheckoutForm, Quote } from '../../shared/schemas/checkout.js';
import { rememberCheckout } from '../cart/bought-lines.js';
import { lineKey, useCartKnown } from '../cart/cart-store.js';
import { fitCartToStock, heldUntilTime, shortfallHeading, shortfallText, stockShortfalls, type StockShortfall } from '../cart/stock-fit.js';
import { useHydrated } from '../lib/use-hydrated.js';
import { useSession } from '../lib/get-session.js';
import { cartLineRequest, useCartQuote } from '../cart/use-cart-quote.js';
import { ApiError } from '../lib/api-client.js';
import { paths } from '../lib/paths.js';
import { signInPathFor } from '../lib/safe-redirect.js';
import { Alert } from '../ui/alert.js';
import { StockChangedNotice } from '../cart/stock-changed-notice.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { ArrowLeftIcon, LockIcon, UserIcon } from '../ui/icons.js';
import { Spinner } from '../ui/spinner.js';
import { toast } from '../ui/toast.js';
import { fieldAria, FieldError } from '../ui/form-controls.js';
import { createCheckoutSession } from './api/create-checkout-session.js';
import { CheckoutSummary } from './checkout-summary.js';
import { checkoutProviderFrom, payButtonText, paymentTexts } from '../../shared/payment-provider.js';
import { useSettings } from '../lib/get-settings.js';
import {
  CHECKOUT_FIELDS,
  EMPTY_CHECKOUT_VALUES,
  validationToastText,
  valuesFromUser,
  type CheckoutField,
  type CheckoutFormValues,
} from './checkout-values.js';
import { afterZod } from '../lib/load-zod.js';
import { lazyResolver } from '../lib/lazy-resolver.js';
import { ShippingMethod } from './shipping-method.js';
import { readCheckoutDraft, writeCheckoutDraft } from '../lib/checkout-draft.js';
import type { BuyNowState } from '../cart/buy-now.js';
import { cannotShip, NoShippingNotice } from '../ui/no-shipping-notice.js';
import { hasSubscriptionLines, SubscriptionTerms, useTermsTime } from './subscription-terms.js';
import { MarketingConsentBox } from '../ui/marketing-consent.js';

/** Below Tailwind's sm breakpoint: a phone, where a toast would cover the form. */
const PHONE_QUERY = '(max-width: 639px)';

/** The customer and address part of the order's body, as the form schema gives it. */
type CheckoutBody = z.output<typeof CheckoutForm>;

/** The form schema's resolver: its validation (zod) loads when the shopper first reaches the form, not with the page. */
const resolver = lazyResolver<CheckoutFormValues, unknown, CheckoutBody>(
  afterZod(() => import('./checkout-form.js').then((m) => m.checkoutResolver)),
);

/** ?canceled=true (back from the payment page) and an empty cart both lead back to the cart. */
function useLeaveForCart(cartIsEmpty: boolean): boolean {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const canceled = params.get('canceled') === 'true';
  const toasted = useRef(false);
  useEffect(() => {
    if (canceled && !toasted.current) {
      toasted.current = true;
      toast({
        title: 'Payment Canceled',
        description: "Your payment was canceled. You can try again when you're ready.",
        variant: 'destructive',
      });
    }
    if (canceled || cartIsEmpty) void navigate(paths.cart, { replace: true });
  }, [canceled, cartIsEmpty, navigate]);
  return canceled || cartIsEmpty;
}

export default function CheckoutPage() {
  const [shippingOptionId, setShippingOptionId] = useState<string | null>(null);
  const { cart, quote, updating, lineFor } = useCartQuote(shippingOptionId);
  // The cart lives in this browser: until it is known, the page is the form with a waiting summary.
  const known = useCartKnown();
  const leaving = useLeaveForCart(known && cart.items.length === 0);
  const { user, isLoading: userLoading } = useSession();
  const queryClient = useQueryClient();
  // The provider is the server's configuration, sent with the settings in every page's first data.
  const { data: settings } = useSettings();
  const provider = checkoutProviderFrom(settings);

  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    subscribe,
    formState: { errors },
  } = useForm<CheckoutFormValues, unknown, CheckoutBody>({ defaultValues: EMPTY_CHECKOUT_VALUES, resolver });
  // After a failed Pay: the problems listed in the form itself (they follow the fields as they are fixed).
  const [listProblems, setListProblems] = useState(false);
  const problemsId = useId();
  const noShippingId = useId();
  const [processing, setProcessing] = useState(false);
  const paying = useRef(false);
  // What the cart wants more of than can be bought, by the quote of the cart as it is now: shown
  // before Pay, which waits until the cart is lowered. Read once the page is live (it counts this
  // browser's own checkout, which the server's HTML cannot know).
  const hydrated = useHydrated();
  const short = hydrated && quote && !updating ? stockShortfalls(quote.lines) : [];
  const [fitted, setFitted] = useState<StockShortfall[]>([]);
  const shortId = useId();
  const shortWords = { title: CART_STOCK_MESSAGES.checkoutShortTitle, help: CART_STOCK_MESSAGES.checkoutShortHelp };
  // Subscribe and save (issue [4/8]): the terms next to Pay and the box the shopper ticks for them.
  const subscribing = hasSubscriptionLines(quote?.lines);
  const termsTime = useTermsTime();
  const [agreed, setAgreed] = useState(false);
  const [marketing, setMarketing] = useState(false);
  const [consentAsked, setConsentAsked] = useState(false);
  const consentBox = useRef<HTMLInputElement>(null);
  // A line its plan no longer allows as a subscription: the cart offers to buy it once; Pay waits.
  const refusedLines = quote && !updating ? quote.lines.filter((l) => !l.missing && l.subscriptionError) : [];
  const refusedId = useId();

  // The form as this tab left it (Cancel on the card page, Back, a trip to the cart): restored once,
  // then kept as the shopper types. Runs before the prefill, which fills only what the draft lacks.
  const draftFields = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const draft = readCheckoutDraft();
    const kept = new Set<string>();
    for (const f of CHECKOUT_FIELDS) {
      const v = draft[f];
      if (v !== undefined && v !== '') {
        setValue(f, v);
        kept.add(f);
      }
    }
    draftFields.current = kept;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- sessionStorage is read once the page is live (the server cannot know it)
    if (draft.shippingOptionId) setShippingOptionId(draft.shippingOptionId);
    return subscribe({ formState: { values: true }, callback: ({ values }) => writeCheckoutDraft(values) });
  }, [setValue, subscribe]);

  // Prefill once from the signed-in user, without overwriting what the shopper already typed.
  const prefilled = useRef(false);
  useEffect(() => {
    if (!user || prefilled.current) return;
    prefilled.current = true;
    const typed = getValues();
    for (const [k, val] of Object.entries(valuesFromUser(user)) as [CheckoutField, string][]) {
      if (draftFields.current.has(k)) continue;
      if (val && (typed[k] === '' || typed[k] === EMPTY_CHECKOUT_VALUES[k])) setValue(k, val);
    }
  }, [user, getValues, setValue]);

  const pickShipping = (id: string) => {
    setShippingOptionId(id);
    writeCheckoutDraft({ shippingOptionId: id });
  };

  // Back from the payment page through the browser's history (page restored from cache): pay again.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      paying.current = false;
      setProcessing(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  // When the server moved the pick (it is no longer available), follow it.
  const serverPick = quote?.selectedShippingOptionId ?? null;
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the server's answer arrives after render; the pick follows it once
    if (!updating && shippingOptionId !== null && serverPick !== shippingOptionId) setShippingOptionId(serverPick);
  }, [updating, serverPick, shippingOptionId]);

  if (leaving) return <Spinner />;

  /**
   * A failed attempt: each field shows its own problem and the form lists them all above the
   * fields. On a wide screen the 'Validation Error' toast lists them too; on a phone it would
   * cover half the form for its four seconds, so there the list in the form says it instead.
   */
  const showProblems = (problems: FieldErrors<CheckoutFormValues>) => {
    paying.current = false;
    setListProblems(true);
    if (!window.matchMedia(PHONE_QUERY).matches) {
      toast({ title: CHECKOUT_MESSAGES.validationTitle, description: validationToastText(problems), variant: 'destructive' });
    }
    // The form then focuses the first field to fix (shouldFocusError); it is scrolled to the middle
    // of the screen first, clear of the sticky header above (and of the toast at the bottom).
    const first = CHECKOUT_FIELDS.find((f) => problems[f]);
    if (first) document.getElementById(`checkout-${first}`)?.scrollIntoView({ block: 'center' });
  };

  async function pay(body: CheckoutBody, priced: Quote) {
    // A bot filled a field people cannot see: do nothing.
    if (body.website) {
      paying.current = false;
      return;
    }
    setProcessing(true);
    try {
      // Lines whose product is gone are left out (they are flagged on the cart page).
      const items = cart.items.filter((l) => !lineFor(lineKey(l))?.missing).map(cartLineRequest);
      const created = await createCheckoutSession({
        items,
        customerEmail: body.customerEmail,
        shippingAddress: body.shippingAddress,
        appliedCouponCode: cart.appliedCouponCode,
        appliedCouponDiscount: cart.appliedCouponCode ? priced.discountCents / 100 : 0,
        shippingOptionId: priced.selectedShippingOptionId,
        ...(items.some((l) => l.everyWeeks !== undefined) ? { acceptSubscriptionTerms: agreed } : {}),
        ...(marketing ? { marketing: true } : {}),
      });
      rememberCheckout(created.orderId);
      window.location.assign(created.url);
    } catch (err) {
      toast({
        title: CHECKOUT_MESSAGES.checkoutError,
        description: err instanceof ApiError && err.message ? err.message : CHECKOUT_MESSAGES.checkoutFallback,
        variant: 'destructive',
      });
      setProcessing(false);
      paying.current = false;
      // Stock or the coupon may have changed: show the server's current view.
      void queryClient.invalidateQueries({ queryKey: ['cart-quote'] });
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (paying.current || processing || !quote || updating || short.length > 0 || refusedLines.length > 0) return;
    // The subscription terms must be ticked by the shopper: Pay says so at the box, and waits.
    if (hasSubscriptionLines(quote.lines) && !agreed) {
      setConsentAsked(true);
      consentBox.current?.scrollIntoView({ block: 'center' });
      consentBox.current?.focus();
      return;
    }
    paying.current = true;
    const priced = quote;
    handleSubmit(
      (body) => pay(body, priced),
      showProblems,
    )(e).catch(() => {
      // The validation could not load (e.g. a deploy replaced its file).
      paying.current = false;
      toast({ title: CHECKOUT_MESSAGES.checkoutError, description: CHECKOUT_MESSAGES.checkoutFallback, variant: 'destructive' });
    });
  };

  const noShipping = cannotShip(quote);
  const canPay = Boolean(quote) && !updating && !processing && !noShipping && short.length === 0 && refusedLines.length === 0;
  const problemLines = listProblems ? CHECKOUT_FIELDS.filter((f) => errors[f]?.message) : [];

  return (
    <Container className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'Cart', to: paths.cart }, { label: 'Checkout' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Checkout</h1>

      {!userLoading && !user && (
        <div className="mb-6 flex flex-col gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 text-sm text-brand-900">
            <UserIcon size={18} className="shrink-0" />
            <span>You are checking out as a guest. Sign in to use your saved address and earn loyalty points.</span>
          </p>
          <div className="flex gap-2">
            <Link to={signInPathFor(paths.checkout, 'signin')} className={buttonClasses('primary', 'sm')}>
              Sign In
            </Link>
            <Link to={signInPathFor(paths.checkout, 'signup')} className={buttonClasses('outline', 'sm')}>
              Sign Up
            </Link>
          </div>
        </div>
      )}

      <BuyNowNotice lines={cart.items} />

      {short.length > 0 ? (
        <div className="mb-6">
          <Alert
            variant="destructive"
            title={shortfallHeading(short, shortWords).title}
            action={
              <Button
                variant="outline"
                onClick={() => {
                  fitCartToStock(short);
                  setFitted(short);
                }}
              >
                {CART_STOCK_MESSAGES.fitCart}
              </Button>
            }
          >
            <ul id={shortId} className="flex flex-col gap-1">
              {short.map((s) => (
                <li key={s.variantId}>{shortfallText(s, heldUntilTime(s.heldUntil), CHECKOUT_MESSAGES.outOfStock)}</li>
              ))}
            </ul>
          </Alert>
        </div>
      ) : (
        fitted.length > 0 && <StockChangedNotice changed={fitted} />
      )}

      <form
        onSubmit={submit}
        onFocus={() => void resolver.preload().catch(() => undefined)}
        noValidate
        className="grid gap-6 lg:grid-cols-[1fr_24rem] lg:gap-8"
      >
        {/* First in the page's order: on a phone, what is paid comes before the form (collapsed to the total). */}
        <CheckoutSummary quote={quote} couponCode={cart.appliedCouponCode} updating={updating} className="lg:col-start-2 lg:row-start-1" />
        <div className="flex min-w-0 flex-col gap-6 lg:col-start-1 lg:row-start-1">
          <section aria-labelledby="shipping-info-title" className="rounded-xl border border-stone-200 bg-white p-6">
            <h2 id="shipping-info-title" className="mb-1 text-lg font-semibold text-stone-900">
              Shipping Information
            </h2>
            <p className="mb-5 text-sm text-stone-600">
              Fields marked <span className="text-red-700">*</span> are required.
            </p>
            {problemLines.length > 0 && (
              <div
                id={problemsId}
                role="alert"
                className="mb-5 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
                data-testid="checkout-problems"
              >
                <p className="font-semibold">{CHECKOUT_MESSAGES.validationTitle}</p>
                <p>{CHECKOUT_MESSAGES.validationIntro}</p>
                <ul className="list-inside list-disc">
                  {problemLines.map((f) => (
                    <li key={f}>
                      {CHECKOUT_FIELD_LABELS[f]}: {errors[f]?.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field field="firstName" register={register} error={errors.firstName?.message} autoComplete="given-name" />
              <Field field="lastName" register={register} error={errors.lastName?.message} autoComplete="family-name" />
              <Field field="email" register={register} error={errors.email?.message} type="email" autoComplete="email" wide />
              <Field field="address" register={register} error={errors.address?.message} autoComplete="address-line1" wide />
              <Field field="city" register={register} error={errors.city?.message} autoComplete="address-level2" />
              <StateSelect registration={register('state')} error={errors.state?.message} />
              <Field field="zip" register={register} error={errors.zip?.message} autoComplete="postal-code" inputMode="numeric" />
            </div>
            <div className="mt-4">
              <MarketingConsentBox id="checkout-marketing" checked={marketing} onChange={setMarketing} />
            </div>
            <Decoys register={register} />
          </section>

          <section aria-labelledby="shipping-method-title" className="rounded-xl border border-stone-200 bg-white p-6">
            <h2 id="shipping-method-title" className="mb-4 text-lg font-semibold text-stone-900">
              Shipping Method
            </h2>
            <ShippingMethod quote={quote} selectedId={shippingOptionId ?? serverPick} onSelect={pickShipping} disabled={processing} />
          </section>

          <section aria-labelledby="payment-title" className="rounded-xl border border-stone-200 bg-white p-6">
            <h2 id="payment-title" className="mb-2 text-lg font-semibold text-stone-900">
              Payment
            </h2>
            <p className="mb-5 flex items-center gap-2 text-sm text-stone-700">
              <LockIcon size={16} className="shrink-0" />
              {paymentTexts(provider).checkoutNote}
            </p>
            {noShipping && quote && <NoShippingNotice quote={quote} id={noShippingId} reasonOnly className="mb-4" />}
            {short.length > 0 && (
              <p className="mb-4 text-sm font-medium text-red-700">
                {shortfallHeading(short, shortWords).title}. {shortfallHeading(short, shortWords).help}
              </p>
            )}
            {refusedLines.length > 0 && (
              <div id={refusedId} className="mb-4 text-sm font-medium text-red-700" data-subscription-refused="">
                {refusedLines.map((l) => (
                  <p key={`${l.variantId}|${l.everyWeeks}`}>
                    {l.name}: {l.subscriptionError}
                  </p>
                ))}
                <Link to={paths.cart} className="underline">
                  {BUY_NOW_MESSAGES.review}
                </Link>
              </div>
            )}
            {subscribing && quote && (
              <SubscriptionTerms
                lines={quote.lines}
                now={termsTime}
                agreed={agreed}
                onAgree={setAgreed}
                showMissing={consentAsked}
                checkboxRef={consentBox}
              />
            )}
            <div className="flex flex-col gap-3 sm:flex-row-reverse sm:items-center sm:justify-between">
              <Button
                type="submit"
                size="lg"
                disabled={!canPay}
                aria-busy={processing}
                aria-describedby={short.length > 0 ? shortId : noShipping ? noShippingId : refusedLines.length > 0 ? refusedId : undefined}
                className="w-full sm:w-auto"
              >
                {processing ? 'Processing...' : payButtonText(provider, quote ? quote.totalCents : null)}
              </Button>
              <Link to={paths.cart} className={buttonClasses('ghost', 'lg', 'w-full sm:w-auto')}>
                <ArrowLeftIcon size={18} />
                Back to Cart
              </Link>
            </div>
          </section>
        </div>
      </form>
    </Container>
  );
}

const inputClasses = (error: string | undefined) =>
  `h-11 w-full rounded-md border bg-white px-3 text-base text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 ${
    error ? 'border-red-700' : 'border-stone-400'
  }`;

function Label({ htmlFor, text }: { htmlFor: string; text: string }) {
  return (
    <label htmlFor={htmlFor} className="text-sm font-medium text-stone-800">
      {text} <span className="text-red-700">*</span>
    </label>
  );
}

function Field({
  field,
  register,
  error,
  wide = false,
  ...rest
}: {
  field: CheckoutField;
  register: UseFormRegister<CheckoutFormValues>;
  error: string | undefined;
  wide?: boolean;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'inputMode'>) {
  const id = `checkout-${field}`;
  return (
    <div className={`flex flex-col gap-1.5 ${wide ? 'sm:col-span-2' : ''}`}>
      <Label htmlFor={id} text={CHECKOUT_FIELD_LABELS[field]} />
      <input
        id={id}
        maxLength={CHECKOUT_FIELD_MAX_LENGTH[field]}
        {...register(field)}
        required
        {...fieldAria(error, `${id}-error`)}
        className={inputClasses(error)}
        {...rest}
      />
      {error && <FieldError id={`${id}-error`} message={error} />}
    </div>
  );
}

function StateSelect({ registration, error }: { registration: UseFormRegisterReturn<'state'>; error: string | undefined }) {
  const id = 'checkout-state';
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id} text={CHECKOUT_FIELD_LABELS.state} />
      <select
        id={id}
        {...registration}
        required
        autoComplete="address-level1"
        {...fieldAria(error, `${id}-error`)}
        aria-describedby={error ? `${id}-error ${id}-where` : `${id}-where`}
        className={inputClasses(error)}
      >
        {US_STATES.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      {error && <FieldError id={`${id}-error`} message={error} />}
      <p id={`${id}-where`} className="text-xs text-stone-600">
        {SHIPS_TO_TEXT}
      </p>
    </div>
  );
}

/** After Buy Now, when the cart holds more than that product: the checkout says it pays for all of it. */
function BuyNowNotice({ lines }: { lines: readonly { quantity: number }[] }) {
  const chosen = (useLocation().state as BuyNowState | null)?.buyNow;
  if (!chosen) return null;
  // Units beyond those Buy Now was pressed for: other products, or more of this one added earlier.
  const others = lines.reduce((n, l) => n + l.quantity, 0) - chosen.quantity;
  if (others === 0) return null;
  return (
    <div className="mb-6">
      <Alert
        title={BUY_NOW_MESSAGES.title}
        action={
          <Link to={paths.cart} className={buttonClasses('outline', 'sm')}>
            {BUY_NOW_MESSAGES.review}
          </Link>
        }
      >
        {BUY_NOW_MESSAGES.text(chosen.name, others)}
      </Alert>
    </div>
  );
}

/** Bot trap: fields people never see or reach (name, email, consent); a filled one stops the payment. */
function Decoys({ register }: { register: UseFormRegister<CheckoutFormValues> }) {
  const id = useId();
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={`${id}-n`}>Name</label>
      <input id={`${id}-n`} type="text" tabIndex={-1} autoComplete="off" {...register('contact_name')} />
      <label htmlFor={`${id}-e`}>Email</label>
      <input id={`${id}-e`} type="text" tabIndex={-1} autoComplete="off" {...register('contact_email')} />
      <label htmlFor={`${id}-c`}>I agree</label>
      <input id={`${id}-c`} type="checkbox" tabIndex={-1} autoComplete="off" {...register('consent')} />
    </div>
  );
}
