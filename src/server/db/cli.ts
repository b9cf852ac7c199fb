import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';
import { seedDatabase } from './seed/seed.js';

/** `npm run db:migrate` and `npm run db:seed` (the latter migrates first). */
async function main(): Promise<void> {
  const [command] = process.argv.slice(2);
  const config = loadConfig();
  const { db, dialect, schema, close } = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(db, schema);
    console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : `Database (${dialect}) is up to date.`);
    if (command === 'seed') {
      const r = await seedDatabase(db, config);
      console.log(r.catalogue ? 'Seeded the catalogue.' : 'The catalogue already has data; left it as it is.');
      if (r.demoAccounts) console.log('Demo accounts are ready.');
    } else if (command !== 'migrate') {
      console.error('Usage: db:migrate | db:seed');
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
