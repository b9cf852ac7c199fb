import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { placeCheckout } from '../test/checkout-orders.js';
import { createProduct } from '../db/seed/factories.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { freePort } from '../test/free-port.js';
import { deliverDueEmails, smtpTransport, type MailTransport } from './delivery.js';
import { queueEmail } from './outbox.js';

/**
 * Replies reach a person: the contact notice says "Reply to … to answer" and the customer's
 * e-mails "just reply to this e-mail", so the delivered message carries Reply-To: the visitor's
 * address on the notice, the shop's contact address (Settings → General) on a customer's e-mail.
 * Checked on the wire, at a local SMTP server, through nodemailer.
 */
const SHOP = 'owner@shop.test';
const FROM = 'no-reply@shop.test';

let t: TestApp;
let smtp: SMTPServer;
let transport: MailTransport;
const received: { to: string[]; data: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.db.updateTable('settings').set({ value: SHOP }).where('key', '=', 'contact_email').execute();
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

/** The delivered message's headers (before the first blank line), unfolded. */
const headersOf = (data: string) => data.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
const header = (data: string, name: string) =>
  headersOf(data)
    .split(/\r?\n/)
    .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    .map((line) => line.slice(name.length + 1).trim());

async function deliverTo(address: string) {
  received.length = 0;
  const result = await deliverDueEmails(t.db, transport, FROM);
  expect(result.failed).toBe(0);
  const mail = received.find((m) => m.to.includes(address));
  expect(mail, `nothing was delivered to ${address}`).toBeDefined();
  return mail!.data;
}

describe(`Reply-To on delivered e-mails on ${testDialect()}`, () => {
  it('sends the contact notice to the shop with Reply-To the visitor, and a forged address reaches no header', async () => {
    const visitor = new TestClient(t.app, '10.83.0.1');
    const res = await visitor.post('/api/contact', {
      name: 'Vera Visitor',
      email: 'vera.visitor@example.com',
      subject: 'Refill sizes',
      message: 'Do you sell the cleaner in a 5 litre refill?',
      elapsedMs: 6000,
    });
    expect(res.json()).toEqual({ ok: true });
    const notice = await deliverTo(SHOP);
    expect(header(notice, 'Subject').join(' ')).toContain('Refill sizes');
    expect(header(notice, 'Reply-To')).toEqual(['vera.visitor@example.com']);
    expect(header(notice, 'From')).toEqual([FROM]);

    // An address with a header tucked in after a line break is refused at the form: nothing is stored or sent.
    const forged = await visitor.post('/api/contact', {
      name: 'Mallory',
      email: 'mallory@example.com\r\nBcc: victim@example.com',
      subject: 'Hi',
      message: 'Hello there, a message long enough.',
      elapsedMs: 6000,
    });
    expect(forged.statusCode).toBe(400);
    expect(await t.db.selectFrom('contact_messages').select('id').where('name', '=', 'Mallory').execute()).toEqual([]);
  });

  it('sends the order confirmation to the customer with Reply-To the shop’s contact address', async () => {
    const p = await createProduct(t.db, { name: 'Reply Cloth', priceCents: 1100 });
    const { sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [{ productId: p.id, quantity: 1 }],
      email: 'cora.customer@example.com',
    });
    await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
    const confirmation = await deliverTo('cora.customer@example.com');
    expect(confirmation).toContain('Just reply to this e-mail');
    expect(header(confirmation, 'Reply-To')).toEqual([SHOP]);
  });

  it('never lets a stored reply address carry a second header or recipient onto the wire', async () => {
    const queued = await queueEmail(t.db, {
      to: 'someone@example.com',
      templateId: 'welcome',
      variables: { customerName: 'S', shopUrl: 'x' },
    });
    await t.db
      .updateTable('email_outbox')
      .set({ reply_to: 'a@example.com\r\nBcc: victim@example.com' })
      .where('id', '=', queued.id)
      .execute();
    const mail = await deliverTo('someone@example.com');
    expect(header(mail, 'Reply-To')).toEqual([]);
    expect(header(mail, 'Bcc')).toEqual([]);
    expect(received.flatMap((m) => m.to)).not.toContain('victim@example.com');
  });
});
