import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../lib/html.js';

/** What a caller is told when a request's body is over the limit of the address it was sent to. */
export const BODY_TOO_LARGE_MESSAGE = 'The request is too large for this address. Please send less and try again.';
/** ... and a person whose browser posted a form (the test card page at /pay/:id). */
export const FORM_TOO_LARGE_MESSAGE = 'The form you sent was too large. Go back, check what you typed and send it again.';

/**
 * How much of an over-size body is read and thrown away so that the 413 reaches the caller. A
 * server that answers and closes while the client is still sending leaves unread bytes behind,
 * and the kernel then resets the connection: the answer is lost and the caller sees a dropped
 * connection (curl: "Send failure: Broken pipe"). Reading the rest costs no more than receiving it
 * (HTTP_REQUEST_TIMEOUT_MS bounds the time); past this many bytes the connection is closed anyway.
 */
export const MAX_DRAINED_BYTES = 128 * 1024 * 1024;

/** Fastify's error for a body past its parser's bodyLimit (JSON, forms, raw webhooks). */
export function isBodyTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
}

/** Reads the rest of a request and discards it: true once it ended, false when cut off or past `maxBytes`. */
function drain(raw: IncomingMessage, maxBytes: number): Promise<boolean> {
  if (raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer | string) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        raw.pause();
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.readableEnded);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.once('error', onClose);
    raw.resume();
  });
}

/**
 * 413 for a body over the limit, delivered: the rest of the body is read first (up to
 * MAX_DRAINED_BYTES), so the connection is neither reset nor dropped, and stays open for the next
 * request when the whole body was read. JSON for API callers; a short page for a browser's form.
 */
export async function answerBodyTooLarge(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const drained = await drain(req.raw, MAX_DRAINED_BYTES);
  // Fastify asked to close (the client might still be sending); once everything was read there is no need.
  if (drained) reply.removeHeader('connection');
  reply.code(413).header('cache-control', 'no-store');
  if (req.headers.accept?.includes('text/html')) {
    const back = req.url.split('?')[0] ?? '/';
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Too large · EcoClean</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#1f2937;line-height:1.5}h1{font-size:1.5rem;color:#166534}</style></head><body><h1>That was too large</h1><p>${FORM_TOO_LARGE_MESSAGE}</p><p><a href="${escapeHtml(back.startsWith('/') && !back.startsWith('//') ? back : '/')}">Back to the form</a></p></body></html>`,
      );
  }
  return reply.send({ error: BODY_TOO_LARGE_MESSAGE });
}
