import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { png } from '../test/images.js';

/**
 * An upload whose body ends before the closing boundary (the connection dropped, or the body was
 * cut short on purpose) is the sender's fault: 400 with a sentence saying to try again, and nothing
 * is stored, never a 500.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const storedFiles = () => {
  const dir = path.resolve(t.config.uploadDir, 'products');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

function cutOff(payload: Buffer, boundary: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/uploads?kind=products',
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: 'http://shop.test',
    },
  });
}

const boundary = '----shoptestcutoff';
const head = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
);
const picture = png(64, 64);

describe('a cut-off upload', () => {
  it('answers 400 with a sentence when the body ends mid-file, before the closing boundary', async () => {
    const before = storedFiles();
    const res = await cutOff(Buffer.concat([head, picture.subarray(0, Math.floor(picture.length / 2))]), boundary);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(ADMIN_MESSAGES.uploadCutOff);
    expect(storedFiles()).toEqual(before);
  });

  it('answers 400 when the whole file came but not the closing boundary', async () => {
    const res = await cutOff(Buffer.concat([head, picture, Buffer.from(`\r\n--${boundary}`)]), boundary);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(ADMIN_MESSAGES.uploadCutOff);
  });

  it('answers 400 when the sender stops sending mid-file, and stores nothing', async () => {
    const before = storedFiles();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const full = Buffer.concat([head, picture, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true }, () => {
        socket.write(
          [
            'POST /api/admin/uploads?kind=products HTTP/1.1',
            'Host: shop.test',
            'Origin: http://shop.test',
            `Cookie: ${[...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ')}`,
            `Content-Type: multipart/form-data; boundary=${boundary}`,
            `Content-Length: ${full.length}`,
            '',
            '',
          ].join('\r\n'),
        );
        // Half the file, then the sender's side of the connection ends.
        socket.end(full.subarray(0, head.length + 100));
      });
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    // Node's parser sees the body end early and answers 400 itself (no one reads that answer: the
    // sender has gone); what matters is that it is not a 500 and nothing half-written is kept.
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(storedFiles()).toEqual(before);
  });

  it('still stores a whole upload', async () => {
    const res = await cutOff(Buffer.concat([head, picture, Buffer.from(`\r\n--${boundary}--\r\n`)]), boundary);
    expect(res.statusCode).toBe(201);
  });
});
