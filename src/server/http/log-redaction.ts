import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

export const REDACTED = '[REDACTED]';

/** Where log lines go (pino's destination): stdout unless a test hands its own. */
export type LogStream = { write: (line: string) => void };

/**
 * Query parameters whose values are secrets: a password-reset link's `token`, and any other
 * token, key, password, secret or signature a link or a caller may put in a URL. Matched on the
 * decoded name, however it was spelled (`%74oken`, `TOKEN`).
 */
const SECRET_PARAM = /token|secret|passw|signature|^sig$|^key$|api[-_]?key|^sid$/i;

/**
 * Path segments after which the next segment is a secret: the shop's links carry their tokens in
 * the query (`/reset-password?token=`), but a link spelled with the token in its path (or a future
 * one) is logged without it too. Links that do carry a token in their path: a subscription's
 * `/subscriptions/manage/<token>` (and its API), a review request's `/review/<token>`,
 * `/api/reviews/link/<token>` and `/api/reviews/opt-out/<token>`.
 */
const SECRET_PATH_SEGMENT = /^(reset-password|verify-email|unsubscribe|token|manage|link|review|opt-out)$/i;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** A request URL as the log may show it: secret path segments and query values replaced by [REDACTED]. */
export function redactUrl(url: string | undefined): string | undefined {
  if (typeof url !== 'string') return url;
  const q = url.indexOf('?');
  const pathPart = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? null : url.slice(q + 1);
  const segments = pathPart.split('/');
  for (let i = 1; i < segments.length; i++) {
    // `;params` and dot segments do not hide a segment's name.
    const name = safeDecode(segments[i - 1]!.split(';')[0]!);
    if (SECRET_PATH_SEGMENT.test(name) && segments[i] !== '') segments[i] = REDACTED;
  }
  let out = segments.join('/');
  if (query !== null) {
    const pairs = query.split('&').map((pair) => {
      const eq = pair.indexOf('=');
      const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
      return SECRET_PARAM.test(name) ? `${eq < 0 ? pair : pair.slice(0, eq)}=${REDACTED}` : pair;
    });
    out += `?${pairs.join('&')}`;
  }
  return out;
}

/**
 * The last line of defence, over each finished log line: a secret-named query parameter anywhere
 * (an error message quoting a URL), and the session cookie's value wherever a cookie string shows.
 */
const SECRET_IN_TEXT = /([?&](?:[\w.-]*(?:token|secret|passw|signature)[\w.-]*|sig|key|api[-_]?key|sid)=)[^&\s"'#\\]+/gi;
const SESSION_COOKIE_IN_TEXT = /(\bsid=)[^;\s"'\\]+/g;

export function scrubLogLine(line: string): string {
  return line.replace(SECRET_IN_TEXT, `$1${REDACTED}`).replace(SESSION_COOKIE_IN_TEXT, `$1${REDACTED}`);
}

/**
 * The request as each log line shows it (Fastify's own fields, the URL redacted). Request headers
 * are never logged; should one ever be, the paths below blank its cookie and authorization.
 */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The server's logger: `false` when LOG_LEVEL=silent. No line carries a secret: URLs lose their
 * tokens, cookies, authorization and set-cookie headers are blanked, and every finished line is
 * scrubbed once more. `stream` sends the lines elsewhere than stdout (the tests read them).
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: LogStream): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    serializers: {
      req: serializeRequest,
      // A URL logged by hand (`{ url: req.url }`) is redacted like the request's.
      url: (url: string) => redactUrl(url),
    },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
        'headers["set-cookie"]',
      ],
      censor: REDACTED,
    },
    hooks: { streamWrite: scrubLogLine },
    ...(stream ? { stream } : {}),
  };
}
