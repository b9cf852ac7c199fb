/**
 * A `Retry-After` in words for the sentence beside it ("12 minutes", "45 seconds", "1 hour"):
 * rounded up, so a person who waits what the sentence says is never refused again.
 */
export function waitInWords(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}
