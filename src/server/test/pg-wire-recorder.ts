import net from 'node:net';

/*
 * A TCP proxy in front of PostgreSQL that records every protocol message going each way, for tests
 * that must know what reached the server (decision 0050): the text of every statement (`Q` simple
 * query, `P` parse), the values bound to them (`B`), and the server's answers (`E` errors, `Z`
 * ready for the next). Plain TCP only (the test databases use no SSL).
 */

export type WireMessage = {
  /** Order of arrival at the proxy, across both directions and all connections. */
  seq: number;
  from: 'shop' | 'server';
  /** The message type letter (`Q`, `P`, `B`, `E`, …); `startup` for the untyped first message. */
  type: string;
  body: Buffer;
};

export type WireRecorder = {
  /** Point the shop here: `postgres://user@127.0.0.1:<port>/db`. */
  port: number;
  messages: WireMessage[];
  close(): Promise<void>;
};

export async function recordPostgresWire(target: { host: string; port: number }): Promise<WireRecorder> {
  const messages: WireMessage[] = [];
  let seq = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((shop) => {
    const pg = net.connect(target.port, target.host);
    sockets.add(shop).add(pg);
    const end = () => {
      shop.destroy();
      pg.destroy();
    };
    shop.on('error', end).on('close', end);
    pg.on('error', end).on('close', end);
    const fromShop = reader('shop', true);
    const fromServer = reader('server', false);
    shop.on('data', (chunk: Buffer) => {
      fromShop(chunk);
      pg.write(chunk);
    });
    pg.on('data', (chunk: Buffer) => {
      fromServer(chunk);
      shop.write(chunk);
    });
  });

  /** Splits one direction's byte stream into messages as they arrive. */
  function reader(from: WireMessage['from'], startsUntyped: boolean): (chunk: Buffer) => void {
    let buffered = Buffer.alloc(0);
    let untyped = startsUntyped;
    return (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const head = untyped ? 0 : 1;
        if (buffered.length < head + 4) return;
        const length = buffered.readInt32BE(head);
        if (buffered.length < head + length) return;
        const body = buffered.subarray(head + 4, head + length);
        messages.push({ seq: ++seq, from, type: untyped ? 'startup' : String.fromCharCode(buffered[0]!), body: Buffer.from(body) });
        buffered = buffered.subarray(head + length);
        untyped = false;
      }
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A statement's text as it reached the server: a simple query's (`Q`) or a parse's (`P`, after its name). */
export function statementText(m: WireMessage): string | null {
  if (m.from !== 'shop') return null;
  if (m.type === 'Q') return cString(m.body, 0).text;
  if (m.type === 'P') return cString(m.body, cString(m.body, 0).next).text;
  return null;
}

/** The SQLSTATE of a server's error message (`E`), else null. */
export function errorCode(m: WireMessage): string | null {
  if (m.from !== 'server' || m.type !== 'E') return null;
  for (let i = 0; i < m.body.length && m.body[i] !== 0;) {
    const field = String.fromCharCode(m.body[i]!);
    const { text, next } = cString(m.body, i + 1);
    if (field === 'C') return text;
    i = next;
  }
  return null;
}

function cString(buf: Buffer, start: number): { text: string; next: number } {
  const end = buf.indexOf(0, start);
  return { text: buf.toString('utf8', start, end), next: end + 1 };
}
