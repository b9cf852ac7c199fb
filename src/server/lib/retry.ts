/**
 * How long a failed delivery (an e-mail, a contact message for the workflow endpoint) waits
 * before the next try: the base, doubled each attempt, at most an hour. The base is 30 seconds
 * unless RETRY_BASE_MS says otherwise (the fault tests use a fraction of a second).
 */
let baseMs = 30_000;

export function setRetryBaseMs(ms: number): void {
  baseMs = ms;
}

export function retryDelayMs(attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}
