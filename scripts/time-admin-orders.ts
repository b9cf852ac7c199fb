// `npx tsx scripts/time-admin-orders.ts <DATABASE_URL>`: how long the admin order list takes on a
// seeded database (see `npm run db:seed -- --large`). Prints the median and p95 of 30 runs each.
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { seedAccounts } from '../src/server/db/seed/seed.js';
import { buildApp } from '../src/server/app.js';
import { DEMO_ADMIN } from '../src/server/db/seed/demo-accounts.js';

const url = process.argv[2] ?? process.env.DATABASE_URL;
if (!url) throw new Error('usage: tsx scripts/time-admin-orders.ts <DATABASE_URL>');
const config = { ...loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, LOG_LEVEL: 'silent' }), databaseUrl: url };
const { db, dialect, schema, close } = openDatabase(url);
await migrateToLatest(db, schema);
await seedAccounts(db, config);
const app = await buildApp({ config, db, dialect, mailer: null });
const signIn = await app.inject({
  method: 'POST',
  url: '/api/auth/sign-in',
  headers: { origin: config.publicUrl },
  payload: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
});
const cookie = String(signIn.headers['set-cookie']).split(';')[0] ?? '';
const total = await db
  .selectFrom('orders')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
const sample = await db
  .selectFrom('orders')
  .select(['id', 'order_number', 'email', 'user_id'])
  .where('user_id', 'is not', null)
  .orderBy('created_at', 'desc')
  .offset(5000)
  .limit(1)
  .executeTakeFirstOrThrow();
const user = await db.selectFrom('users').select(['email', 'full_name']).where('id', '=', sample.user_id!).executeTakeFirstOrThrow();

const cases: [string, string][] = [
  ['first page', '/api/admin/orders?page=1&pageSize=20'],
  ['page 50', '/api/admin/orders?page=50&pageSize=20'],
  ['status filter', '/api/admin/orders?page=1&pageSize=20&status=pending'],
  ['search order number', `/api/admin/orders?page=1&pageSize=20&search=${sample.order_number}`],
  ['search full id', `/api/admin/orders?page=1&pageSize=20&search=${sample.id}`],
  ['search e-mail', `/api/admin/orders?page=1&pageSize=20&search=${encodeURIComponent(user.email)}`],
  ['search name', `/api/admin/orders?page=1&pageSize=20&search=${encodeURIComponent(user.full_name)}`],
  ['search e-mail part', `/api/admin/orders?page=1&pageSize=20&search=${encodeURIComponent(user.email.split('@')[0]!)}`],
];
console.log(`${dialect}: ${Number(total.n).toLocaleString('en-US')} orders`);
for (const [name, path] of cases) {
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < 33; i++) {
    const t = performance.now();
    const res = await app.inject({ method: 'GET', url: path, headers: { cookie } });
    const ms = performance.now() - t;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    hits = (res.json() as { total: number }).total;
    if (i >= 3) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const med = times[Math.floor(times.length / 2)]!;
  const p95 = times[Math.floor(times.length * 0.95)]!;
  console.log(`${name.padEnd(22)} median ${med.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  (${hits} matches)`);
}
await app.close();
await close();
