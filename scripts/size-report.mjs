// Sizes worth a look (issue 41 item 7, decision 0056): source files over 300 lines and functions over
// 80 lines in src/, counted by the TypeScript compiler's own parse (a function is what the compiler
// calls one: declarations, expressions, arrows, methods, constructors and accessors; a function
// inside another is counted on its own, and its lines also count towards the outer one). Test files
// and the test harness (src/server/test/) are counted apart.
//
//   node scripts/size-report.mjs               the working tree
//   node scripts/size-report.mjs --ref HEAD    the files as committed at a git revision
//   node scripts/size-report.mjs --summary     only the two counts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const FILE_LIMIT = 300;
const FUNCTION_LIMIT = 80;
const ROOT = 'src';

const args = process.argv.slice(2);
const refAt = args.indexOf('--ref');
const ref = refAt >= 0 ? args[refAt + 1] : undefined;
const summaryOnly = args.includes('--summary');
const isSource = (file) => /\.(ts|tsx)$/.test(file) && !file.endsWith('.d.ts');

function sources() {
  if (ref) {
    const listed = execFileSync('git', ['ls-tree', '-r', '--name-only', ref, '--', ROOT], { encoding: 'utf8' });
    return listed
      .split('\n')
      .filter(isSource)
      .map((file) => ({ file, text: execFileSync('git', ['show', `${ref}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 26 }) }));
  }
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (isSource(entry.name)) out.push({ file: full.split(path.sep).join('/'), text: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(ROOT);
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** The name a reader would search for: the declaration's own, or the variable, property or call it sits in. */
function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (node.kind === ts.SyntaxKind.Constructor) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    return parent.name.getText();
  }
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText().replace(/\s+/g, ' ');
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` ${JSON.stringify(first.text)}` : '';
    return `${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee}(${label.trim()} callback)`;
  }
  return '(anonymous)';
}

function lineCount(text) {
  if (text.length === 0) return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

const bigFiles = [];
const bigFunctions = [];
for (const { file, text } of sources()) {
  const lines = lineCount(text);
  if (lines > FILE_LIMIT) bigFiles.push({ file, lines });
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      if (length > FUNCTION_LIMIT) bigFunctions.push({ file, line: start + 1, name: functionName(node), lines: length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const where = ref ? `src/ at ${ref}` : 'src/ (working tree)';
if (!summaryOnly) {
  console.log(`Files over ${FILE_LIMIT} lines in ${where}:`);
  for (const f of bigFiles.sort((a, b) => b.lines - a.lines)) console.log(`${String(f.lines).padStart(6)}  ${f.file}`);
  console.log(`\nFunctions over ${FUNCTION_LIMIT} lines in ${where}:`);
  for (const f of bigFunctions.sort((a, b) => b.lines - a.lines)) {
    console.log(`${String(f.lines).padStart(6)}  ${f.file}:${f.line}  ${f.name}`);
  }
  console.log('');
}
// Tests (a describe block is long by nature) are counted apart from the code they test.
const isTest = (file) => /\.test\.tsx?$/.test(file) || file.startsWith('src/server/test/');
const split = (rows) => {
  const tests = rows.filter((r) => isTest(r.file)).length;
  return `${rows.length} (code ${rows.length - tests}, tests ${tests})`;
};
console.log(`Files over ${FILE_LIMIT} lines: ${split(bigFiles)}`);
console.log(`Functions over ${FUNCTION_LIMIT} lines: ${split(bigFunctions)}`);
