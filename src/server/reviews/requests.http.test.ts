import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { freePort } from '../test/free-port.js';
import { insertReview, makePaidOrder } from '../test/reviews.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { hashToken } from '../lib/tokens.js';
import { deliverDueEmails, smtpTransport, type MailTransport } from '../email/delivery.js';
import { REVIEW_LIMITS, REVIEW_MESSAGES } from '../../shared/reviews.js';
import { requestReviewsForOrder, runReviewRequests, startReviewRequestsWorker, type ReviewRequestDeps } from './requests.js';

/**
 * Issue [6/8] item 3, the request e-mail: N days after an order ships (the owner's setting), once
 * per order however many processes run the pass, a link per product (60 days), never for a
 * cancelled or fully refunded order nor to an address that opted out; the opt-out link works, a
 * forged one does not, and the delivered e-mail carries the one-click List-Unsubscribe headers.
 */
const DAY = 86_400_000;
let t: TestApp;
let admin: TestClient;
let deps: ReviewRequestDeps;
let smtp: SMTPServer;
let transport: MailTransport;
const received: { to: string[]; data: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.66.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  deps = { db: t.db, dialect: t.dialect, publicUrl: t.config.publicUrl, log: { error: () => undefined } };
  const port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', () => r()));
  transport = smtpTransport(`smtp://127.0.0.1:${port}`);
});
afterAll(async () => {
  transport?.close();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  await t?.close();
});

const ago = (now: Date, days: number) => new Date(now.getTime() - days * DAY);
const mails = (to: string) =>
  t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', to).where('template_id', '=', 'review-request').execute();
const requestOf = (orderId: string) => t.db.selectFrom('review_requests').selectAll().where('order_id', '=', orderId).execute();
const linksOf = (orderId: string) => t.db.selectFrom('review_links').selectAll().where('order_id', '=', orderId).execute();
const product = (name: string, o: Parameters<typeof createProduct>[1] = {}) => createProduct(t.db, { name, priceCents: 1200, ...o });

/** "Write a review: <url>" lines of the plain text, each with the product line above it. */
function reviewLinksIn(text: string): { product: string; token: string }[] {
  const lines = text.split('\n');
  const out: { product: string; token: string }[] = [];
  lines.forEach((line, i) => {
    const m = /^Write a review: http:\/\/shop\.test\/review\/([A-Za-z0-9_-]{43})$/.exec(line);
    if (m) out.push({ product: lines[i - 1]!, token: m[1]! });
  });
  return out;
}

const optOutTokenIn = (text: string) => /reviews\/opt-out\?token=([^\s]+)/.exec(text)?.[1];

describe(`review request e-mails on ${testDialect()}`, () => {
  it('go once per order, however many passes run at once: one row, one e-mail, one link per product valid 60 days, each to its product', async () => {
    const now = new Date();
    const cleaner = await product('All-Purpose Cleaner', {
      images: ['/uploads/products/cleaner.jpg'],
      options: [
        { name: 'Scent', values: ['Lavender', 'Lemon'] },
        { name: 'Size', values: ['32 oz'] },
      ],
      variants: [
        { options: ['Lavender', '32 oz'], priceCents: 1200, inventory: 5 },
        { options: ['Lemon', '32 oz'], priceCents: 1200, inventory: 5 },
      ],
    });
    const cloth = await product('Bamboo Cloth');
    const email = 'Quinn.Buyer@Example.com';
    const { orderId, orderNumber } = await makePaidOrder(t, {
      email,
      name: 'Quinn Buyer',
      productId: cleaner.id,
      moreProductIds: [cloth.id, cloth.id],
      shipped: ago(now, 11),
    });

    // Five processes' passes at once, and twenty decisions of the same order at once.
    const passes = await Promise.all(Array.from({ length: 5 }, () => runReviewRequests(deps, now)));
    expect(passes.reduce((n, p) => n + p.sent, 0)).toBe(1);
    const again = await Promise.all(Array.from({ length: 20 }, () => requestReviewsForOrder(deps, orderId, now)));
    expect(again.every((o) => o === 'taken')).toBe(true);
    expect((await runReviewRequests(deps, new Date(now.getTime() + DAY))).sent).toBe(0);

    const [request, ...more] = await requestOf(orderId);
    expect(more).toEqual([]);
    expect(request).toMatchObject({ status: 'sent', skip_reason: null, email: 'quinn.buyer@example.com', first_review_at: null });
    const sent = await mails('quinn.buyer@example.com');
    expect(sent).toHaveLength(1);
    const mail = sent[0]!;
    expect(mail.subject).toBe(`How are you getting on with order #${orderNumber}?`);
    expect(mail.order_id).toBe(orderId);

    const links = await linksOf(orderId);
    expect(links.map((l) => l.product_id).sort()).toEqual([cleaner.id, cloth.id].sort());
    for (const l of links) {
      expect(l.request_id).toBe(request!.id);
      expect(l.expires_at).toBe(new Date(now.getTime() + REVIEW_LIMITS.linkDays * DAY).toISOString());
      expect(l.used_at).toBeNull();
    }
    expect(links.find((l) => l.product_id === cleaner.id)!.variant_label).toBe('Lavender, 32 oz');

    // The text's links: each under its product's line, each the token of that product's link row.
    const inText = reviewLinksIn(mail.text!);
    expect(inText).toHaveLength(2);
    for (const { product: line, token } of inText) {
      const row = links.find((l) => l.token_hash === hashToken(token));
      expect(row, line).toBeDefined();
      expect(line).toBe(row!.product_id === cleaner.id ? 'All-Purpose Cleaner (bought: Lavender, 32 oz)' : 'Bamboo Cloth');
    }
    // The HTML: the same links behind "Write a review", the pictures as absolute addresses, the opt-out link.
    for (const { token } of inText) expect(mail.html).toContain(`href="http://shop.test/review/${token}"`);
    expect(mail.html).toContain('src="http://shop.test/uploads/products/cleaner-w320.jpg"');
    expect(mail.html).toContain('src="http://shop.test/images/placeholder.svg"');
    expect(mail.html).toContain('Bought: Lavender, 32 oz');
    expect(mail.text).toContain('Hi Quinn,');
    expect(optOutTokenIn(mail.text!)).toBeDefined();
    expect(mail.list_unsubscribe).toMatch(/^http:\/\/shop\.test\/api\/reviews\/opt-out\/revreq_[a-z0-9]+\.[A-Za-z0-9_-]{43}$/);

    // The order's timeline notes the e-mail.
    const events = await t.db.selectFrom('order_events').select(['type', 'data']).where('order_id', '=', orderId).execute();
    expect(events.filter((e) => e.type === 'email.queued' && e.data.includes('review-request'))).toHaveLength(1);
  });

  it('are never sent for a cancelled or fully refunded order, nor to an opted-out address; a partly refunded one is asked', async () => {
    const now = new Date();
    const p = await product('Dish Brush');
    const shipped = ago(now, 12);
    const cancelled = await makePaidOrder(t, { email: 'c.ancel@example.com', productId: p.id, shipped, cancelled: true });
    const refunded = await makePaidOrder(t, { email: 'r.efund@example.com', productId: p.id, shipped, refundedCents: 2500 });
    const partly = await makePaidOrder(t, { email: 'p.artly@example.com', productId: p.id, shipped, refundedCents: 1000 });
    const unpaid = await makePaidOrder(t, { email: 'u.npaid@example.com', productId: p.id, shipped, paid: false });
    await t.db
      .insertInto('email_opt_outs')
      .values({ email: 'o.pted@example.com', kind: 'review-requests', created_at: now.toISOString() })
      .execute();
    const opted = await makePaidOrder(t, { email: 'O.Pted@Example.COM', productId: p.id, shipped });

    await runReviewRequests(deps, now);
    expect(await requestOf(cancelled.orderId)).toMatchObject([{ status: 'skipped', skip_reason: 'cancelled' }]);
    expect(await requestOf(refunded.orderId)).toMatchObject([{ status: 'skipped', skip_reason: 'refunded' }]);
    expect(await requestOf(opted.orderId)).toMatchObject([{ status: 'skipped', skip_reason: 'opted-out' }]);
    expect(await requestOf(partly.orderId)).toMatchObject([{ status: 'sent' }]);
    // An order not paid for is not decided at all (it is asked about once it is paid, while in the window).
    expect(await requestOf(unpaid.orderId)).toEqual([]);
    for (const o of [cancelled, refunded, opted]) expect(await linksOf(o.orderId)).toEqual([]);
    for (const to of ['c.ancel@example.com', 'r.efund@example.com', 'o.pted@example.com', 'u.npaid@example.com'])
      expect(await mails(to), to).toEqual([]);
    expect(await mails('p.artly@example.com')).toHaveLength(1);
  });

  it('wait the owner’s number of days after shipping (default 10), follow a change of it, and never mail orders from before the last 30 days of the window', async () => {
    const now = new Date();
    const p = await product('Glass Spray');
    const nine = await makePaidOrder(t, { email: 'nine.days@example.com', productId: p.id, shipped: ago(now, 9) });
    const old = await makePaidOrder(t, { email: 'old.order@example.com', productId: p.id, shipped: ago(now, 10 + 31) });
    await runReviewRequests(deps, now);
    expect(await requestOf(nine.orderId)).toEqual([]);
    // A day later it is ten days: sent.
    await runReviewRequests(deps, new Date(now.getTime() + DAY + 60_000));
    expect(await requestOf(nine.orderId)).toMatchObject([{ status: 'sent' }]);
    expect(await requestOf(old.orderId)).toEqual([]);

    // Three days, set in the back office: an order shipped four days ago goes now, one shipped two days ago does not.
    const saved = await admin.request('PUT', '/api/admin/review-settings', { requestAfterDays: 3 });
    expect(saved.statusCode, saved.body).toBe(200);
    const four = await makePaidOrder(t, { email: 'four.days@example.com', productId: p.id, shipped: ago(now, 4) });
    const two = await makePaidOrder(t, { email: 'two.days@example.com', productId: p.id, shipped: ago(now, 2) });
    await runReviewRequests(deps, now);
    expect(await requestOf(four.orderId)).toMatchObject([{ status: 'sent' }]);
    expect(await requestOf(two.orderId)).toEqual([]);
    expect((await admin.request('PUT', '/api/admin/review-settings', { requestAfterDays: 10 })).statusCode).toBe(200);
  });

  it('leave out products the customer already reviewed; an order with nothing left is skipped', async () => {
    const now = new Date();
    const user = await createUser(t.db, { fullName: 'Rae Reviewer' });
    const mop = await product('Spin Mop');
    const pads = await product('Mop Pads');
    await insertReview(t, { productId: mop.id, rating: 5, userId: user.id });
    const both = await makePaidOrder(t, { userId: user.id, productId: mop.id, moreProductIds: [pads.id], shipped: ago(now, 11) });
    const onlyMop = await makePaidOrder(t, { userId: user.id, productId: mop.id, shipped: ago(now, 11) });
    await runReviewRequests(deps, now);
    expect((await linksOf(both.orderId)).map((l) => l.product_id)).toEqual([pads.id]);
    expect(await requestOf(onlyMop.orderId)).toMatchObject([{ status: 'skipped', skip_reason: 'nothing-to-review' }]);
    const [mail, ...rest] = await mails(user.email);
    expect(rest).toEqual([]);
    expect(reviewLinksIn(mail!.text!).map((l) => l.product)).toEqual(['Mop Pads']);
    expect(mail!.text).toContain('Hi Rae,');
  });
});

describe(`opting out of review requests on ${testDialect()}`, () => {
  it('refuses a bad or forged token (404, nothing stored); the e-mail’s token works, once or twice, and stops the next request', async () => {
    const now = new Date();
    const p = await product('Laundry Strips');
    const first = await makePaidOrder(t, { email: 'sam.optout@example.com', productId: p.id, shipped: ago(now, 11) });
    const other = await makePaidOrder(t, { email: 'someone.else@example.com', productId: p.id, shipped: ago(now, 11) });
    await runReviewRequests(deps, now);
    const token = decodeURIComponent(optOutTokenIn((await mails('sam.optout@example.com'))[0]!.text!)!);
    const otherToken = decodeURIComponent(optOutTokenIn((await mails('someone.else@example.com'))[0]!.text!)!);
    const [requestId, mac] = token.split('.') as [string, string];
    const [otherRequestId] = otherToken.split('.') as [string];

    const stranger = new TestClient(t.app, '10.66.9.9');
    const flipped = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    for (const bad of [
      'garbage',
      `${requestId}.${flipped}`,
      // Sam's MAC on someone else's request: opts nobody out.
      `${otherRequestId}.${mac}`,
      `${requestId}`,
      `${requestId}.${mac}x`,
      'x'.repeat(190),
    ]) {
      const url = `/api/reviews/opt-out/${encodeURIComponent(bad)}`;
      for (const res of [await stranger.get(url), await stranger.post(url)]) {
        expect(res.statusCode, bad).toBe(404);
        expect(res.json().error).toBe(REVIEW_MESSAGES.linkUnknown);
      }
    }
    // Longer than any route parameter: refused before any route.
    expect((await stranger.post(`/api/reviews/opt-out/${'x'.repeat(300)}`)).statusCode).toBe(414);
    const optOuts = () =>
      t.db
        .selectFrom('email_opt_outs')
        .select(['email', 'kind'])
        .where('email', 'in', ['sam.optout@example.com', 'someone.else@example.com'])
        .execute();
    expect(await optOuts()).toEqual([]);
    // Reading the link (a mail scanner following it) changes nothing.
    const read = await stranger.get(`/api/reviews/opt-out/${token}`);
    expect(read.json()).toEqual({ message: REVIEW_MESSAGES.optOutOpen });
    expect(await optOuts()).toEqual([]);

    // The mail app's one-click POST (RFC 8058): no cookie, no Origin, a form body. Then the page's GET: the same answer.
    const oneClick = await t.app.inject({
      method: 'POST',
      url: `/api/reviews/opt-out/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.json()).toEqual({ message: REVIEW_MESSAGES.optedOut });
    expect(oneClick.headers['cache-control']).toBe('no-store');
    const viaPage = await stranger.post(`/api/reviews/opt-out/${encodeURIComponent(token)}`);
    expect(viaPage.json()).toEqual({ message: REVIEW_MESSAGES.optedOut });
    expect((await stranger.get(`/api/reviews/opt-out/${token}`)).json()).toEqual({ message: REVIEW_MESSAGES.optedOut });
    expect(await optOuts()).toEqual([{ email: 'sam.optout@example.com', kind: 'review-requests' }]);

    // Sam's next order is not asked about; the other customer's still is.
    const second = await makePaidOrder(t, { email: 'SAM.OPTOUT@example.com', productId: p.id, shipped: ago(now, 11) });
    const third = await makePaidOrder(t, { email: 'someone.else@example.com', productId: p.id, shipped: ago(now, 11) });
    await runReviewRequests(deps, now);
    expect(await requestOf(second.orderId)).toMatchObject([{ status: 'skipped', skip_reason: 'opted-out' }]);
    expect(await requestOf(third.orderId)).toMatchObject([{ status: 'sent' }]);
    expect(await mails('sam.optout@example.com')).toHaveLength(1);
    expect(first.orderId).not.toBe(other.orderId);
  });

  it('carries List-Unsubscribe and List-Unsubscribe-Post on the delivered e-mail, and its address opts out', async () => {
    const now = new Date();
    const p = await product('Wool Dryer Balls');
    await makePaidOrder(t, { email: 'wire.check@example.com', productId: p.id, shipped: ago(now, 11) });
    await runReviewRequests(deps, now);
    received.length = 0;
    expect((await deliverDueEmails(t.db, transport, 'no-reply@shop.test')).failed).toBe(0);
    const data = received.find((m) => m.to.includes('wire.check@example.com'))?.data;
    expect(data, 'nothing delivered').toBeDefined();
    const headers = data!.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    const unsubscribe = /^List-Unsubscribe: <(http:\/\/shop\.test\/api\/reviews\/opt-out\/[^>]+)>$/im.exec(headers)?.[1];
    expect(unsubscribe).toBeDefined();
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
    const res = await t.app.inject({
      method: 'POST',
      url: unsubscribe!.replace('http://shop.test', ''),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.db.selectFrom('email_opt_outs').select('email').where('email', '=', 'wire.check@example.com').execute()).toHaveLength(1);
    // Another e-mail of the shop carries no such header.
    expect(
      await t.db
        .selectFrom('email_outbox')
        .select('id')
        .where('template_id', '!=', 'review-request')
        .where('list_unsubscribe', 'is not', null)
        .execute(),
    ).toEqual([]);
  });
});

describe(`the request pass on its schedule on ${testDialect()}`, () => {
  it('runs on its own timer with the clock it is given, and stops', async () => {
    const p = await product('Refill Pouch');
    // Its clock is 20 days ahead: an order shipped 9 days ago is then 29 days old.
    const clock = () => new Date(Date.now() + 20 * DAY);
    const { orderId } = await makePaidOrder(t, { email: 'timer.check@example.com', productId: p.id, shipped: ago(new Date(), 9) });
    const worker = startReviewRequestsWorker(deps, { intervalMs: 50, clock });
    try {
      for (let i = 0; i < 100 && (await requestOf(orderId)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
    }
    expect(await requestOf(orderId)).toMatchObject([{ status: 'sent' }]);
  });

  it('the template is a built-in one the owner can preview and edit; the edit is what goes next', async () => {
    const preview = await admin.get('/api/admin/email-templates/review-request/preview');
    expect(preview.statusCode, preview.body).toBe(200);
    expect(JSON.stringify(preview.json())).not.toContain('{{');
    const list = (await admin.get('/api/admin/email-templates')).json().items as { id: string; builtIn: boolean; variables: string[] }[];
    expect(list.find((x) => x.id === 'review-request')).toMatchObject({
      builtIn: true,
      variables: ['customerName', 'orderNumber', 'products', 'optOutUrl'],
    });
    const builtIn = list.find((x) => x.id === 'review-request') as unknown as { name: string; html: string; text: string };
    const tpl = {
      id: 'review-request',
      name: builtIn.name,
      html: builtIn.html,
      text: builtIn.text,
      variables: ['customerName', 'orderNumber', 'products', 'optOutUrl'],
    };
    const saved = await admin.post('/api/admin/email-templates', { ...tpl, subject: 'Tell us about #{{orderNumber}}' });
    expect(saved.statusCode, saved.body).toBe(200);
    // A name the request never sends is refused.
    const typo = await admin.post('/api/admin/email-templates', { ...tpl, subject: 'Hi {{customername}}' });
    expect(typo.statusCode).toBe(400);
    const p = await product('Toilet Tabs');
    const { orderNumber } = await makePaidOrder(t, { email: 'edited.template@example.com', productId: p.id, shipped: ago(new Date(), 11) });
    await runReviewRequests(deps, new Date());
    expect((await mails('edited.template@example.com'))[0]!.subject).toBe(`Tell us about #${orderNumber}`);
  });
});
