import { sql } from 'kysely';
import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';
import { seedDatabase } from './seed/seed.js';
import { parseLargeArgs, seedLarge } from './seed/large.js';

/** `npm run db:migrate` and `npm run db:seed` (the latter migrates first). */
async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const large = parseLargeArgs(rest);
  const config = loadConfig();
  const { db, dialect, schema, close } = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(db, schema);
    console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : `Database (${dialect}) is up to date.`);
    if (command === 'seed') {
      const r = await seedDatabase(db, config);
      console.log(r.catalogue ? 'Seeded the catalogue.' : 'The catalogue already has data; left it as it is.');
      if (r.demoAccounts) console.log('Demo accounts are ready.');
      if (large) {
        await seedLarge(db, large);
        // Fresh statistics (and, on PostgreSQL, a visibility map for index-only scans).
        await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
      }
    } else if (command !== 'migrate') {
      console.error('Usage: db:migrate | db:seed [-- --large [--products N] [--users N] [--orders N]]');
      process.exitCode = 2;
    }
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
