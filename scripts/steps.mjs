// The steps `npm test` and `npm run check` run, and the runner that prints their summary.
import { spawn } from 'node:child_process';

/** The inner loop: what `npm run check` runs, and what `npm test` runs first. */
export const quickSteps = [
  { name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'lint', cmd: ['npx', 'eslint', '.', '--max-warnings=0'] },
  { name: 'format', cmd: ['npx', 'prettier', '--check', '--log-level=warn', '.'] },
  { name: 'unit', cmd: ['npx', 'vitest', 'run', '--project', 'unit'] },
];

/**
 * The quick steps on the machine's two cores: lint, the longest (type-aware rules: some 27 s of
 * one core), on one; typecheck, format, unit (and `more`) one after another on the other: 45–49 s
 * where one after another took 56–58 s, and all five at once 53 s (2026-11-26, other work on the machine).
 */
export function quickTogether(...more) {
  const [typecheck, lint, format, unit] = quickSteps;
  return together(lint, [typecheck, format, unit, ...more]);
}

/**
 * Lanes run side by side, each a step or a list of steps run one after another:
 * `together(lint, [typecheck, format])` runs lint beside typecheck-then-format. Each step's output
 * is held and printed whole when it ends (so two logs never interleave); the group fails if any
 * of its steps does (a lane stops at its first failure).
 */
export function together(...lanes) {
  return { together: lanes.map((lane) => (Array.isArray(lane) ? lane : [lane])) };
}

/**
 * The failing tests a step's output names (Vitest's "FAIL  project  file > test" lines, once
 * each, without colours), each with the first lines of its error as Vitest's report gives them;
 * or the step's last lines when it names none (a type error, a lint finding).
 */
function failuresIn(chunks) {
  // The terminal's colour codes: ESC, '[', digits and semicolons, 'm'.
  const colours = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
  const lines = Buffer.concat(chunks).toString('utf8').replace(colours, '').split('\n');
  const shown = [];
  const seen = new Set();
  lines.forEach((line, i) => {
    const name = line.trim();
    if (!/^FAIL\s/.test(name) || seen.has(name)) return;
    // The report's entry is the occurrence followed by its error ("AssertionError: …", "TimeoutError: …").
    const detail = lines
      .slice(i + 1, i + 12)
      .map((l) => l.trim())
      .filter(Boolean);
    if (!/^\w*Error\b/.test(detail[0] ?? '')) return;
    seen.add(name);
    shown.push(name, ...detail.slice(0, 6).map((l) => `  ${l}`));
  });
  for (const name of new Set(lines.map((l) => l.trim()).filter((l) => /^FAIL\s/.test(l)))) {
    if (!seen.has(name)) shown.push(name);
  }
  const result = shown.length ? shown : lines.filter((l) => l.trim()).slice(-15);
  return result.slice(0, 60).map((l) => (l.length > 240 ? `${l.slice(0, 239)}…` : l));
}

function seconds(started) {
  return ((Date.now() - started) / 1000).toFixed(1);
}

/** Runs one command step; `held` collects its output instead of printing it as it comes; `seen` gets a copy either way. */
function runCommand(step, held, seen) {
  return new Promise((resolve) => {
    const child = spawn(step.cmd[0], step.cmd.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The output goes through a pipe: keep the colours a terminal would have shown.
      env: { ...process.env, ...(step.env ?? {}), ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (d) => {
        seen.push(d);
        if (held) held.push(d);
        else (stream === child.stdout ? process.stdout : process.stderr).write(d);
      });
    }
    child.on('error', (err) => {
      held?.push(Buffer.from(`${err.message}\n`));
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

async function runOne(step, results, { held = false } = {}) {
  const started = Date.now();
  if (!held) console.log(`\n=== ${step.name} ===`);
  const out = held ? [] : null;
  const seen = [];
  const ok = step.fn ? (await step.fn()) !== false : await runCommand(step, out, seen);
  const result = { name: step.name, ok, seconds: seconds(started), failures: ok ? [] : failuresIn(seen) };
  if (held) {
    console.log(`\n=== ${step.name} (ran alongside others; ${result.seconds}s) ===`);
    process.stdout.write(Buffer.concat(out));
  }
  results.push(result);
  return ok;
}

/**
 * Runs the steps in order (a `together` group's steps side by side), stops at the first failure, prints a summary and exits with its verdict.
 * `notice`, when given, returns lines printed after the summary (what the run left out).
 */
export async function runSteps(steps, { notice } = {}) {
  const results = [];
  const total = steps.reduce((n, s) => n + (s.together ? s.together.flat().length : 1), 0);
  const started = Date.now();
  for (const step of steps) {
    let ok;
    if (step.together) {
      console.log(`\n=== side by side: ${step.together.map((lane) => lane.map((s) => s.name).join(' → ')).join(' | ')} ===`);
      const runLane = async (lane) => {
        for (const s of lane) if (!(await runOne(s, results, { held: true }))) return false;
        return true;
      };
      ok = (await Promise.all(step.together.map(runLane))).every(Boolean);
    } else {
      ok = await runOne(step, results);
    }
    if (!ok) break;
  }

  console.log('\n=== summary ===');
  for (const r of results) {
    console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  (${r.seconds}s)`);
    // What failed, named again here: a long run's log is often read from its end only.
    for (const line of r.failures) console.log(`      ${line}`);
  }
  console.log(`(${seconds(started)}s in all)`);
  const failed = results.filter((r) => !r.ok).length;
  const skipped = total - results.length;
  console.log(`${results.length - failed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  if (notice) for (const line of notice()) console.log(line);
  process.exit(failed ? 1 : 0);
}
