// The import graph of the sources: which file imports which, whether
// only for types, and what follows from it for the lint (scripts/lint/module-boundaries.mjs):
// domain modules that import each other, and files that import themselves round a cycle.
import fs from 'node:fs';
import path from 'node:path';

/**
 * @typedef {{ specifier: string, typeOnly: boolean, dynamic: boolean, line: number }} ImportOf
 * @typedef {{ to: string, typeOnly: boolean, line: number }} Edge
 * @typedef {Map<string, Edge[]>} Graph
 */

// Import and export declarations start a line (as Prettier writes them); their clause holds no
// quote or semicolon. A regular expression reads them some hundred times faster than a parser,
// which matters in a lint run: the graph is read once per run, from every source file.
const DECLARATION = /^[ \t]*(import|export)\s+(type\s+)?([^;'"`]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** True when a clause brings in only types: `{ type A, type B }` (an `import type` is told apart before). */
function onlyTypeSpecifiers(clause) {
  const named = clause.match(/^\{([\s\S]*)\}$/);
  if (!named) return false;
  const parts = named[1]
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length > 0 && parts.every((p) => /^type\s/.test(p));
}

/** Every module a source file names: static imports and re-exports, side-effect imports, and `import('…')` with a literal. */
export function importsOf(_fileName, text) {
  /** @type {ImportOf[]} */
  const found = [];
  const lineAt = (index) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(DECLARATION)) {
    const typeOnly = Boolean(m[2]) || onlyTypeSpecifiers(m[3].trim());
    found.push({ specifier: m[4], typeOnly, dynamic: false, line: lineAt(m.index) });
  }
  for (const m of text.matchAll(SIDE_EFFECT)) found.push({ specifier: m[1], typeOnly: false, dynamic: false, line: lineAt(m.index) });
  // A dynamic import is still a dependency (the file cannot run without it), so it counts too.
  for (const m of text.matchAll(DYNAMIC)) found.push({ specifier: m[1], typeOnly: false, dynamic: true, line: lineAt(m.index) });
  return found.sort((a, b) => a.line - b.line);
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx'];

/** The source file a relative specifier leads to (`./x.js` is `./x.ts` or `./x.tsx`), or null (a package, or no such file). */
export function resolveImport(fromFile, specifier, exists = fs.existsSync) {
  if (!specifier.startsWith('.')) return null;
  const target = path.resolve(path.dirname(fromFile), specifier);
  const stem = target.replace(/\.(m?js|jsx)$/, '');
  const candidates = [...SOURCE_EXTENSIONS.map((e) => stem + e), target, ...SOURCE_EXTENSIONS.map((e) => path.join(target, `index${e}`))];
  return candidates.find((c) => SOURCE_EXTENSIONS.some((e) => c.endsWith(e)) && exists(c)) ?? null;
}

/** Every .ts/.tsx file under a folder (absolute paths, sorted). */
export function sourceFiles(folder) {
  /** @type {string[]} */
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  };
  walk(folder);
  return out.sort();
}

/** The graph of the given files: each file's edges to the other given files it imports. */
export function buildGraph(files, read = (f) => fs.readFileSync(f, 'utf8')) {
  const known = new Set(files);
  /** @type {Graph} */
  const graph = new Map();
  for (const file of files) {
    const edges = [];
    for (const imp of importsOf(file, read(file))) {
      const to = resolveImport(file, imp.specifier, (c) => known.has(c));
      if (to) edges.push({ to, typeOnly: imp.typeOnly, line: imp.line });
    }
    graph.set(file, edges);
  }
  return graph;
}

/**
 * Pairs of modules that import each other (through any of their files; a type-only import counts:
 * it ties the two as much as a call does). `moduleOf` names a file's module, or null for a file
 * outside every module (tests, layers), whose imports do not count.
 * @returns {{ modules: [string, string], there: { from: string, to: string, line: number }, back: { from: string, to: string, line: number } }[]}
 */
export function mutualModulePairs(graph, moduleOf) {
  /** @type {Map<string, { from: string, to: string, line: number }>} */
  const firstEdge = new Map(); // "a>b" -> the first file edge from module a into module b
  for (const [from, edges] of graph) {
    const a = moduleOf(from);
    if (!a) continue;
    for (const e of edges) {
      const b = moduleOf(e.to);
      if (!b || b === a) continue;
      const key = `${a}>${b}`;
      if (!firstEdge.has(key)) firstEdge.set(key, { from, to: e.to, line: e.line });
    }
  }
  const pairs = [];
  for (const [key, there] of firstEdge) {
    const [a, b] = key.split('>');
    const back = firstEdge.get(`${b}>${a}`);
    if (back && a < b) pairs.push({ modules: /** @type {[string, string]} */ ([a, b]), there, back });
  }
  return pairs.sort((x, y) => x.modules.join().localeCompare(y.modules.join()));
}

/**
 * The cycles of three or more domain modules (two are `mutualModulePairs`): each strongly connected
 * group of the module graph, where module a imports b when any file of a imports any file of b (every
 * import counts, as for pairs). A group of three or more modules that also holds a mutual pair is
 * reported as a cycle too: taking the pair out may leave the longer one standing.
 * @returns {string[][]} each group's modules, sorted
 */
export function moduleCycles(graph, moduleOf) {
  /** @type {Map<string, { to: string, typeOnly: false, line: number }[]>} */
  const modules = new Map();
  for (const [from, edges] of graph) {
    const a = moduleOf(from);
    if (!a) continue;
    if (!modules.has(a)) modules.set(a, []);
    for (const e of edges) {
      const b = moduleOf(e.to);
      if (!b || b === a || modules.get(a).some((m) => m.to === b)) continue;
      modules.get(a).push({ to: b, typeOnly: false, line: e.line });
    }
  }
  return fileCycles(modules).filter((group) => group.length > 2);
}

/**
 * The import cycles between files: each strongly connected group of two or more files (or a file
 * importing itself), found with Tarjan's algorithm. Type-only imports are left out unless asked for:
 * they vanish when compiled, so they neither order nor break a start-up.
 */
export function fileCycles(graph, { typeOnly = false } = {}) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  /** @type {string[][]} */
  const groups = [];
  const edgesOf = (f) => (graph.get(f) ?? []).filter((e) => typeOnly || !e.typeOnly).map((e) => e.to);
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [{ file: root, children: edgesOf(root), i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.i < top.children.length) {
        const child = top.children[top.i++];
        if (!index.has(child)) {
          index.set(child, next);
          low.set(child, next++);
          stack.push(child);
          onStack.add(child);
          work.push({ file: child, children: edgesOf(child), i: 0 });
        } else if (onStack.has(child)) {
          low.set(top.file, Math.min(low.get(top.file), index.get(child)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent), low.get(top.file)));
      }
      if (low.get(top.file) === index.get(top.file)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== top.file);
        if (group.length > 1 || edgesOf(top.file).includes(top.file)) groups.push(group.sort());
      }
    }
  }
  return groups.sort((x, y) => x[0].localeCompare(y[0]));
}

/**
 * One shortest chain of imports from `from` to `to` through the files of `within` (breadth-first),
 * both ends included; empty when there is none. Round a cycle: `from` an import of `to`'s, back to `to`.
 */
export function shortestPath(graph, from, to, within, { typeOnly = false } = {}) {
  const inside = new Set(within);
  const previous = new Map([[from, null]]);
  const queue = [from];
  for (let k = 0; k < queue.length; k++) {
    const at = queue[k];
    if (at === to) {
      const route = [];
      for (let f = at; f !== null; f = previous.get(f)) route.unshift(f);
      return route;
    }
    for (const e of graph.get(at) ?? []) {
      if ((!typeOnly && e.typeOnly) || !inside.has(e.to) || previous.has(e.to)) continue;
      previous.set(e.to, at);
      queue.push(e.to);
    }
  }
  return [];
}
