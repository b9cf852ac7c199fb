/** What a caller is told while the database is away (see db/unavailable.ts for what counts as that). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The shop cannot reach its database for a moment. Please try again in a few seconds.';

/** Seconds a client is asked to wait before trying again (the Retry-After header). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** What a browser asking for a page gets meanwhile: the message, and a reload after the wait. */
export function unavailablePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><meta http-equiv="refresh" content="${DATABASE_RETRY_AFTER_SECONDS + 3}"><title>Back in a moment · EcoClean</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#1f2937;line-height:1.5}h1{font-size:1.5rem;color:#166534}</style></head><body><h1>Back in a moment</h1><p>${DATABASE_UNAVAILABLE_MESSAGE}</p><p>This page reloads by itself.</p></body></html>`;
}
