import { formatCents } from '../../shared/money.js';
import { escapeHtml } from '../lib/html.js';
import type { CardPageOrder } from './card-page-lines.js';

/**
 * The test card page's cards (docs/operations.md, "Test cards"), Stripe's own test numbers: the first
 * three pay now, and say what a renewal charged later with the customer away does (a card kept for
 * a subscription); the last is declined now.
 */
const TEST_CARDS = {
  success: '4242424242424242',
  /** Stripe's card that attaches to a customer but whose later charges fail. */
  renewalsDeclined: '4000000000000341',
  /** Stripe's card that asks for 3-D Secure on every payment, off-session ones too. */
  renewalsAuthenticate: '4000002760003184',
  declined: '4000000000000002',
} as const;

/** What a card kept for renewals does when charged with the customer away (test_payment_methods.behaviour). */
export type TestCardBehaviour = 'succeed' | 'decline' | 'authenticate';

const RENEWALS: Record<string, TestCardBehaviour> = {
  [TEST_CARDS.success]: 'succeed',
  [TEST_CARDS.renewalsDeclined]: 'decline',
  [TEST_CARDS.renewalsAuthenticate]: 'authenticate',
};

const digitsOf = (cardNumber: string | undefined) => (cardNumber ?? '').replace(/[\s-]/g, '');

/**
 * What a card that paid now does at a renewal, and what may be kept of it: a behaviour, the brand and
 * the last four digits (never the number). Null for a card the page does not take.
 */
export function keptTestCard(cardNumber: string | undefined): { behaviour: TestCardBehaviour; brand: string; last4: string } | null {
  const digits = digitsOf(cardNumber);
  const behaviour = RENEWALS[digits];
  return behaviour ? { behaviour, brand: 'Visa', last4: digits.slice(-4) } : null;
}

export const CARD_MESSAGES = {
  declined: 'Your card was declined.',
  number: 'Your card number is incomplete or not a test card. Use 4242 4242 4242 4242.',
  expiry: "Your card's expiration date is incomplete or in the past.",
  cvc: "Your card's security code is incomplete.",
  name: 'Please enter the name on the card.',
  expired: 'This payment page has expired. Return to the shop and check out again.',
  /** Back (or a reload) on the card page of an order paid since: said as a fact, with the way to the order. */
  paid: 'This order is already paid.',
  viewOrder: 'View your order',
  /** The heading of the order's lines above the card form. */
  linesTitle: 'Your order',
  /** Under the card fields when the order has subscription lines: the card is kept for the renewals. */
  keptForRenewals: "This card will be kept for your subscription's renewals (test mode: no card number is stored).",
  /** A payment link the shop sent (an order it typed in), paid: there is no checkout to return to. */
  linkPaid: (amount: string, orderNumber: string) =>
    `Thank you: your payment of ${amount} for order #${orderNumber} has been received. A confirmation e-mail is on its way.`,
  /** The test cards, under the form: for an order with subscription lines, what each does at a renewal too. */
  hint: 'Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined. Any future expiry, any CVC.',
  hintKept:
    'Test cards (each pays now): 4242 4242 4242 4242, renewals succeed; 4000 0000 0000 0341, renewals are declined; 4000 0027 6000 3184, renewals need you to confirm them. 4000 0000 0000 0002 is declined now. Any future expiry, any CVC.',
  /** Back from Stripe's page before its word (the webhook) reached the shop. */
  linkConfirming: (orderNumber: string) =>
    `Thank you: your payment for order #${orderNumber} is being confirmed. A confirmation e-mail is on its way.`,
} as const;

export type CardInput = { cardNumber?: string; expiry?: string; cvc?: string; name?: string };

/** Checks the test card form the way a hosted card page would, before any charge. */
export function cardProblem(input: CardInput, now = new Date()): string | null {
  const digits = digitsOf(input.cardNumber);
  if (!RENEWALS[digits] && digits !== TEST_CARDS.declined) return CARD_MESSAGES.number;
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/.exec(input.expiry ?? '');
  if (!m) return CARD_MESSAGES.expiry;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  if (month < 1 || month > 12 || new Date(Date.UTC(year, month, 1)) <= now) return CARD_MESSAGES.expiry;
  if (!/^\d{3,4}$/.test((input.cvc ?? '').trim())) return CARD_MESSAGES.cvc;
  if (!(input.name ?? '').trim()) return CARD_MESSAGES.name;
  if (digits === TEST_CARDS.declined) return CARD_MESSAGES.declined;
  return null;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f6f5;color:#1c2620}
.banner{background:#b45309;color:#fff;text-align:center;font-weight:700;padding:8px;letter-spacing:.05em}
main{max-width:440px;margin:32px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:24px}
h1{font-size:1.25rem;margin:0 0 4px}.amount{font-size:2rem;font-weight:700;margin:8px 0 20px}
label{display:block;font-size:.875rem;font-weight:600;margin:14px 0 6px}
input{width:100%;padding:10px 12px;border:1px solid #8a968f;border-radius:8px;font-size:1rem}
input:focus{outline:2px solid #2f7d4a;outline-offset:1px}
.row{display:flex;gap:12px}.row>div{flex:1}
button{margin-top:20px;width:100%;padding:12px;border:0;border-radius:8px;background:#2f7d4a;color:#fff;font-size:1rem;font-weight:700;cursor:pointer}
button:hover{background:#24633a}.done{background:#e7f4ec;color:#1c4a2c;border-radius:8px;padding:10px 12px;margin-bottom:12px}.error{background:#fdecea;color:#8a1c12;border-radius:8px;padding:10px 12px;margin-bottom:12px}
.cancel{display:block;text-align:center;margin-top:16px;color:#1c2620}
button.cancel{width:100%;margin-top:12px;padding:10px;background:transparent;border:0;text-decoration:underline;font-size:1rem;font-weight:400;cursor:pointer}
button.cancel:hover{background:transparent;color:#000}.hint{font-size:.8rem;color:#4b5a52;margin-top:16px}
.kept{font-size:.85rem;background:#eef3f0;color:#1c2620;border-radius:8px;padding:8px 12px;margin:14px 0 0}
.lines{margin:0 0 20px;border-top:1px solid #e3e8e5}.lines h2{font-size:.875rem;text-transform:uppercase;letter-spacing:.04em;color:#4b5a52;margin:14px 0 6px}
.lines ul{list-style:none;margin:0;padding:0}.lines li{display:flex;justify-content:space-between;gap:12px;padding:8px 0;border-bottom:1px solid #eef1ef}
.lines .name{font-weight:600}.lines .opts{display:block;font-size:.85rem;color:#4b5a52}.lines .price{white-space:nowrap;font-weight:600}
.lines dl{margin:8px 0 0;display:grid;grid-template-columns:1fr auto;gap:4px 12px;font-size:.9rem}.lines dd{margin:0;text-align:right}
.lines .total{font-weight:700;font-size:1rem}
.view{display:block;text-align:center;margin-top:4px;padding:12px;border-radius:8px;background:#2f7d4a;color:#fff;font-weight:700;text-decoration:none}
`;

/** The order's lines and sums, above the form: what the payer pays for. */
function linesHtml(order: CardPageOrder, amountCents: number): string {
  const items = order.lines
    .map(
      (l) =>
        `<li><span><span class="name">${escapeHtml(l.title)}</span>${l.options ? `<span class="opts">${escapeHtml(l.options)}</span>` : ''}<span class="opts">Qty: ${l.quantity}</span></span><span class="price">${l.isFreeGift ? 'FREE' : escapeHtml(formatCents(l.lineTotalCents))}</span></li>`,
    )
    .join('');
  const row = (label: string, cents: number, cls = '') =>
    `<dt class="${cls}">${label}</dt><dd class="${cls}">${escapeHtml(formatCents(cents))}</dd>`;
  return `<section class="lines" aria-labelledby="lines-title"><h2 id="lines-title">${CARD_MESSAGES.linesTitle}</h2><ul>${items}</ul><dl>
${row('Subtotal', order.subtotalCents)}${order.discountCents > 0 ? row('Discount', -order.discountCents) : ''}${row('Shipping', order.shippingCents)}${row('Tax', order.taxCents)}${row('Total', amountCents, 'total')}</dl></section>`;
}

export function renderTestCheckoutPage(opts: {
  sessionId: string;
  amountCents: number;
  email: string | null;
  error?: string | null;
  values?: CardInput;
  closed?: string | null;
  /** Paid just now: a thank-you instead of the form. */
  done?: string | null;
  /** The order's lines and sums, shown above the form. */
  order?: CardPageOrder | null;
  /** Paid already (Back after paying): said without alarm, with this link to the order (null: none to give). */
  alreadyPaidLink?: string | null;
}): string {
  const amount = formatCents(opts.amountCents);
  const v = opts.values ?? {};
  const field = (name: keyof CardInput, label: string, attrs: string) =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" ${attrs} value="${escapeHtml(name === 'cvc' || name === 'cardNumber' ? '' : (v[name] ?? ''))}" required>`;
  const body = opts.done
    ? `<p class="done" role="status">${escapeHtml(opts.done)}</p><a class="cancel" href="/">Return to the shop</a>`
    : opts.alreadyPaidLink !== undefined
      ? `<p class="done" role="status">${escapeHtml(CARD_MESSAGES.paid)}</p>${
          opts.alreadyPaidLink ? `<a class="view" href="${escapeHtml(opts.alreadyPaidLink)}">${CARD_MESSAGES.viewOrder}</a>` : ''
        }<a class="cancel" href="/">Return to the shop</a>`
      : opts.closed
        ? `<p class="error" role="alert">${escapeHtml(opts.closed)}</p><a class="cancel" href="/">Return to the shop</a>`
        : `${opts.order ? linesHtml(opts.order, opts.amountCents) : ''}${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
      <form method="post" action="/pay/${encodeURIComponent(opts.sessionId)}" novalidate>
        ${field('cardNumber', 'Card number', 'inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"')}
        <div class="row"><div>${field('expiry', 'Expiry', 'autocomplete="cc-exp" placeholder="MM / YY"')}</div>
        <div>${field('cvc', 'CVC', 'inputmode="numeric" autocomplete="cc-csc" placeholder="123"')}</div></div>
        ${field('name', 'Name on card', 'autocomplete="cc-name"')}
        ${opts.order?.keepsMethod ? `<p class="kept">${escapeHtml(CARD_MESSAGES.keptForRenewals)}</p>` : ''}
        <button type="submit">Pay ${escapeHtml(amount)}</button>
      </form>
      <form method="post" action="/pay/${encodeURIComponent(opts.sessionId)}/cancel"><button type="submit" class="cancel">Cancel</button></form>
      <p class="hint">${escapeHtml(opts.order?.keepsMethod ? CARD_MESSAGES.hintKept : CARD_MESSAGES.hint)}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><link rel="icon" type="image/svg+xml" href="/favicon.svg"><title>Pay ${escapeHtml(amount)} | EcoClean (test mode)</title><style>${STYLE}</style></head>
<body><div class="banner">TEST MODE</div><main><div class="card"><h1>EcoClean</h1>
${opts.email ? `<p>${escapeHtml(opts.email)}</p>` : ''}<p class="amount">${escapeHtml(amount)}</p>${body}</div></main></body></html>`;
}

/** The card page in setup mode ([5/8], a subscription's new card): its words. */
export const SETUP_PAGE_TEXTS = {
  title: 'Save card',
  button: 'Save card',
  /** Under the form: nothing is charged. */
  note: "Nothing is charged now: this card is kept for your subscription's next deliveries (test mode: no card number is stored).",
  hint: 'Test cards: 4242 4242 4242 4242, renewals succeed; 4000 0000 0000 0341, renewals are declined; 4000 0027 6000 3184, renewals need you to confirm them. 4000 0000 0000 0002 is declined now. Any future expiry, any CVC.',
  back: 'Back to your subscription',
} as const;

/**
 * The test card page in setup mode: the same card form, without a total (nothing is charged),
 * saying "Save card"; closed (used, run out, left) it says why, with the way back.
 */
export function renderTestSetupPage(opts: {
  setupId: string;
  email: string | null;
  /** The subscription's terms ("Every 4 weeks · 10% off"). */
  terms: string | null;
  error?: string | null;
  values?: CardInput;
  closed?: string | null;
  /** Where Back (and a closed page) leads. */
  backHref: string;
}): string {
  const v = opts.values ?? {};
  const id = encodeURIComponent(opts.setupId);
  const field = (name: keyof CardInput, label: string, attrs: string) =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" ${attrs} value="${escapeHtml(name === 'cvc' || name === 'cardNumber' ? '' : (v[name] ?? ''))}" required>`;
  const body = opts.closed
    ? `<p class="error" role="alert">${escapeHtml(opts.closed)}</p><a class="view" href="${escapeHtml(opts.backHref)}">${SETUP_PAGE_TEXTS.back}</a>`
    : `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
      <form method="post" action="/pay/setup/${id}" novalidate>
        ${field('cardNumber', 'Card number', 'inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"')}
        <div class="row"><div>${field('expiry', 'Expiry', 'autocomplete="cc-exp" placeholder="MM / YY"')}</div>
        <div>${field('cvc', 'CVC', 'inputmode="numeric" autocomplete="cc-csc" placeholder="123"')}</div></div>
        ${field('name', 'Name on card', 'autocomplete="cc-name"')}
        <p class="kept">${escapeHtml(SETUP_PAGE_TEXTS.note)}</p>
        <button type="submit">${SETUP_PAGE_TEXTS.button}</button>
      </form>
      <form method="post" action="/pay/setup/${id}/cancel"><button type="submit" class="cancel">Cancel</button></form>
      <p class="hint">${escapeHtml(SETUP_PAGE_TEXTS.hint)}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><link rel="icon" type="image/svg+xml" href="/favicon.svg"><title>${SETUP_PAGE_TEXTS.title} | EcoClean (test mode)</title><style>${STYLE}</style></head>
<body><div class="banner">TEST MODE</div><main><div class="card"><h1>EcoClean</h1>
${opts.email ? `<p>${escapeHtml(opts.email)}</p>` : ''}<p class="amount">${SETUP_PAGE_TEXTS.title}</p>${
    opts.terms ? `<p class="kept">For your subscription: ${escapeHtml(opts.terms)}</p>` : ''
  }${body}</div></main></body></html>`;
}
