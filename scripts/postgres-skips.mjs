// What a plain `npm test` (no TEST_DATABASE_URL) does not test: said loudly at its end (issue [3/8]
// item 9), so a green run on SQLite alone is never read as a run on both databases.
import fs from 'node:fs';
import path from 'node:path';

// A test file that runs only with PostgreSQL at hand: it reads TEST_DATABASE_URL itself, or it
// gates a block on the database being PostgreSQL (`runIf(postgres)`, `skipIf(!HAS_PG)`, …).
const GATED = /TEST_DATABASE_URL|\.(runIf|skipIf)\([^)]*(postgres|PG)/i;

function testFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.test\.(ts|tsx|mjs)$/.test(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** The PostgreSQL-only test files under the given folders, relative to the project, sorted. */
export function postgresOnlyFiles(root = process.cwd(), folders = ['src', 'fault']) {
  return folders
    .flatMap((f) => testFiles(path.join(root, f)))
    .filter((file) => GATED.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file))
    .sort();
}

/** The lines `npm test` ends with when TEST_DATABASE_URL is not set. */
export function skippedWithoutPostgres() {
  const http = testFiles('src').filter((f) => f.endsWith('.http.test.ts')).length;
  const files = postgresOnlyFiles();
  return [
    '',
    '!!! PostgreSQL WAS NOT TESTED: TEST_DATABASE_URL is not set. !!!',
    `Skipped: the HTTP suite on PostgreSQL (${http} files), the timings at scale on PostgreSQL, and the`,
    `PostgreSQL parts of these ${files.length} files (their tests show as skipped, not passed):`,
    ...files.map((f) => `  - ${f}`),
    'Set TEST_DATABASE_URL=postgres://… (as .ci/run does) to run them.',
  ];
}
