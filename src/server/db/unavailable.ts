/**
 * Errors that mean "the database cannot be reached just now", not "this request is wrong" and
 * not a bug: the connection was ended (an operator, a restart, a failover, a proxy reaping it),
 * refused, timed out, or the server is starting or shutting down. Such a request answers 503 with
 * a message a person can act on, and the next one usually works: the pool opens new connections.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: "terminating connection due to administrator command"
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
  '08P01', // protocol_violation (a connection cut mid-message)
  'SQLITE_BUSY', // SQLite: another process held the write lock past busy_timeout (a backup, a long import)
]);

const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// node-pg's own words for a connection that went away or never came.
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
  // Kysely's, for a query that arrives while the process closes its database (a shutdown).
  /driver has already been destroyed/i,
];

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 3) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message as string))) return true;
  // An AggregateError (a connection tried on several addresses) or a wrapped cause.
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return e.cause !== undefined && isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * Runs `work` again while it fails because the database is away, for at most `forMs`: for work
 * that must be recorded once something outside already happened (an e-mail was sent), where
 * giving up means doing the outside part twice. Use it only for work that is safe to repeat.
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, { forMs = 10_000, firstDelayMs = 50 } = {}): Promise<T> {
  const deadline = Date.now() + forMs;
  for (let delay = firstDelayMs; ; delay = Math.min(delay * 2, 1000)) {
    try {
      return await work();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + delay > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
