import http from 'node:http';
import Stripe from 'stripe';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const FAKE_STRIPE_SECRET_KEY = 'sk_test_local_fake';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_local_fake';

/**
 * A Stripe event as Stripe would deliver it to the webhook: its JSON and a valid signature
 * (the fake's webhook secret). `id` defaults to a random event id.
 */
export function signedStripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${Math.random().toString(36).slice(2)}`,
): { payload: string; signature: string } {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    data: { object },
    api_version: '2024-06-20',
    created: 1,
    livemode: false,
    pending_webhooks: 1,
    request: null,
  });
  const signature = new Stripe(FAKE_STRIPE_SECRET_KEY).webhooks.generateTestHeaderString({ payload, secret: FAKE_STRIPE_WEBHOOK_SECRET });
  return { payload, signature };
}

/** Delivers a signed event to the app's Stripe webhook, as Stripe would. */
export function deliverStripeEvent(app: FastifyInstance, e: { payload: string; signature: string }) {
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
    payload: e.payload,
  });
}

type FakeStripeRequest = { method: string; path: string; body: URLSearchParams; idempotencyKey: string | undefined };

/** What a saved payment method does when a PaymentIntent is confirmed on it ('succeed' unless a test says otherwise). */
export type FakePaymentMethodBehaviour = 'succeed' | 'decline' | 'authenticate';

/** Stripe's message for a card whose PaymentIntent needs the customer (3-D Secure) while they are away. */
export const FAKE_STRIPE_AUTHENTICATION_MESSAGE = 'Your card was declined. This transaction requires authentication.';

/** The `prefix[key]=value` pairs of a form-encoded Stripe request, as an object (Stripe's metadata). */
function metadataOf(body: URLSearchParams, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of body.entries()) if (k.startsWith(`${prefix}[`) && k.endsWith(']')) out[k.slice(prefix.length + 1, -1)] = v;
  return out;
}

/**
 * A local stand-in for the parts of Stripe's API the shop calls (checkout sessions, coupons,
 * refunds of a session's payment intent, never more than it charged; customers and the cards a
 * session keeps for later, payment intents confirmed off-session on them): it
 * checks the secret key, records every request, and can be told to refuse the next POST.
 * Point the app at it with STRIPE_SECRET_KEY=FAKE_STRIPE_SECRET_KEY and STRIPE_API_BASE=its URL.
 *
 * [5/8] also customers made on their own, Checkout Sessions in setup mode (completeSetup: a card
 * saved for later, a SetupIntent and a PaymentMethod with its brand and last four), and `expand[]`
 * on the reads the shop expands (a session's setup_intent.payment_method, a payment intent's method).
 *
 * As Stripe: a Checkout Session with `customer_creation=always` makes its customer when paid; with
 * `payment_intent_data[setup_future_usage]` its payment's method (pm_…) is attached to that
 * customer; a PaymentIntent's answer (an error included) is kept per idempotency key and replayed,
 * and the key reused with other parameters is an `idempotency_error`.
 */
export function fakeStripe() {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  /** What each session was asked to do with its payment's method: kept for later (setup_future_usage) or not. */
  const sessionSetups = new Map<string, { setupFutureUsage: string | null; customerCreation: string | null }>();
  const customers = new Map<string, Record<string, unknown>>();
  /** Payment methods by id: the customer each is attached to (null: none, it cannot be used again). */
  const paymentMethods = new Map<string, Record<string, unknown>>();
  const behaviours = new Map<string, FakePaymentMethodBehaviour>();
  const paymentIntents = new Map<string, Record<string, unknown>>();
  /** [5/8] Setup intents of setup-mode sessions (a card saved for later, nothing charged). */
  const setupIntents = new Map<string, Record<string, unknown>>();
  /** A payment intent request's first answer per idempotency key, with the parameters it came with. */
  const intentsByKey = new Map<string, { params: string; status: number; body: unknown }>();
  /** Payment intent requests still to be dropped without an answer, or made and then left unanswered. */
  let dropIntents = 0;
  let loseIntentAnswers = 0;
  const coupons = new Map<string, Record<string, unknown>>();
  /** Refunds by id; a payment intent's refunds may not exceed what its session charged. */
  const refunds = new Map<string, Record<string, unknown>>();
  const refundsByKey = new Map<string, Record<string, unknown>>();
  let refusal: { status: number; message: string } | null = null;
  const refusalsByKey = new Map<string, { status: number; message: string }>();
  /** Refund requests still to be dropped without an answer (the connection closed). */
  let dropRefunds = 0;
  /** Refunds still to be made and then left unanswered (the connection closed after the work). */
  let loseRefundAnswers = 0;
  let n = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
        res.end(JSON.stringify(body));
      };
      const notFound = (message: string) => send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message } });
      const invalid = (message: string) => send(400, { error: { type: 'invalid_request_error', message } });
      if (req.headers.authorization !== `Bearer ${FAKE_STRIPE_SECRET_KEY}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const body = new URLSearchParams(raw);
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method!, path, body, idempotencyKey: req.headers['idempotency-key'] as string | undefined });
      const key = req.headers['idempotency-key'] as string | undefined;
      // As Stripe: a key's first answer, a refusal included, is replayed for the same key.
      const refused = key ? refusalsByKey.get(key) : undefined;
      if (refused) return send(refused.status, { error: { type: 'invalid_request_error', message: refused.message } });
      if (refusal && req.method === 'POST') {
        const { status, message } = refusal;
        refusal = null;
        if (key) refusalsByKey.set(key, { status, message });
        return send(status, { error: { type: 'invalid_request_error', message } });
      }
      // What a GET asks to have expanded (`expand[0]=setup_intent.payment_method`), as Stripe's SDK sends it.
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      const expand = [...query.entries()].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);
      if (req.method === 'POST' && path === '/v1/customers') {
        const customer = { id: `cus_fake${++n}`, object: 'customer', email: body.get('email'), metadata: metadataOf(body, 'metadata') };
        customers.set(customer.id, customer);
        return send(200, customer);
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions' && body.get('mode') === 'setup') {
        // As Stripe: setup mode takes no line items, needs a currency (or the payment method types) and attaches the card to `customer`.
        if (body.has('line_items[0][quantity]')) return invalid('You can not pass `line_items` in `setup` mode.');
        if (!body.get('currency') && !body.has('allowed_payment_method_types[0]'))
          return invalid('currency is required in setup mode when allowed_payment_method_types is not set.');
        const customer = body.get('customer');
        if (customer && !customers.has(customer)) return notFound(`No such customer: '${customer}'`);
        const id = `cs_test_fake${++n}`;
        const session = {
          id,
          object: 'checkout.session',
          mode: 'setup',
          url: `https://checkout.stripe.test/c/setup/${id}`,
          status: 'open',
          payment_status: 'no_payment_required',
          amount_total: null,
          payment_intent: null,
          setup_intent: null as string | null,
          customer: customer ?? null,
          currency: body.get('currency'),
          success_url: body.get('success_url'),
          cancel_url: body.get('cancel_url'),
          expires_at: Number(body.get('expires_at') ?? 0) || null,
          metadata: metadataOf(body, 'metadata'),
          setup_intent_metadata: metadataOf(body, 'setup_intent_data[metadata]'),
        };
        sessions.set(id, session);
        return send(200, session);
      }
      const setupIntent = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && setupIntent) {
        const si = setupIntents.get(decodeURIComponent(setupIntent[1]!));
        if (!si) return notFound(`No such setupintent: '${setupIntent[1]}'`);
        return send(
          200,
          expand.includes('payment_method') ? { ...si, payment_method: paymentMethods.get(si.payment_method as string) } : si,
        );
      }
      const paymentMethod = /^\/v1\/payment_methods\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && paymentMethod) {
        const pm = paymentMethods.get(decodeURIComponent(paymentMethod[1]!));
        return pm ? send(200, pm) : notFound(`No such PaymentMethod: '${paymentMethod[1]}'`);
      }
      if (req.method === 'POST' && path === '/v1/coupons') {
        const id = `coupon_${++n}`;
        const coupon = {
          id,
          object: 'coupon',
          percent_off: body.has('percent_off') ? Number(body.get('percent_off')) : null,
          amount_off: body.has('amount_off') ? Number(body.get('amount_off')) : null,
          currency: body.get('currency'),
          duration: body.get('duration'),
          name: body.get('name'),
          valid: true,
        };
        coupons.set(id, coupon);
        return send(200, coupon);
      }
      const coupon = /^\/v1\/coupons\/([^/]+)$/.exec(path);
      if (req.method === 'DELETE' && coupon) {
        const id = decodeURIComponent(coupon[1]!);
        if (!coupons.delete(id)) return notFound(`No such coupon: '${id}'`);
        return send(200, { id, object: 'coupon', deleted: true });
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_fake${++n}`;
        let total = 0;
        for (let i = 0; body.has(`line_items[${i}][quantity]`); i++) {
          total += Number(body.get(`line_items[${i}][quantity]`)) * Number(body.get(`line_items[${i}][price_data][unit_amount]`));
        }
        total += Number(body.get('shipping_options[0][shipping_rate_data][fixed_amount][amount]') ?? 0);
        const discount = Number(coupons.get(body.get('discounts[0][coupon]') ?? '')?.amount_off ?? 0);
        const customer = body.get('customer');
        if (customer && body.has('customer_email'))
          return invalid('You may only specify one of these parameters: customer, customer_email.');
        if (customer && body.has('customer_creation'))
          return invalid('You may only specify one of these parameters: customer, customer_creation.');
        if (customer && !customers.has(customer)) return notFound(`No such customer: '${customer}'`);
        // As Stripe: amount_total is after the discount (what the card is charged).
        const session = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: 'open',
          payment_status: 'unpaid',
          amount_total: total - discount,
          total_details: { amount_discount: discount },
          payment_intent: `pi_test_fake${n}`,
          customer: customer ?? null,
          customer_creation: body.get('customer_creation'),
          customer_email: body.get('customer_email'),
          metadata: { orderId: body.get('metadata[orderId]') },
          // As Stripe: what the session was asked to collect, and (once completed) what the payer said.
          consent_collection: body.has('consent_collection[promotions]')
            ? { promotions: body.get('consent_collection[promotions]'), terms_of_service: 'none', payment_method_reuse_agreement: null }
            : null,
          consent: null as { promotions: string | null; terms_of_service: string | null } | null,
        };
        sessions.set(id, session);
        sessionSetups.set(id, {
          setupFutureUsage: body.get('payment_intent_data[setup_future_usage]'),
          customerCreation: body.get('customer_creation'),
        });
        return send(200, session);
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        if (dropRefunds > 0) {
          dropRefunds--;
          return req.socket.destroy();
        }
        const replay = key ? refundsByKey.get(key) : undefined;
        const answer = (refund: Record<string, unknown>) => {
          if (loseRefundAnswers > 0) {
            loseRefundAnswers--;
            return req.socket.destroy();
          }
          return send(200, refund);
        };
        if (replay) return answer(replay);
        const pi = body.get('payment_intent');
        const session = [...sessions.values()].find((s) => s.payment_intent === pi);
        if (!session) return notFound(`No such payment_intent: '${pi}'`);
        const charged = session.amount_total as number;
        const already = [...refunds.values()].filter((r) => r.payment_intent === pi).reduce((a, r) => a + (r.amount as number), 0);
        const amount = body.has('amount') ? Number(body.get('amount')) : charged - already;
        if (amount <= 0 || already + amount > charged) {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_large',
              message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${charged - already})`,
            },
          });
        }
        const refund = {
          id: `re_fake${++n}`,
          object: 'refund',
          amount,
          currency: 'usd',
          payment_intent: pi,
          status: 'succeeded',
          metadata: { orderId: body.get('metadata[orderId]'), refundId: body.get('metadata[refundId]') },
        };
        refunds.set(refund.id, refund);
        if (key) refundsByKey.set(key, refund);
        return answer(refund);
      }
      if (req.method === 'POST' && path === '/v1/payment_intents') {
        if (dropIntents > 0) {
          dropIntents--;
          return req.socket.destroy();
        }
        const answer = (status: number, answerBody: unknown) => {
          if (loseIntentAnswers > 0) {
            loseIntentAnswers--;
            return req.socket.destroy();
          }
          return send(status, answerBody);
        };
        const params = [...body.entries()]
          .map(([k, v]) => `${k}=${v}`)
          .sort()
          .join('&');
        const replay = key ? intentsByKey.get(key) : undefined;
        if (replay && replay.params !== params)
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          });
        if (replay) return answer(replay.status, replay.body);
        const [status, answerBody] = confirmIntent(body);
        if (key) intentsByKey.set(key, { params, status, body: answerBody });
        return answer(status, answerBody);
      }
      const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && intent) {
        const pi = paymentIntents.get(decodeURIComponent(intent[1]!));
        if (!pi) return notFound(`No such payment_intent: '${intent[1]}'`);
        return send(
          200,
          expand.includes('payment_method')
            ? { ...pi, payment_method: paymentMethods.get(pi.payment_method as string) ?? pi.payment_method }
            : pi,
        );
      }
      const m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && m) {
        const s = sessions.get(m[1]!);
        if (!s) return notFound('No such checkout session');
        if (!s.setup_intent || !expand.some((e) => e.startsWith('setup_intent'))) return send(200, s);
        const si = setupIntents.get(s.setup_intent as string)!;
        const withMethod = expand.includes('setup_intent.payment_method')
          ? { ...si, payment_method: paymentMethods.get(si.payment_method as string) }
          : si;
        return send(200, { ...s, setup_intent: withMethod });
      }
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (req.method === 'POST' && expire) {
        const s = sessions.get(expire[1]!);
        if (!s) return notFound('No such checkout session');
        if (s.status !== 'open')
          return send(400, { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired.' } });
        s.status = 'expired';
        return send(200, s);
      }
      return notFound(`Unrecognized request URL (${req.method}: ${path})`);
    });
  });
  /**
   * A PaymentIntent created and confirmed at once on a saved method, as Stripe answers it: 200 and
   * succeeded; or a 402 card error (declined, or authentication_required off-session) carrying the
   * PaymentIntent left in requires_payment_method (on-session, a 3-D Secure card answers 200 in
   * requires_action); or a 400/404 for a method unknown or not attached to the customer.
   */
  function confirmIntent(body: URLSearchParams): [number, unknown] {
    const pmId = body.get('payment_method');
    const customer = body.get('customer');
    if (!body.has('amount') || !body.get('currency'))
      return [400, { error: { type: 'invalid_request_error', message: 'Missing required param: amount.', param: 'amount' } }];
    if (customer && !customers.has(customer))
      return [
        404,
        {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such customer: '${customer}'`, param: 'customer' },
        },
      ];
    const pm = pmId ? paymentMethods.get(pmId) : undefined;
    if (!pmId || !pm)
      return [
        404,
        {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such PaymentMethod: '${pmId}'`,
            param: 'payment_method',
          },
        },
      ];
    if (pm.customer !== (customer ?? pm.customer) || (pm.customer === null && body.get('off_session') === 'true'))
      return [
        400,
        {
          error: {
            type: 'invalid_request_error',
            message:
              'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
            param: 'payment_method',
          },
        },
      ];
    const amount = Number(body.get('amount'));
    const offSession = body.get('off_session') === 'true';
    const behaviour = behaviours.get(pmId) ?? 'succeed';
    const pi: Record<string, unknown> = {
      id: `pi_fake${++n}`,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: body.get('currency'),
      customer: customer ?? null,
      payment_method: pmId,
      metadata: { orderId: body.get('metadata[orderId]') },
      status: 'requires_payment_method',
      last_payment_error: null,
    };
    paymentIntents.set(pi.id as string, pi);
    if (behaviour === 'succeed') {
      Object.assign(pi, { status: 'succeeded', amount_received: amount, latest_charge: `ch_fake${++n}` });
      return [200, pi];
    }
    if (behaviour === 'authenticate' && !offSession) {
      Object.assign(pi, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      return [200, pi];
    }
    const error =
      behaviour === 'authenticate'
        ? { code: 'authentication_required', decline_code: 'authentication_required', message: FAKE_STRIPE_AUTHENTICATION_MESSAGE }
        : { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
    const charge = `ch_fake${++n}`;
    pi.last_payment_error = { type: 'card_error', ...error, charge, payment_method: pm };
    pi.latest_charge = charge;
    return [402, { error: { type: 'card_error', ...error, charge, payment_intent: pi, payment_method: pm } }];
  }

  return {
    requests,
    sessions,
    customers,
    paymentMethods,
    paymentIntents,
    /** How the saved method answers the next PaymentIntents confirmed on it (Stripe's test cards 4242…, 0341, 3184). */
    setPaymentMethodBehaviour: (pm: string, behaviour: FakePaymentMethodBehaviour) => behaviours.set(pm, behaviour),
    /** The next `n` payment intent requests get no answer (their connection is closed before any work). */
    dropPaymentIntents: (count: number) => (dropIntents = count),
    /** The next `n` payment intent requests are made (and kept under their key), but their answers never arrive. */
    losePaymentIntentAnswers: (count: number) => (loseIntentAnswers = count),
    /**
     * A payer completes the session's page, as Stripe's hosted page would let them while it is
     * open there (whatever the shop decided meanwhile): the session is paid, and the webhook event
     * Stripe would send is returned for delivery. Throws for a session Stripe has closed.
     *
     * `promotions`: what the payer did with Stripe's offers box, on a session that asked for it
     * (`consent_collection[promotions]=auto`): ticked ('opt_in'), left ('opt_out'), or not shown
     * (null, the default; a session that did not ask always says null, as Stripe's does).
     */
    pay: (sessionId: string, { promotions = null }: { promotions?: 'opt_in' | 'opt_out' | null } = {}) => {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`No such checkout session: ${sessionId}`);
      if (s.status !== 'open') throw new Error(`Stripe's page of ${sessionId} is ${String(s.status)}: it takes no payment`);
      s.status = 'complete';
      s.payment_status = 'paid';
      if (s.consent_collection) s.consent = { promotions, terms_of_service: null };
      // The payer's card, as a payment method; the customer made now if the session asked for one,
      // and the method attached to it if the session keeps it for later.
      const setup = sessionSetups.get(sessionId);
      if (!s.customer && setup?.customerCreation === 'always') {
        const customer = { id: `cus_fake${++n}`, object: 'customer', email: s.customer_email ?? null };
        customers.set(customer.id, customer);
        s.customer = customer.id;
      }
      const pm = {
        id: `pm_fake${++n}`,
        object: 'payment_method',
        type: 'card',
        card: { brand: 'visa', last4: '4242' },
        customer: setup?.setupFutureUsage && s.customer ? s.customer : null,
      };
      paymentMethods.set(pm.id, pm);
      const amount = s.amount_total as number;
      paymentIntents.set(s.payment_intent as string, {
        id: s.payment_intent,
        object: 'payment_intent',
        amount,
        amount_received: amount,
        currency: 'usd',
        customer: s.customer ?? null,
        payment_method: pm.id,
        setup_future_usage: setup?.setupFutureUsage ?? null,
        status: 'succeeded',
        metadata: { ...(s.metadata as Record<string, unknown>) },
      });
      return signedStripeEvent('checkout.session.completed', { ...s });
    },
    /** The saved payment method of a paid session (its payment intent's), for a test to set its behaviour. */
    paymentMethodOf: (sessionId: string): string => {
      const s = sessions.get(sessionId);
      const pi = s ? paymentIntents.get(s.payment_intent as string) : undefined;
      if (!pi) throw new Error(`The session ${sessionId} took no payment`);
      return pi.payment_method as string;
    },
    setupIntents,
    /**
     * [5/8] A customer completes a setup-mode session's page (a new card, nothing charged), as
     * Stripe's would while it is open there: a PaymentMethod with the card's brand and last four,
     * attached to the session's customer, a succeeded SetupIntent, and the session complete; the
     * webhook event Stripe would send is returned for delivery. Throws for a session Stripe has closed.
     */
    completeSetup: (sessionId: string, card: { brand: string; last4: string } = { brand: 'visa', last4: '4242' }) => {
      const s = sessions.get(sessionId);
      if (!s || s.mode !== 'setup') throw new Error(`No such setup session: ${sessionId}`);
      if (s.status !== 'open') throw new Error(`Stripe's page of ${sessionId} is ${String(s.status)}: it saves no card`);
      const pm = { id: `pm_fake${++n}`, object: 'payment_method', type: 'card', card: { ...card }, customer: s.customer ?? null };
      paymentMethods.set(pm.id, pm);
      const si = {
        id: `seti_fake${++n}`,
        object: 'setup_intent',
        status: 'succeeded',
        customer: s.customer ?? null,
        payment_method: pm.id,
        usage: 'off_session',
        metadata: s.setup_intent_metadata,
      };
      setupIntents.set(si.id, si);
      s.setup_intent = si.id;
      s.status = 'complete';
      return signedStripeEvent('checkout.session.completed', { ...s });
    },
    coupons,
    refunds,
    /** The next POST answers this status with Stripe's error shape (400 'Something is wrong' unless told). */
    failOnce: (status = 400, message = 'Something is wrong') => (refusal = { status, message }),
    /** The next `n` refund requests get no answer: their connection is closed. */
    dropRefunds: (n: number) => (dropRefunds = n),
    /** The next n refund requests are made, but their answers never arrive. */
    loseRefundAnswers: (n: number) => (loseRefundAnswers = n),
    listen: () =>
      new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
