// `npm test`: everything CI runs, in order, with a summary at the end.
import { ensureDependencies } from './ensure-deps.mjs';
import { ensureClientBuild } from './ensure-build.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { quickSteps, runSteps } from './steps.mjs';

ensureDependencies();

const steps = [...quickSteps, { name: 'http (sqlite)', cmd: ['npx', 'vitest', 'run', '--project', 'http'], env: { TEST_DB: 'sqlite' } }];
if (process.env.TEST_DATABASE_URL) {
  steps.push({
    name: 'http (postgres)',
    cmd: ['npx', 'vitest', 'run', '--project', 'http'],
    env: { TEST_DB: 'postgres' },
  });
} else {
  console.log('TEST_DATABASE_URL is not set: the HTTP suite runs on SQLite only.');
}
// Timings at 100,000 orders, each database alone on the machine.
steps.push({ name: 'scale (sqlite)', cmd: ['npx', 'vitest', 'run', '--project', 'scale'], env: { TEST_DB: 'sqlite' } });
if (process.env.TEST_DATABASE_URL) {
  steps.push({ name: 'scale (postgres)', cmd: ['npx', 'vitest', 'run', '--project', 'scale'], env: { TEST_DB: 'postgres' } });
}
steps.push({ name: 'fault (server processes)', cmd: ['npx', 'vitest', 'run', '--project', 'fault'] });
steps.push({ name: 'build', fn: () => void ensureClientBuild({ force: true }) });
steps.push({ name: 'bundle budget', cmd: ['node', 'scripts/check-bundle-size.mjs'] });
steps.push({ name: 'chromium', fn: ensureChromium });
steps.push({ name: 'e2e (chromium)', cmd: ['npx', 'vitest', 'run', '--project', 'e2e'] });

runSteps(steps);
