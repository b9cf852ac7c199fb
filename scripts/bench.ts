// `npm run bench`: loads the real server, compiled as `npm start` runs it (dist/node/main.js on
// plain node), with autocannon on loopback, on SQLite and then on PostgreSQL, and prints each
// endpoint's throughput and p99 latency next to a hello-world route of the same server measured in
// the same run: the storefront pages as a browser asks for them (HTML, `accept-encoding: gzip, br`),
// a product page signed in, the JSON catalogue, a search with a new term on every request (no
// cache can answer it), and the cart, admin and write endpoints. Reviews (issue [6/8]): a product
// with 1,000 reviews (scripts/bench-reviews.ts, written after the seed), its page and its review
// lists, cached and not, and the shop list sorted by rating. After the load it reads the server's
// resident memory (VmRSS, and VmHWM, its peak) from /proc.
//
//   npm run bench                      both databases, the normal seed
//   npm run bench -- --large           also the large seed (10,000 products, 50,000 users,
//                                      1,000,000 orders) and the slow-down against the small one
//   npm run bench -- --db sqlite       one database only
//   npm run bench -- --large-url sqlite:/tmp/large/shop.db,postgres://…/large_export
//                                      an existing large database instead of seeding one (per
//                                      database, by its scheme). Such a database is only read:
//                                      its server runs in development mode (production mode would
//                                      delete its demo accounts), the demo accounts sign in, and
//                                      the write endpoints are left out.
//   npm run bench -- --sale-only       only the sale day (below); --skip-sale leaves it out
//   npm run bench -- --renewals-only   only the renewals (scripts/bench-renewals.ts: 10,000 subscriptions
//                                      due at once, --renewals N for another count); --skip-renewals leaves them out
//   options: --duration 10 --connections 50 --orders N --users N --products N
//            --only "product page,uncached search"   just these (and hello-world; no sale day, no renewals)
//            --sale-connections 16   shoppers buying at once in the sale day's flat-out run
//
// Then, on each database, the sale day (scripts/bench-sale.ts): on a fresh normal seed, servers
// trusting `x-forwarded-for` (TRUST_PROXY=true) so each virtual shopper has its own address, many
// shoppers buy one product, each checkout created and paid on the test card page: flat out, at 100
// checkouts/s, with the storefront pages measured beside 50 checkouts/s, on two processes sharing
// one PostgreSQL; then the server's memory and the product's stock and ledger, read from the database.
//
// Results: a table per run on stdout and bench-results/<db>-<size>.json (sale-<db>.json for the
// sale day); every goal missed is listed at the end.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Autocannon from 'autocannon';
import pg from 'pg';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureClientBuild } from './ensure-build.mjs';
// @ts-expect-error plain ESM helper shared with npm start
import { SERVER_OUT, ensureServerBuild, serverEnv, serverNodeArgs } from './build-server.mjs';
// @ts-expect-error plain ESM helper (installs the measuring tools into scripts/tools on first use)
import { importTool } from './ensure-tools.mjs';
import { freePort } from '../src/server/test/free-port.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../src/server/db/seed/demo-accounts.js';
import { runSaleDay } from './bench-sale.js';
import { runRenewals } from './bench-renewals.js';
import { addBenchReviews, BENCH_REVIEW_COUNT } from './bench-reviews.js';

type Size = 'small' | 'large';
type Endpoint = {
  name: string;
  /** `page`: a storefront page for an anonymous visitor; `signed-in page`: one with a customer's session; `search`: uncached. */
  kind: 'hello' | 'page' | 'signed-in page' | 'catalogue' | 'search' | 'read' | 'write';
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A new path for every request (the uncached search). */
  nextPath?: () => string;
};
type Result = {
  name: string;
  kind: Endpoint['kind'];
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  ratio: number;
};
/** Resident memory of the server process after the load, in MB: now (VmRSS) and its peak (VmHWM). */
/** `parts`: what the resident memory is made of (the kernel's RssAnon, RssFile, RssShmem), e.g. "anonymous 120, files 45, shared 7 MB". */
type Memory = { rssMb: number; peakMb: number; parts: string };

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const DURATION = Number(opt('duration', '10'));
const CONNECTIONS = Number(opt('connections', '50'));
/** Existing large databases, by scheme (`--large-url a,b`): read, never seeded. */
const LARGE_URLS = opt('large-url', '').split(',').filter(Boolean);
const LARGE = argv.includes('--large') || LARGE_URLS.length > 0;
const DBS = opt('db', 'both') === 'both' ? (['sqlite', 'postgres'] as const) : ([opt('db', 'sqlite')] as ('sqlite' | 'postgres')[]);
const PG_BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const LARGE_COUNTS = ['--products', opt('products', '10000'), '--users', opt('users', '50000'), '--orders', opt('orders', '1000000')];
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-Admin-Password-2026' };
const CUSTOMER = { email: 'bench-customer@example.com', password: 'Bench-Customer-Password-2026', fullName: 'Bench Customer' };
/** How a browser asks for a page. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-encoding': 'gzip, br' };
const OUT_DIR = 'bench-results';
const SALE_ONLY = argv.includes('--sale-only');
const SKIP_SALE = argv.includes('--skip-sale');
const RENEWALS_ONLY = argv.includes('--renewals-only');
const SKIP_RENEWALS = argv.includes('--skip-renewals');
const RENEWALS = Number(opt('renewals', '10000'));
/** Shoppers buying at once in the sale day's flat-out run. */
const SALE_CONNECTIONS = Number(opt('sale-connections', '16'));
/** `--only "cart quote,admin order list"`: just these (and hello-world), for quick comparisons. */
const ONLY = opt('only', '')
  ? new Set(
      opt('only', '')
        .split(',')
        .map((s) => s.trim()),
    )
  : null;

/** `sale`: the sale day's own database, seeded as the small one. */
async function databaseUrl(db: 'sqlite' | 'postgres', size: Size | 'sale' | 'renewals'): Promise<string> {
  if (db === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-bench-${size}-`));
    return `sqlite:${path.join(dir, 'shop.db')}`;
  }
  const name = `shop_bench_${size}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(PG_BASE);
  u.pathname = `/${name}`;
  return u.toString();
}

function seed(url: string, size: Size): void {
  const started = Date.now();
  const args = ['tsx', 'src/server/db/cli.ts', 'seed', ...(size === 'large' ? ['--large', ...LARGE_COUNTS] : [])];
  const r = spawnSync('npx', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
  });
  if (r.status !== 0) throw new Error(`seeding ${url} failed`);
  // A large seed leaves gigabytes for the kernel to write back; measure after that, not during it.
  spawnSync('sync');
  console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The product given 1,000 reviews in each seeded database (none in one only read: its first product is measured). */
const reviewedProduct = new Map<string, string>();

/** A database given with --large-url: only read, served in development mode (see the top). */
const external = (url: string) => LARGE_URLS.includes(url);

/** Starts the compiled server on `url`; `env` is set on top of the bench's settings (the sale day's TRUST_PROXY). */
async function startServer(url: string, env: Record<string, string> = {}): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...(serverNodeArgs() as string[]), SERVER_OUT], {
    env: {
      ...(serverEnv() as NodeJS.ProcessEnv),
      NODE_ENV: external(url) ? 'development' : 'production',
      // The bench pays on the built-in test card page: a production shop starts so only when told.
      ALLOW_TEST_PAYMENTS: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATABASE_URL: url,
      UPLOAD_DIR: path.join(os.tmpdir(), 'shop-bench-uploads'),
      LOG_LEVEL: 'warn',
      // The load comes from one address and no cookies: measure checkout itself, not its abuse limits.
      CHECKOUT_LIMIT_PER_IP: '1000000',
      CHECKOUT_LIMIT_PER_DEVICE: '1000000',
      CHECKOUT_MAX_UNITS_HELD: '100000000',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited while starting');
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, child };
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const cookiesOf = (res: Response) => (res.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');

/** Signs in (or, for the bench's own customer on a fresh seed, signs up) and returns the cookies. */
async function session(base: string, account: { email: string; password: string; fullName?: string }): Promise<string> {
  const origin = { origin: base, 'content-type': 'application/json' };
  const signIn = await fetch(`${base}/api/auth/sign-in`, {
    method: 'POST',
    headers: origin,
    body: JSON.stringify({ email: account.email, password: account.password, elapsedMs: 5000 }),
  });
  if (signIn.ok || !account.fullName) return (await json(signIn), cookiesOf(signIn));
  const signUp = await fetch(`${base}/api/auth/sign-up`, {
    method: 'POST',
    headers: origin,
    body: JSON.stringify({ ...account, elapsedMs: 5000 }),
  });
  return (await json(signUp), cookiesOf(signUp));
}

/**
 * Search terms that no cache keyed by the term can answer, each used once, half of them finding
 * products and half mostly not (as shoppers type them):
 * - even requests: a piece (3 letters or more) of a word in the catalogue's names and descriptions,
 *   in a fixed shuffled order; on each later pass over the pieces, spelt with other capitals
 *   (`cloth`, `Cloth`, `cLoth`…; the search ignores case, so it finds the same products, but the
 *   text is new), and once those run out, followed by the pass number;
 * - odd requests: a whole word and a number (`cleaner 4981`), which finds a product only where
 *   that number is part of its name or description (some of the large seed's names end in one).
 */
async function searchTerms(base: string): Promise<() => string> {
  const words = new Set<string>();
  for (let page = 1; page <= 5; page++) {
    const list = await json<{ items: { name: string; description: string }[] }>(await fetch(`${base}/api/products?page=${page}`));
    for (const p of list.items) for (const w of `${p.name} ${p.description}`.toLowerCase().match(/[a-z]{3,}/g) ?? []) words.add(w);
    if (list.items.length === 0) break;
  }
  const pieces = new Set<string>();
  for (const w of words) for (let i = 0; i + 3 <= w.length; i++) for (let j = i + 3; j <= w.length; j++) pieces.add(w.slice(i, j));
  const shuffled = <T>(list: T[]): T[] => {
    let seed = 17;
    for (let i = list.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const k = seed % (i + 1);
      [list[i], list[k]] = [list[k]!, list[i]!];
    }
    return list;
  };
  const terms = shuffled([...pieces]);
  const wholeWords = shuffled([...words]);
  /** The piece with its letters capitalised where `pass` (in binary) says, or with the pass number once those run out. */
  const spelt = (piece: string, pass: number) =>
    pass < 2 ** piece.length ? [...piece].map((c, i) => ((pass >> i) & 1 ? c.toUpperCase() : c)).join('') : `${piece} ${pass}`;
  let n = 0;
  return () => {
    const i = n++;
    const k = i >> 1;
    const term =
      i % 2 === 0
        ? spelt(terms[k % terms.length]!, Math.floor(k / terms.length))
        : `${wholeWords[k % wholeWords.length]} ${Math.floor(k / wholeWords.length) % 10000}`;
    return `/api/products?search=${encodeURIComponent(term)}&page=1`;
  };
}

/**
 * Pages of the reviewed product's list that no cache keyed by the query can keep for long: every
 * page of every order and star filter in turn, some 500 of them (the cache holds 500 answers, and
 * is asked for each again only after all the others).
 */
function reviewPages(productId: string): () => string {
  const queries: string[] = [];
  const pages = Math.ceil(BENCH_REVIEW_COUNT / 10);
  for (let page = 1; page <= pages; page++)
    for (const sort of ['newest', 'highest', 'lowest'])
      for (const rating of ['', '&rating=5', '&rating=1']) queries.push(`?page=${page}&sort=${sort}${rating}`);
  let n = 0;
  return () => `/api/products/${encodeURIComponent(productId)}/reviews${queries[n++ % queries.length]}`;
}

async function endpoints(base: string, readOnly: boolean, reviewedId: string | undefined): Promise<Endpoint[]> {
  const origin = { origin: base, 'content-type': 'application/json' };
  // A database given with --large-url was seeded in development mode: its demo accounts sign in.
  const cookie = await session(base, readOnly ? DEMO_ADMIN : ADMIN);
  const customer = await session(base, readOnly ? DEMO_CUSTOMER : CUSTOMER);
  const admin = { ...origin, cookie };
  const list = await json<{ items: { id: string }[] }>(await fetch(`${base}/api/products?page=1`));
  // A product with stock for every checkout the run can make (a database only read has none: the cart quote uses a listed one).
  const created = readOnly
    ? { product: { id: list.items[0]!.id } }
    : await json<{ product: { id: string } }>(
        await fetch(`${base}/api/admin/products`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({
            name: 'Bench Refill',
            description: 'A refill for the benchmark.',
            priceCents: 999,
            inventory: 1_000_000,
            category: 'cleaning-cloths',
          }),
        }),
      );
  const productId = list.items[3]?.id ?? created.product.id;
  const productPage = `/products/${encodeURIComponent(productId)}`;
  const page = await fetch(`${base}${productPage}`, { headers: BROWSER });
  if (!page.ok || !(page.headers.get('content-type') ?? '').includes('text/html'))
    throw new Error(`${productPage}: ${page.status}, not a page`);
  // A page the server failed to draw is sent as the bare shell, small and fast: never measure that.
  if ((await page.text()).includes('<div id="root"></div>'))
    throw new Error(`${productPage}: served without its HTML (server rendering failed: see the server's log)`);
  const reviewed = reviewedId ?? list.items[0]!.id;
  const reviewedPage = `/products/${encodeURIComponent(reviewed)}`;
  const reviewsApi = `/api/products/${encodeURIComponent(reviewed)}/reviews`;
  const address = { name: 'Bench Shopper', address: '1 Load St', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
  return [
    { name: 'hello-world (/api/health)', kind: 'hello', method: 'GET', path: '/api/health' },
    { name: 'page /', kind: 'page', method: 'GET', path: '/', headers: BROWSER },
    { name: 'page /products', kind: 'page', method: 'GET', path: '/products', headers: BROWSER },
    { name: 'product page', kind: 'page', method: 'GET', path: productPage, headers: BROWSER },
    { name: 'page /faq', kind: 'page', method: 'GET', path: '/faq', headers: BROWSER },
    { name: 'product page (1000 reviews)', kind: 'page', method: 'GET', path: reviewedPage, headers: BROWSER },
    { name: 'page /products?sort=rating', kind: 'page', method: 'GET', path: '/products?sort=rating', headers: BROWSER },
    {
      name: 'product page (signed in)',
      kind: 'signed-in page',
      method: 'GET',
      path: productPage,
      headers: { ...BROWSER, cookie: customer },
    },
    { name: 'product list', kind: 'catalogue', method: 'GET', path: '/api/products?page=1' },
    { name: 'product search', kind: 'catalogue', method: 'GET', path: '/api/products?search=cloth&page=1' },
    {
      name: 'uncached search (new term each request)',
      kind: 'search',
      method: 'GET',
      path: '/api/products?search=cloth&page=1',
      nextPath: await searchTerms(base),
    },
    { name: 'product detail', kind: 'catalogue', method: 'GET', path: `/api/products/${encodeURIComponent(productId)}` },
    { name: 'product list by rating', kind: 'catalogue', method: 'GET', path: '/api/products?sort=rating&page=1' },
    { name: 'review list (lowest: page 40 of 100)', kind: 'catalogue', method: 'GET', path: `${reviewsApi}?sort=lowest&page=40` },
    {
      name: 'uncached review pages (another each request)',
      kind: 'search',
      method: 'GET',
      path: `${reviewsApi}?page=1`,
      nextPath: reviewPages(reviewed),
    },
    {
      name: 'cart quote',
      kind: 'read',
      method: 'POST',
      path: '/api/cart/quote',
      headers: origin,
      body: {
        lines: [
          { productId: created.product.id, quantity: 2 },
          { productId, quantity: 1 },
        ],
        couponCode: 'WELCOME10',
      },
    },
    { name: 'admin order list', kind: 'read', method: 'GET', path: '/api/admin/orders?page=1&pageSize=20', headers: { cookie } },
    {
      name: 'checkout session',
      kind: 'write',
      method: 'POST',
      path: '/api/create-checkout-session',
      headers: origin,
      body: { items: [{ productId: created.product.id, quantity: 1 }], customerEmail: 'bench@example.com', shippingAddress: address },
    },
    { name: 'sign-in', kind: 'write', method: 'POST', path: '/api/auth/sign-in', headers: origin, body: { ...ADMIN, elapsedMs: 5000 } },
  ];
}

/** autocannon, from scripts/tools: installed there on the first run, not with the project. */
let autocannon: typeof Autocannon;

function load(base: string, e: Endpoint, duration: number): Promise<Autocannon.Result> {
  const next = e.nextPath;
  return autocannon({
    url: `${base}${e.path}`,
    method: e.method,
    connections: CONNECTIONS,
    duration,
    headers: e.headers,
    body: e.body === undefined ? undefined : JSON.stringify(e.body),
    ...(next ? { requests: [{ method: e.method, setupRequest: (req: Autocannon.Request) => ({ ...req, path: next() }) }] } : {}),
  });
}

/** The server's resident memory now and at its peak, from /proc (null where there is none). */
function memoryOf(child: ChildProcess): Memory | null {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    // BENCH_SMAPS=<folder> (measuring only): the server's memory map at this moment, to see what holds it.
    if (process.env.BENCH_SMAPS)
      fs.writeFileSync(path.join(process.env.BENCH_SMAPS, `smaps-${child.pid}`), fs.readFileSync(`/proc/${child.pid}/smaps`));
    const mb = (field: string) => Math.round(Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) / 1024);
    return {
      rssMb: mb('VmRSS'),
      peakMb: mb('VmHWM'),
      parts: `anonymous ${mb('RssAnon')}, files ${mb('RssFile')}, shared ${mb('RssShmem')} MB`,
    };
  } catch {
    return null;
  }
}

type Target = {
  db: 'sqlite' | 'postgres';
  size: Size;
  base: string;
  child: ChildProcess;
  list: Endpoint[];
  raw: Omit<Result, 'ratio'>[];
  memory: Memory | null;
};
type Run = { results: Result[]; memory: Memory | null };

/** Seeds a database for one size (both seeds are made before any server starts: see `run`). */
async function seeded(db: 'sqlite' | 'postgres', size: Size): Promise<string> {
  console.log(`\n## ${db}, ${size} seed`);
  const given =
    size === 'large' ? LARGE_URLS.find((u) => (db === 'sqlite' ? u.startsWith('sqlite:') : /^postgres(ql)?:/.test(u))) : undefined;
  if (given) {
    console.log(`  using ${given} as it is (only read)`);
    return given;
  }
  const url = await databaseUrl(db, size);
  seed(url, size);
  const started = Date.now();
  const { productId, reviews } = await addBenchReviews(url);
  reviewedProduct.set(url, productId);
  console.log(`  ${reviews} reviews written (${BENCH_REVIEW_COUNT} of ${productId}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return url;
}

async function prepare(db: 'sqlite' | 'postgres', size: Size, url: string): Promise<Target> {
  const { base, child } = await startServer(url);
  const list = (await endpoints(base, external(url), reviewedProduct.get(url))).filter(
    (e) => (!ONLY || e.kind === 'hello' || ONLY.has(e.name)) && !(external(url) && e.kind === 'write'),
  );
  return { db, size, base, child, list, raw: [], memory: null };
}

/** Hello-world throughput of one server process, alone, over a short run. */
async function helloSpeed(target: Target): Promise<number> {
  const hello = target.list.find((e) => e.kind === 'hello')!;
  await load(target.base, hello, 1);
  return (await load(target.base, hello, 3)).requests.average;
}

/** Measures an endpoint; measured again, the better run counts (errors of either run are kept). */
async function measure(target: Target, e: Endpoint): Promise<void> {
  await load(target.base, e, 2); // warm up: JIT, statement caches, connection pool
  const r = await load(target.base, e, DURATION);
  const run = {
    name: e.name,
    kind: e.kind,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
  const i = target.raw.findIndex((x) => x.name === e.name);
  if (i < 0) target.raw.push(run);
  else {
    const before = target.raw[i]!;
    target.raw[i] = { ...(run.rps > before.rps ? run : before), non2xx: run.non2xx + before.non2xx, errors: run.errors + before.errors };
  }
  process.stdout.write(`  ${target.db} ${target.size}, ${e.name}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms\n`);
}

async function finish(target: Target): Promise<Run> {
  target.child.kill('SIGTERM');
  await new Promise((r) => target.child.once('exit', r));
  const hello = target.raw.find((r) => r.kind === 'hello')!.rps;
  const results = target.raw.map((r) => ({ ...r, ratio: r.rps / hello }));
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(OUT_DIR, `${target.db}-${target.size}.json`),
    JSON.stringify(
      {
        db: target.db,
        size: target.size,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        cpus: os.cpus().length,
        at: new Date().toISOString(),
        memory: target.memory,
        results,
      },
      null,
      2,
    ),
  );
  return { results, memory: target.memory };
}

/**
 * Both seeds are served at once and each endpoint is measured on both back to back, so the two
 * figures compared see the same machine (this virtual machine's speed drifts by a quarter or more
 * over the minutes a run takes, and a single 10-second run was seen 1.6× off its neighbour). With
 * two seeds, each endpoint runs twice on each, in the order normal, large, large, normal, and the
 * better run of each seed counts: a passing disturbance costs one run, not the comparison.
 */
async function run(db: 'sqlite' | 'postgres'): Promise<{ small: Run; large: Run | null }> {
  // Every seed first, then the servers: a server left idle while a large seed churns through
  // gigabytes measured a third slower for the rest of the run (its memory reclaimed and split).
  const sizes: Size[] = LARGE ? ['small', 'large'] : ['small'];
  const urls: string[] = [];
  for (const size of sizes) urls.push(await seeded(db, size));
  let targets: Target[] = [];
  for (const [i, size] of sizes.entries()) targets.push(await prepare(db, size, urls[i]!));
  // Two processes of this very server on this machine were seen to answer hello-world at 36,000
  // and 69,000 req/s side by side (on one database, before any load): a process's speed here is
  // partly luck of the draw. The seeds are compared only between processes that start equal.
  for (let attempt = 1; targets.length > 1; attempt++) {
    const speeds: number[] = [];
    for (const t of targets) speeds.push(await helloSpeed(t));
    const spread = Math.max(...speeds) / Math.min(...speeds);
    console.log(`  hello-world per process: ${speeds.map((v) => Math.round(v)).join(' / ')} req/s`);
    if (spread <= 1.15 || attempt === 5) break;
    console.log(`  processes differ by ${spread.toFixed(2)}×: starting them again`);
    for (const t of targets) {
      t.child.kill('SIGTERM');
      await new Promise((r) => t.child.once('exit', r));
    }
    targets = [];
    for (const [i, size] of sizes.entries()) targets.push(await prepare(db, size, urls[i]!));
  }
  try {
    const order = targets.length > 1 ? [...targets, ...[...targets].reverse()] : targets;
    // By name: a database only read has no write endpoints.
    for (const { name } of targets[0]!.list) {
      for (const target of order) {
        const e = target.list.find((x) => x.name === name);
        if (e) await measure(target, e);
      }
    }
    // What the process holds once the load is over (the peak is kept by the kernel).
    for (const target of targets) target.memory = memoryOf(target.child);
  } finally {
    for (const target of targets) if (target.child.exitCode === null) target.child.kill('SIGTERM');
  }
  const [small, large] = await Promise.all(targets.map(finish));
  return { small: small!, large: large ?? null };
}

function table(title: string, { results, memory }: Run): void {
  console.log(`\n### ${title} (${CONNECTIONS} connections, ${DURATION} s each)\n`);
  if (memory) console.log(`Server's resident memory after the load: ${memory.rssMb} MB (${memory.parts}; peak ${memory.peakMb} MB)\n`);
  console.log('| endpoint | req/s | p50 ms | p99 ms | × hello-world | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.ratio * 100).toFixed(0)}% | ${r.non2xx + r.errors} |`);
  }
}

/** Each kind's least share of hello-world. */
const SHARE_GOALS: Partial<Record<Endpoint['kind'], number>> = { catalogue: 0.5, page: 0.3, 'signed-in page': 0.1, search: 0.25 };
/** Resident memory after the load, in MB. */
const MEMORY_GOALS: Record<Size, number> = { small: 150, large: 250 };

function goals({ results, memory }: Run, size: Size): string[] {
  const failures: string[] = [];
  if (memory && memory.rssMb > MEMORY_GOALS[size])
    failures.push(`resident memory ${memory.rssMb} MB after the load (goal ≤ ${MEMORY_GOALS[size]} MB)`);
  for (const r of results) {
    const share = SHARE_GOALS[r.kind];
    if (share && r.ratio < share) failures.push(`${r.name}: ${(r.ratio * 100).toFixed(0)}% of hello-world (goal ≥ ${share * 100}%)`);
    // Pages are held to 10 ms at 10 connections (the measure); the 25 ms below holds at any count.
    if (r.kind === 'page' && CONNECTIONS <= 10 && r.p99 >= 10) failures.push(`${r.name}: p99 ${r.p99} ms (goal < 10 ms at 10 connections)`);
    else if (r.kind !== 'write' && r.p99 >= 25) failures.push(`${r.name}: p99 ${r.p99} ms (goal < 25 ms)`);
    if (r.kind !== 'write' && r.non2xx + r.errors > 0) failures.push(`${r.name}: ${r.non2xx + r.errors} failed requests`);
  }
  return failures;
}

/** The sale day (scripts/bench-sale.ts) on a database of its own, seeded as the small one. */
async function saleDay(db: 'sqlite' | 'postgres'): Promise<string[]> {
  console.log(`\n## ${db}, sale day`);
  const url = await databaseUrl(db, 'sale');
  seed(url, 'small');
  const missed = await runSaleDay({
    db,
    url,
    durationSeconds: DURATION,
    shoppers: SALE_CONNECTIONS,
    startServer,
    memoryOf,
    adminCookie: (base) => session(base, ADMIN),
    autocannon,
    browser: BROWSER,
    outDir: OUT_DIR,
  });
  return missed.map((f) => `${db}: ${f}`);
}

/** The renewals (scripts/bench-renewals.ts) on a database of its own, seeded as the small one. */
async function renewalsRun(db: 'sqlite' | 'postgres'): Promise<string[]> {
  const url = await databaseUrl(db, 'renewals');
  seed(url, 'small');
  const missed = await runRenewals({ db, url, count: RENEWALS, startServer, autocannon, browser: BROWSER, outDir: OUT_DIR });
  return missed.map((f) => `${db}: ${f}`);
}

/** The endpoints on one database (both seeds with --large), with their tables; answers the goals missed. */
async function endpointRun(db: 'sqlite' | 'postgres'): Promise<string[]> {
  const failures: string[] = [];
  const { small, large } = await run(db);
  table(`${db}, normal seed`, small);
  failures.push(...goals(small, 'small').map((f) => `${db}: ${f}`));
  if (!large) return failures;
  table(`${db}, large seed`, large);
  failures.push(...goals(large, 'large').map((f) => `${db} large: ${f}`));
  console.log(`\n### ${db}: large seed against normal seed, measured back to back (goal: no endpoint more than 1.5× slower)\n`);
  console.log('| endpoint | req/s normal → large | slow-down | slow-down against hello-world | p99 normal → large |');
  console.log('|---|---:|---:|---:|---:|');
  for (const l of large.results) {
    const s = small.results.find((x) => x.name === l.name)!;
    const slowdown = s.rps / l.rps;
    // hello-world in the same run is the control: it touches no data, so its change is the machine's.
    const relative = s.ratio / l.ratio;
    console.log(
      `| ${l.name} | ${Math.round(s.rps)} → ${Math.round(l.rps)} | ${slowdown.toFixed(2)}× | ${relative.toFixed(2)}× | ${s.p99} → ${l.p99} |`,
    );
    if (slowdown > 1.5) failures.push(`${db}: ${l.name} is ${slowdown.toFixed(2)}× slower on the large seed (goal ≤ 1.5×)`);
  }
  return failures;
}

async function main(): Promise<void> {
  // Pages are measured, so the client build must be current (a no-op when it is), and the server runs compiled.
  ensureClientBuild();
  await ensureServerBuild();
  autocannon = ((await importTool('autocannon')) as { default: typeof Autocannon }).default;
  const failures: string[] = [];
  for (const db of DBS) {
    if (!SALE_ONLY && !RENEWALS_ONLY) failures.push(...(await endpointRun(db)));
    // `--only` names endpoints: the sale day and the renewals run only when asked for by name.
    if (!SKIP_SALE && !RENEWALS_ONLY && !ONLY) failures.push(...(await saleDay(db)));
    if (!SKIP_RENEWALS && !SALE_ONLY && !ONLY) failures.push(...(await renewalsRun(db)));
  }
  console.log(failures.length ? `\nGoals missed:\n- ${failures.join('\n- ')}` : '\nEvery goal holds.');
  process.exitCode = failures.length ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
