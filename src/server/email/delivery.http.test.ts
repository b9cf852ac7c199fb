import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from '../test/harness.js';
import { queueEmail } from './outbox.js';
import { backoffMs, deliverDueEmails, smtpTransport } from './delivery.js';
import { freePort } from '../test/free-port.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(async () => {
  await t?.close();
});

describe('e-mail delivery through SMTP', () => {
  it('keeps the row after a refused connection, retries with backoff, then delivers it once', async () => {
    const port = await freePort();
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
    const queued = await queueEmail(t.db, {
      to: 'buyer@example.com',
      templateId: 'welcome',
      variables: { customerName: 'Ann <b>Bold</b>', shopUrl: 'http://shop.test' },
    });

    // Nothing listens yet: the attempt fails and the row waits for its retry.
    const first = await deliverDueEmails(t.db, transport, 'shop@example.com');
    expect(first).toEqual({ sent: 0, failed: 1 });
    let row = await t.db.selectFrom('email_outbox').selectAll().where('id', '=', queued.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(Date.now() + backoffMs(1) - 5000);

    // Not due yet: nothing happens.
    expect(await deliverDueEmails(t.db, transport, 'shop@example.com')).toEqual({ sent: 0, failed: 0 });

    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, cb) {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => {
          received.push(data);
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    try {
      const later = () => new Date(Date.now() + backoffMs(1) + 1000);
      const second = await deliverDueEmails(t.db, transport, 'shop@example.com', { now: later });
      expect(second).toEqual({ sent: 1, failed: 0 });
      row = await t.db.selectFrom('email_outbox').selectAll().where('id', '=', queued.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      expect(row.attempts).toBe(2);
      expect(row.sent_at).toBeTruthy();
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('To: buyer@example.com');
      expect(received[0]).toContain(`Subject: ${queued.subject}`);
      // The customer's name was escaped in the HTML body.
      expect(received[0]).toContain('&lt;b&gt;Bold&lt;/b&gt;');
      // A sent row is never sent again.
      expect(await deliverDueEmails(t.db, transport, 'shop@example.com', { now: later })).toEqual({ sent: 0, failed: 0 });
      expect(received).toHaveLength(1);
    } finally {
      transport.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('lets only one of several workers claim a row', async () => {
    const port = await freePort();
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _s, cb) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          received.push('x');
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    const transports = [1, 2, 3].map(() => smtpTransport(`smtp://127.0.0.1:${port}`));
    try {
      await t.db.deleteFrom('email_outbox').execute();
      for (let i = 0; i < 5; i++) {
        await queueEmail(t.db, { to: `p${i}@example.com`, templateId: 'welcome', variables: { customerName: 'P', shopUrl: 'x' } });
      }
      const results = await Promise.all(transports.map((tr) => deliverDueEmails(t.db, tr, 'shop@example.com')));
      expect(results.reduce((s, r) => s + r.sent, 0)).toBe(5);
      expect(received).toHaveLength(5);
    } finally {
      transports.forEach((tr) => tr.close());
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('sends a run of e-mails over one kept connection, and opens a new one once the server closed it', async () => {
    const port = await freePort();
    let connections = 0;
    let received = 0;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onConnect(_session, cb) {
        connections++;
        cb();
      },
      onData(stream, _s, cb) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          received++;
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
    const queue = async (n: number) => {
      for (let i = 0; i < n; i++)
        await queueEmail(t.db, { to: `run${i}@example.com`, templateId: 'welcome', variables: { customerName: 'R', shopUrl: 'x' } });
    };
    try {
      await t.db.deleteFrom('email_outbox').execute();
      await queue(12);
      const started = performance.now();
      expect(await deliverDueEmails(t.db, transport, 'shop@example.com')).toEqual({ sent: 12, failed: 0 });
      const msEach = (performance.now() - started) / 12;
      expect([received, connections]).toEqual([12, 1]);
      // A connection each cost some 100 ms an e-mail on this machine; kept, a few ms.
      expect(msEach).toBeLessThan(50);

      // The mail server ends its connections (a restart, an idle timeout): the next e-mails go out on a new one.
      for (const c of (server as unknown as { connections: Set<{ close(): void }> }).connections) c.close();
      await new Promise((r) => setTimeout(r, 100));
      await queue(3);
      expect(await deliverDueEmails(t.db, transport, 'shop@example.com')).toEqual({ sent: 3, failed: 0 });
      expect(received).toBe(15);
      expect(connections).toBe(2);
    } finally {
      transport.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
