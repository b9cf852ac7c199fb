// The steps `npm test` and `npm run check` run, and the runner that prints their summary.
import { spawnSync } from 'node:child_process';

/** The inner loop: what `npm run check` runs, and what `npm test` runs first. */
export const quickSteps = [
  { name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'lint', cmd: ['npx', 'eslint', '.', '--max-warnings=0'] },
  { name: 'format', cmd: ['npx', 'prettier', '--check', '--log-level=warn', '.'] },
  { name: 'unit', cmd: ['npx', 'vitest', 'run', '--project', 'unit'] },
];

/** Runs the steps in order, stops at the first failure, prints a summary and exits with its verdict. */
export function runSteps(steps) {
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
}
