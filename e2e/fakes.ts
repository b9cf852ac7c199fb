import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { fakeShipStation } from '../src/server/test/fake-shipstation.js';

export type ReceivedMail = { to: string[]; subject: string; raw: string };
export type ReceivedHook = { body: Record<string, unknown>; at: string };

function listen(server: http.Server | SMTPServer): Promise<number> {
  return new Promise((resolve) => {
    (server as http.Server).listen(0, '127.0.0.1', () => {
      const addr = (server as unknown as { server?: http.Server }).server?.address() ?? (server as http.Server).address();
      resolve((addr as AddressInfo).port);
    });
  });
}

/**
 * The outside world for the browser journeys, all on loopback: an SMTP server that keeps every
 * message, the contact form's workflow endpoint (which can be taken down and brought back),
 * and ShipStation. A small control API lets the tests read and steer them.
 */
/** A header as a mail reader shows it: folded lines joined, RFC 2047 encoded words ("=?UTF-8?Q?…?=", "=?UTF-8?B?…?=") decoded. */
function decodeHeader(value: string): string {
  return value
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}

export async function startFakes() {
  const mail: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const subject = decodeHeader(/^Subject: (.*(?:\r?\n[ \t].*)*)$/im.exec(raw)?.[1] ?? '');
        mail.push({ to: session.envelope.rcptTo.map((r) => r.address), subject, raw });
        cb();
      });
    },
  });
  const smtpPort = await listen(smtp);

  const shipstation = fakeShipStation();
  const hooks: ReceivedHook[] = [];
  let workflowUp = true;
  const control = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST' && req.url === '/workflow') {
        if (!workflowUp) return json(503, { error: 'down for maintenance' });
        hooks.push({ body: JSON.parse(raw || '{}') as Record<string, unknown>, at: new Date().toISOString() });
        return json(200, { ok: true });
      }
      if (req.method === 'POST' && req.url === '/workflow/down') return json(200, { up: (workflowUp = false) });
      if (req.method === 'POST' && req.url === '/workflow/up') return json(200, { up: (workflowUp = true) });
      if (req.method === 'GET' && req.url === '/workflow/received') return json(200, hooks);
      if (req.method === 'GET' && req.url === '/mail') return json(200, mail);
      if (req.method === 'GET' && req.url === '/shipstation/requests')
        return json(
          200,
          shipstation.requests.map((r) => ({ method: r.method, path: r.path, body: r.body })),
        );
      return json(404, { error: 'no such fake route' });
    });
  });
  const controlPort = await listen(control);
  const shipstationUrl = await shipstation.listen();

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    workflowUrl: `http://127.0.0.1:${controlPort}/workflow`,
    shipstationUrl,
    close: async () => {
      await new Promise<void>((r) => smtp.close(() => r()));
      await new Promise<void>((r) => control.close(() => r()));
      await shipstation.close();
    },
  };
}
