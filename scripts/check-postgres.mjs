// Exits non-zero when TEST_DATABASE_URL's PostgreSQL does not answer: CI fails instead of skipping.
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('TEST_DATABASE_URL is not set');
  process.exit(1);
}
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  const { rows } = await client.query('select version() as v');
  console.log(`PostgreSQL reachable: ${rows[0].v.split(',')[0]}`);
  await client.end();
} catch (err) {
  console.error(`PostgreSQL is unreachable at ${url}: ${err.message}`);
  process.exit(1);
}
