import { randomFillSync } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random bytes drawn 4 KB at a time from the system's generator and handed out in order, each
 * byte used once: an id no longer costs a buffer and a call into OpenSSL of its own (a checkout
 * makes a dozen). Same generator, same bytes; only fewer calls.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] as number;
}

/** Random lowercase alphanumerics, drawn without modulo bias. */
export function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < 252) out += ALPHABET[b % 36];
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomString(10)}`;
}

export function nowIso(): string {
  return new Date().toISOString();
}
