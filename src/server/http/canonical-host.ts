import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered on whatever host name the request names (a load balancer's health check by IP). */
    anyHost?: boolean;
  }
}

/** What a Host header may hold: a name, an IPv4 or a bracketed IPv6 address, and a port. */
const HOST_SHAPE = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

type HostRule = {
  /** `host:port` (default port dropped) or, when only the name counts, the name alone. */
  expected: string;
  /** Development compares names only: cookies are kept per host name, whatever the port. */
  nameOnly: boolean;
  /** The last raw Host header found to name the shop (the one nearly every request sends). */
  lastPublic?: string;
};

/**
 * The address a Host header names, as the public URL's scheme reads it: lower case, no trailing
 * dot, the scheme's default port dropped (`Shop.Example.com.:443` is `shop.example.com` for
 * https). Null for anything that is not a plain host and port (user info, paths, spaces).
 */
function normalizeHost(raw: string | undefined, protocol: string, nameOnly = false): string | null {
  if (!raw || !HOST_SHAPE.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(`${protocol}//${raw}`);
  } catch {
    return null;
  }
  const name = url.hostname.replace(/\.$/, '');
  if (!name) return null;
  return nameOnly || !url.port ? name : `${name}:${url.port}`;
}

function hostRule(config: Pick<Config, 'env' | 'publicUrl'>): HostRule | null {
  if (config.env === 'test') return null;
  const url = new URL(config.publicUrl);
  const nameOnly = config.env === 'development';
  const expected = normalizeHost(url.host, url.protocol, nameOnly);
  return expected ? { expected, nameOnly } : null;
}

/** Whether a request's Host names the shop's public address. */
function isPublicHost(rule: HostRule, raw: string | undefined, protocol: string): boolean {
  // Nearly every request names the same host: answer it without parsing a URL each time.
  if (raw !== undefined && raw === rule.lastPublic) return true;
  const ok = normalizeHost(raw, protocol, rule.nameOnly) === rule.expected;
  if (ok) rule.lastPublic = raw;
  return ok;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * One address per shop (decision 0014). A request naming another host (the machine's IP, another
 * name of it, a spelling the proxy let through) is sent to PUBLIC_URL before any hook reads or
 * writes anything: a session, a cart or a checkout begun there would live under cookies the public
 * address never sees, and the payment comes back to the public address. Reads are redirected
 * (permanently in production, temporarily in development so a browser does not keep it after
 * PUBLIC_URL changes); writes are refused with 421 and the address to use, never re-sent blindly.
 * Routes marked `anyHost` (the health check) and the signed webhooks answer on any host.
 */
export function registerCanonicalHost(app: FastifyInstance, config: Pick<Config, 'env' | 'publicUrl'>): void {
  const rule = hostRule(config);
  if (!rule) return;
  const protocol = new URL(config.publicUrl).protocol;
  const warned = new Set<string>();
  app.addHook('onRequest', async (req: FastifyRequest, reply) => {
    const route = req.routeOptions.config;
    if (route.anyHost || route.surface === 'webhooks') return;
    if (isPublicHost(rule, req.host, protocol)) return;
    if (config.env === 'development' && !warned.has(req.host) && warned.size < 20) {
      warned.add(req.host);
      req.log.warn(
        `A request named ${req.host}; the shop answers at ${config.publicUrl} and sends it there. To open it at another address (a phone on this network), set PUBLIC_URL to that address.`,
      );
    }
    const target = `${config.publicUrl}${req.url}`;
    if (!READS.has(req.method)) {
      return reply
        .code(421)
        .header('Cache-Control', 'no-store')
        .send({ error: `This shop answers at ${config.publicUrl}. Open it there and try again.` });
    }
    const code = config.env === 'production' ? 301 : 307;
    if (code === 307) reply.header('Cache-Control', 'no-store');
    return reply.redirect(target, code);
  });
}
