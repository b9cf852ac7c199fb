// `npm test`: everything CI runs, in order, with a summary at the end.
import { spawnSync } from 'node:child_process';
import { ensureDependencies } from './ensure-deps.mjs';
import { ensureClientBuild } from './ensure-build.mjs';
import { ensureChromium } from './ensure-chromium.mjs';

ensureDependencies();

const steps = [
  { name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'lint', cmd: ['npx', 'eslint', '.', '--max-warnings=0'] },
  { name: 'unit', cmd: ['npx', 'vitest', 'run', '--project', 'unit'] },
  { name: 'http (sqlite)', cmd: ['npx', 'vitest', 'run', '--project', 'http'], env: { TEST_DB: 'sqlite' } },
];
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

const results = [];
for (const step of steps) {
  const started = Date.now();
  console.log(`\n=== ${step.name} ===`);
  let ok;
  if (step.fn) {
    ok = step.fn() !== false;
  } else {
    const r = spawnSync(step.cmd[0], step.cmd.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, ...(step.env ?? {}) },
    });
    ok = r.status === 0;
  }
  results.push({ name: step.name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  if (!ok) break;
}

console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  (${r.seconds}s)`);
const failed = results.filter((r) => !r.ok).length;
const skipped = steps.length - results.length;
console.log(`${results.length - failed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
