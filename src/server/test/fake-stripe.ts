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

/**
 * A local stand-in for the parts of Stripe's API the shop calls (checkout sessions, coupons,
 * refunds of a session's payment intent, never more than it charged): it
 * checks the secret key, records every request, and can be told to refuse the next POST.
 * Point the app at it with STRIPE_SECRET_KEY=FAKE_STRIPE_SECRET_KEY and STRIPE_API_BASE=its URL.
 */
export function fakeStripe() {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
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
          metadata: { orderId: body.get('metadata[orderId]') },
        };
        sessions.set(id, session);
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
      const m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && m) {
        const s = sessions.get(m[1]!);
        return s ? send(200, s) : notFound('No such checkout session');
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
  return {
    requests,
    sessions,
    /**
     * A payer completes the session's page, as Stripe's hosted page would let them while it is
     * open there (whatever the shop decided meanwhile): the session is paid, and the webhook event
     * Stripe would send is returned for delivery. Throws for a session Stripe has closed.
     */
    pay: (sessionId: string) => {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`No such checkout session: ${sessionId}`);
      if (s.status !== 'open') throw new Error(`Stripe's page of ${sessionId} is ${String(s.status)}: it takes no payment`);
      s.status = 'complete';
      s.payment_status = 'paid';
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
