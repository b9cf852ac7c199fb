import { PROVIDER_SESSION_TTL_MS } from '../payments/session-times.js';

/** What holds add to the longest payment page: a payment made in its last second, a late webhook, clock skew. */
const HOLD_MARGIN_MS = 10 * 60_000;
/**
 * How long a checkout's stock and coupon holds last: longer than any payment page, so a payment
 * the provider accepts always finds its units still held (41 minutes).
 */
export const HOLD_TTL_MS = PROVIDER_SESSION_TTL_MS + HOLD_MARGIN_MS;
