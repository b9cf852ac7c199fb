import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { checkShopChanges, noteShopChange } from './shop-changes.js';
import { requireAdmin, requireUser } from './auth.js';
import { forgetLoadedSessions, loadSession, loadSessionForRead, SESSION_COOKIE } from '../accounts/sessions.js';
import { HttpError } from './errors.js';

/**
 * Who may call a route. Every route says it in its options (`config.access`); the server refuses
 * to start when one does not. `owner` routes are open to anyone who holds the object (an order by
 * its owner's session or device), which the handler checks and answers 404 otherwise.
 */
export type Access = 'public' | 'owner' | 'signed-in' | 'admin';

/** The parts of the shop, each a Fastify plugin with its own guard in its own scope. */
type Surface = 'store' | 'account' | 'admin' | 'integrations' | 'webhooks' | 'pages';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Set by the surface a route is registered in. */
    surface?: Surface;
    /** A write that changes nothing a session shows (a cart quote): loaded sessions stay reusable. */
    changesNoSession?: boolean;
    /** The specification's own words for a refused caller, where it has some. */
    deniedMessage?: string;
    /**
     * A back-office write whose effect on the storefront is one product's and is told by the write
     * itself (a review moderated stamps that product's ratings row, which every process's watcher
     * reads: decision 0059): the surface does not clear every cache of the shop after it.
     */
    refreshesOneProduct?: boolean;
  }
  interface FastifyInstance {
    /** Every route with its declared policy, for the authorisation tests that walk them all. */
    routeTable: RouteEntry[];
  }
}

type RouteEntry = { method: string; url: string; access: Access | undefined; surface: Surface | undefined };

/** Route options that declare a policy: `app.get('/api/x', access.public, handler)`. */
export const access = {
  public: { config: { access: 'public' } },
  owner: { config: { access: 'owner' } },
  signedIn: { config: { access: 'signed-in' } },
  admin: { config: { access: 'admin' } },
} as const satisfies Record<string, { config: { access: Access } }>;

const RANK: Record<Access, number> = { public: 0, owner: 0, 'signed-in': 1, admin: 2 };

type SurfaceRules = {
  /** The least a caller must be for any route of the surface, whatever the route declares. */
  floor: Access;
  /** Policies a route of this surface may declare. */
  allows: readonly Access[];
  /** Answers of this surface are never stored by a browser or a proxy. */
  noStore: boolean;
  /** Reads the session cookie (pages and webhooks act as nobody). */
  sessions: boolean;
  /** Refuses writes from other sites (the webhook is signed instead). */
  sameSiteWrites: boolean;
  /** A successful write here may change what the public catalogue shows. */
  clearsCaches: boolean;
};

const SURFACES: Record<Surface, SurfaceRules> = {
  store: { floor: 'public', allows: ['public', 'owner'], noStore: false, sessions: true, sameSiteWrites: true, clearsCaches: false },
  account: { floor: 'signed-in', allows: ['signed-in', 'admin'], noStore: true, sessions: true, sameSiteWrites: true, clearsCaches: false },
  admin: { floor: 'admin', allows: ['admin'], noStore: true, sessions: true, sameSiteWrites: true, clearsCaches: true },
  integrations: { floor: 'admin', allows: ['admin'], noStore: true, sessions: true, sameSiteWrites: true, clearsCaches: false },
  webhooks: { floor: 'public', allows: ['public'], noStore: true, sessions: false, sameSiteWrites: false, clearsCaches: false },
  pages: { floor: 'public', allows: ['public', 'owner'], noStore: false, sessions: false, sameSiteWrites: true, clearsCaches: false },
};

/** Path prefixes that belong to one surface alone: a route there registered elsewhere stops the start. */
const RESERVED_PREFIXES: [string, Surface][] = [
  ['/api/admin', 'admin'],
  ['/api/shipstation', 'integrations'],
  ['/api/webhooks', 'webhooks'],
  ['/api/account', 'account'],
];

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

function enforce(policy: Access, req: FastifyRequest): void {
  if (policy === 'admin') requireAdmin(req, req.routeOptions.config.deniedMessage);
  else if (policy === 'signed-in') requireUser(req);
}

/** The stricter of two policies. */
function strictest(a: Access, b: Access): Access {
  return RANK[a] >= RANK[b] ? a : b;
}

export const CROSS_SITE_MESSAGES = {
  crossSite: 'Cross-site requests are not allowed',
  unknownSite:
    'This request carries the shop’s cookies but does not say which site sent it (no Origin or Sec-Fetch-Site header), so it was refused. Send it from the shop’s own pages.',
} as const;

/**
 * Refuses a write whose Origin (or, without one, Fetch Metadata) names another site. A write that
 * carries cookies must say where it comes from: every browser sends Origin (or at least
 * Sec-Fetch-Site) with one, so a cookie-carrying write with neither is not the shop's own page.
 * Writes without cookies (a webhook, a script with its own credentials) act as nobody and pass.
 */
function refuseCrossSite(scope: FastifyInstance, config: Config): void {
  const shop = new URL(config.publicUrl).origin;
  scope.addHook('onRequest', async (req, reply) => {
    if (READS.has(req.method)) return;
    const origin = req.headers.origin;
    if (!origin) {
      const site = req.headers['sec-fetch-site'];
      if (site === 'cross-site') return reply.code(403).send({ error: CROSS_SITE_MESSAGES.crossSite });
      if (req.headers.cookie && site !== 'same-origin') {
        return reply.code(403).send({ error: site ? CROSS_SITE_MESSAGES.crossSite : CROSS_SITE_MESSAGES.unknownSite });
      }
      return;
    }
    if (origin === shop || (req.headers.host && origin === `${req.protocol}://${req.headers.host}`)) return;
    return reply.code(403).send({ error: CROSS_SITE_MESSAGES.crossSite });
  });
}

/**
 * Reads the session cookie once per request; the session decides who the request acts as. Reads of
 * the store may reuse a session read a moment ago (sessions.ts), but never one that grants an
 * admin's rights (an admin reading any order): demoted on another process, it must not count.
 */
function loadSessions(scope: FastifyInstance, db: Kysely<Database>, fresh: boolean): void {
  scope.addHook('onRequest', async (req) => {
    const token = req.cookies[SESSION_COOKIE];
    if (!token) {
      req.session = null;
      return;
    }
    if (fresh || !READS.has(req.method)) {
      req.session = await loadSession(db, token);
      return;
    }
    const recent = await loadSessionForRead(db, token);
    req.session = recent && (recent.user.role === 'admin' || recent.impersonator) ? await loadSession(db, token) : recent;
  });
  // A write may change what a session shows (a sign-out, a name, loyalty points after a payment):
  // sessions read for a second are forgotten before its answer leaves.
  scope.addHook('onSend', async (req, _reply, payload) => {
    if (!READS.has(req.method) && !req.routeOptions.config.changesNoSession) forgetLoadedSessions();
    return payload;
  });
}

/**
 * Registers one surface as an encapsulated plugin. Its guard is a hook of its own scope, so it runs
 * for every route the router matched there, however the path was spelled; it applies the stricter
 * of the surface's floor and the route's declared policy, and fails closed without a policy.
 */
export async function registerSurface(
  app: FastifyInstance,
  surface: Surface,
  deps: { db: Kysely<Database>; config: Config },
  routes: (scope: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  const rules = SURFACES[surface];
  await app.register(async (scope) => {
    scope.addHook('onRoute', (r: RouteOptions) => {
      r.config = { ...(r.config ?? {}), surface };
      const declared = r.config.access;
      if (declared && !rules.allows.includes(declared)) {
        throw new Error(`${String(r.method)} ${r.url} declares '${declared}' access, which the ${surface} surface does not allow`);
      }
    });
    if (rules.sameSiteWrites) refuseCrossSite(scope, deps.config);
    // A surface that only lets someone in (the account, the back office, the integrations) reads the
    // session from the database on every request, reads too: a demotion or a sign-out on another
    // process counts at once, never a second later.
    if (rules.sessions) loadSessions(scope, deps.db, rules.floor !== 'public');
    scope.addHook('onRequest', async (req) => {
      const declared = req.routeOptions.config.access;
      if (!declared) throw new HttpError(403, 'Access denied');
      enforce(strictest(declared, rules.floor), req);
    });
    if (rules.noStore || rules.clearsCaches) {
      scope.addHook('onSend', async (req, reply, payload) => {
        if (rules.noStore) reply.header('Cache-Control', 'no-store');
        // Cleared before the answer leaves, so the owner's next read can never see the old value.
        // Every other process hears of it on its next poll (shop-changes.ts).
        if (rules.clearsCaches && !READS.has(req.method) && reply.statusCode < 400) {
          // A write that stamped one product's change: this process looks at once (its pages of that
          // product are dropped now), the others on their next poll; the rest of the shop stays cached.
          if (req.routeOptions.config.refreshesOneProduct) await checkShopChanges(deps.db);
          else await noteShopChange(deps.db);
        }
        return payload;
      });
    }
    await routes(scope);
  });
}

/**
 * Keeps the route table and refuses to start when a route has no policy, or sits under a path
 * reserved for another surface.
 */
export function checkRoutePolicies(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  const seen: RouteOptions[] = [];
  app.decorate('routeTable', table);
  // The surfaces' own onRoute hooks run after this one: the options are read once all have run.
  app.addHook('onRoute', (r) => void seen.push(r));
  app.addHook('onReady', async () => {
    for (const r of seen) {
      for (const method of [r.method].flat()) {
        if (method !== 'HEAD') table.push({ method, url: r.url, access: r.config?.access, surface: r.config?.surface });
      }
    }
    const problems: string[] = [];
    for (const r of table) {
      if (!r.access) problems.push(`${r.method} ${r.url} declares no access policy`);
      if (!r.surface) problems.push(`${r.method} ${r.url} is registered outside every surface`);
      const reserved = RESERVED_PREFIXES.find(([prefix]) => r.url === prefix || r.url.startsWith(`${prefix}/`));
      if (reserved && reserved[1] !== r.surface)
        problems.push(`${r.method} ${r.url} belongs in the ${reserved[1]} surface, not ${r.surface}`);
    }
    if (problems.length) throw new Error(`Routes without a proper access policy:\n  ${problems.join('\n  ')}`);
  });
}

/** Declares every route registered in `scope` from now on public (a folder of static files). */
export function declarePublicFiles(scope: FastifyInstance): void {
  scope.addHook('onRoute', (r: RouteOptions) => {
    r.config = { ...(r.config ?? {}), access: 'public' };
  });
}
