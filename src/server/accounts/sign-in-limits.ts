import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import { tooManyRequests, type HttpError } from '../http/errors.js';
import { clearRateLimit, hitRateLimit, hitRateLimitWindow, refundRateLimit, secondsUntilWindowEnds } from '../http/rate-limit.js';

const MINUTE = 60_000;

/**
 * How many sign-in attempts are checked, after OWASP's Authentication cheat sheet and its device
 * cookie guidance. Every attempt is counted before its password is checked (one insert-or-increment
 * statement per counter), so a simultaneous burst checks at most these numbers, on any number of
 * processes.
 */
export const SIGN_IN_LIMITS = {
  /** One account from one IP address, browsers without that account's device cookie: a hard limit. */
  perAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  /** One IP address across all accounts (credential stuffing). Successful attempts are given back. */
  perIp: { max: 30, windowMs: 15 * MINUTE },
  /**
   * One account from everywhere, browsers without its device cookie: `free` attempts per window
   * (successful ones given back), then never a hard block but growing delays: the rest of the
   * window is cut into slots of `firstDelayMs`, doubling up to `maxDelayMs`, and each slot lets one
   * attempt through (whichever claims it first, on any process).
   */
  perAccount: { free: 10, windowMs: 60 * MINUTE, firstDelayMs: 2_000, maxDelayMs: 5 * MINUTE },
  /** A browser holding a valid device cookie for the account: counted against that cookie only. */
  perDevice: { max: 10, windowMs: 15 * MINUTE },
} as const;

function tooMany(retryAfterSeconds: number): HttpError {
  return tooManyRequests(AUTH_MESSAGES.tooManyAttempts, retryAfterSeconds);
}

/** The delay slot `sinceMs` after the window started: slots of `first` ms doubling up to `max` ms. */
export function delaySlot(sinceMs: number, first: number, max: number): { index: number; startMs: number; endMs: number } {
  let index = 0;
  let startMs = 0;
  let length = first;
  while (startMs + length <= sinceMs) {
    startMs += length;
    index++;
    length = Math.min(length * 2, max);
  }
  return { index, startMs, endMs: startMs + length };
}

/** The counters an admitted attempt took, so that its outcome can settle them. */
type SignInAdmission = { kind: 'device'; deviceKey: string } | { kind: 'browser'; ipKey: string; accountIpKey: string; accountKey: string };

/**
 * Counts a sign-in attempt and lets it through to the password check, or refuses it with 429 (the
 * specification's text and a `Retry-After`). `deviceNonce` is the nonce of a device cookie already
 * verified for this account, or null.
 */
export async function admitSignInAttempt(
  db: Kysely<Database>,
  attempt: { email: string; ip: string; deviceNonce: string | null },
  now = new Date(),
): Promise<SignInAdmission> {
  if (attempt.deviceNonce) {
    const deviceKey = `signin:device:${attempt.deviceNonce}`;
    const { max, windowMs } = SIGN_IN_LIMITS.perDevice;
    const device = await hitRateLimitWindow(db, deviceKey, windowMs, now);
    if (device.hits > max) throw tooMany(secondsUntilWindowEnds(device.windowStartedAt, windowMs, now));
    return { kind: 'device', deviceKey };
  }

  // Refused attempts stay counted, but only by the counters they reached: the per-account counter,
  // shared by everybody, grows by at most 5 per IP address per window.
  const ipKey = `signin:ip:${attempt.ip}`;
  const ip = await hitRateLimitWindow(db, ipKey, SIGN_IN_LIMITS.perIp.windowMs, now);
  if (ip.hits > SIGN_IN_LIMITS.perIp.max) throw tooMany(secondsUntilWindowEnds(ip.windowStartedAt, SIGN_IN_LIMITS.perIp.windowMs, now));

  const accountIpKey = `signin:acct-ip:${attempt.email}:${attempt.ip}`;
  const { max, windowMs } = SIGN_IN_LIMITS.perAccountAndIp;
  const accountIp = await hitRateLimitWindow(db, accountIpKey, windowMs, now);
  if (accountIp.hits > max) throw tooMany(secondsUntilWindowEnds(accountIp.windowStartedAt, windowMs, now));

  const accountKey = `signin:acct:${attempt.email}`;
  const slow = SIGN_IN_LIMITS.perAccount;
  const account = await hitRateLimitWindow(db, accountKey, slow.windowMs, now);
  if (account.hits > slow.free) {
    const sinceMs = now.getTime() - Date.parse(account.windowStartedAt);
    const slot = delaySlot(sinceMs, slow.firstDelayMs, slow.maxDelayMs);
    // The slot is claimed with the same insert-or-increment: the first to count 1 has it.
    const claim = await hitRateLimit(db, `signin:slot:${attempt.email}:${account.windowStartedAt}:${slot.index}`, slow.windowMs, now);
    if (claim > 1) {
      const waitMs = Math.min(slot.endMs, slow.windowMs) - sinceMs;
      throw tooMany(waitMs / 1000);
    }
  }
  return { kind: 'browser', ipKey, accountIpKey, accountKey };
}

/**
 * After a successful sign-in: the account-and-IP (or device) counter starts over, unless a burst
 * already went past it in this window; the per-IP and per-account counters give this attempt back.
 * A failed attempt simply stays counted.
 */
export async function signInSucceeded(db: Kysely<Database>, admission: SignInAdmission): Promise<void> {
  if (admission.kind === 'device') {
    await clearRateLimit(db, admission.deviceKey, SIGN_IN_LIMITS.perDevice.max);
    return;
  }
  await clearRateLimit(db, admission.accountIpKey, SIGN_IN_LIMITS.perAccountAndIp.max);
  await refundRateLimit(db, admission.ipKey);
  await refundRateLimit(db, admission.accountKey);
}
