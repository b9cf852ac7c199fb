// `npm test`: everything CI runs, with a summary at the end. Steps that do not depend on each other
// run side by side (`together`), the machine's two cores both busy; the timings at scale run alone.
import { ensureDependencies } from './ensure-deps.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { quickTogether, runSteps, together } from './steps.mjs';
import { skippedWithoutPostgres } from './postgres-skips.mjs';

ensureDependencies();

const http = (db) => ({ name: `http (${db})`, cmd: ['npx', 'vitest', 'run', '--project', 'http'], env: { TEST_DB: db } });
const scale = (db) => ({ name: `scale (${db})`, cmd: ['npx', 'vitest', 'run', '--project', 'scale'], env: { TEST_DB: db } });
const postgres = Boolean(process.env.TEST_DATABASE_URL);
if (!postgres)
  console.log('TEST_DATABASE_URL is not set: the HTTP suite runs on SQLite only (the list of what is skipped comes at the end).');

const steps = [
  // Typecheck, lint, format, unit tests and the production build read the sources and write
  // nothing another of them reads (the build writes dist/, which only the steps after it use).
  quickTogether({ name: 'build', cmd: ['node', 'scripts/build.mjs'] }),
  { name: 'bundle budget', cmd: ['node', 'scripts/check-bundle-size.mjs'] },
  // Each HTTP test file has a database of its own (a SQLite file or a PostgreSQL schema): the two runs share nothing.
  postgres ? together(http('sqlite'), http('postgres')) : http('sqlite'),
  // Timings at 100,000 orders, each database alone on the machine.
  scale('sqlite'),
  ...(postgres ? [scale('postgres')] : []),
  { name: 'fault (server processes)', cmd: ['npx', 'vitest', 'run', '--project', 'fault'] },
  { name: 'chromium', fn: ensureChromium },
  { name: 'e2e (chromium)', cmd: ['npx', 'vitest', 'run', '--project', 'e2e'] },
];

// Without PostgreSQL, the run's last lines say what it did not test, so a green summary is not read as all of it.
await runSteps(steps, { notice: postgres ? undefined : skippedWithoutPostgres });
