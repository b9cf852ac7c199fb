// Two lint rules over the import graph (scripts/lint/import-graph.mjs), read once per lint run:
// - `no-mutual-module-imports`: two domain modules of src/server never import each other, through
//   any of their files (CONVENTIONS 9: a module calls another's functions, one way);
// - `no-import-cycles`: no file of src/ imports itself round a cycle (type-only imports aside: they
//   vanish when compiled).
// `known` lists what stood when the rule came (decision 0051): reported nowhere, but a listed pair or
// cycle that no longer stands is (so the list only shrinks). A long-lived ESLint (an editor) keeps the
// graph it first read: restart it after moving imports.
import path from 'node:path';
import { buildGraph, fileCycles, moduleCycles, mutualModulePairs, resolveImport, shortestPath, sourceFiles } from './import-graph.mjs';

const TEST_FILE = /\.test\.tsx?$/;

/** What a lint run reads once, by key (the graph of a root; what follows from it). */
const once = new Map();
function memo(key, make) {
  if (!once.has(key)) once.set(key, make());
  return once.get(key);
}
function graphOf(root) {
  return memo(`graph ${root}`, () => {
    const files = sourceFiles(root);
    return { graph: buildGraph(files), files: new Set(files) };
  });
}

/** The module a file of `<cwd>/<root>/<module>/…` belongs to, or null (a test, a layer, another folder). */
export function moduleNamer(cwd, root, modules) {
  const base = path.resolve(cwd, root);
  return (file) => {
    if (TEST_FILE.test(file)) return null;
    const rel = path.relative(base, file);
    if (rel.startsWith('..')) return null;
    const [first, ...rest] = rel.split(path.sep);
    return rest.length && modules.includes(first) ? first : null;
  };
}

/** The nodes of a file that name another module: imports, re-exports, `import('…')`. */
function importVisitor(visit) {
  const named = (node) => {
    if (node.source && typeof node.source.value === 'string') visit(node, node.source.value);
  };
  return {
    ImportDeclaration: named,
    ExportNamedDeclaration: named,
    ExportAllDeclaration: named,
    ImportExpression(node) {
      if (node.source.type === 'Literal' && typeof node.source.value === 'string') visit(node, node.source.value);
    },
  };
}

const pairKey = (a, b) => [a, b].sort().join(' <-> ');

const noMutualModuleImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Two domain modules never import each other, through any of their files.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          modules: { type: 'array', items: { type: 'string' } },
          known: { type: 'array', items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 } },
        },
        required: ['root', 'modules'],
        additionalProperties: false,
      },
    ],
    messages: {
      mutual:
        '{{a}}/ and {{b}}/ import each other: this file imports {{b}}/, and {{backFile}} imports {{a}}/. A module depends on another one way only: move the shared part down (lib/, src/shared) or into the module that owns it, or pass a function in.',
      stale: '{{pair}} is listed as known in the rule options but no longer import each other: take it off the list.',
      cycle:
        'The modules {{cycle}} import each other round a cycle, this import ({{a}}/ → {{b}}/) among them. Modules depend on each other one way only: move the shared part down (lib/, src/shared) or into the module that owns it, or pass a function in.',
    },
  },
  create(context) {
    const { root, modules, known = [] } = context.options[0];
    const cwd = context.cwd;
    const moduleOf = moduleNamer(cwd, root, modules);
    const file = context.physicalFilename;
    const mine = moduleOf(file);
    if (!mine) return {};
    const { graph } = graphOf(path.resolve(cwd, root));
    const pairs = memo(
      `pairs ${root} ${modules}`,
      () => new Map(mutualModulePairs(graph, moduleOf).map((p) => [p.modules.join(' <-> '), p])),
    );
    const allowed = new Set(known.map(([a, b]) => pairKey(a, b)));
    const cycleOf = memo(`module cycles ${root} ${modules}`, () => {
      const byModule = new Map();
      for (const group of moduleCycles(graph, moduleOf)) for (const m of group) byModule.set(m, group);
      return byModule;
    });
    return {
      ...importVisitor((node, specifier) => {
        const target = resolveImport(file, specifier);
        const theirs = target && moduleOf(target);
        if (!theirs || theirs === mine) return;
        const key = pairKey(mine, theirs);
        const pair = pairs.get(key);
        const cycle = cycleOf.get(mine);
        if (!pair && cycle?.includes(theirs)) {
          context.report({ node, messageId: 'cycle', data: { cycle: cycle.join(', '), a: mine, b: theirs } });
          return;
        }
        if (!pair || allowed.has(key)) return;
        const back = pair.modules[0] === mine ? pair.back : pair.there;
        context.report({ node, messageId: 'mutual', data: { a: mine, b: theirs, backFile: path.relative(cwd, back.from) } });
      }),
      Program(node) {
        // Each stale entry is told once, in the first file (by name) of its first module.
        for (const key of allowed) {
          if (pairs.has(key)) continue;
          const first = memo(`first ${root} ${key}`, () => [...graph.keys()].find((f) => moduleOf(f) === key.split(' <-> ')[0]));
          if (first === file) context.report({ node, messageId: 'stale', data: { pair: key } });
        }
      },
    };
  },
};

const noImportCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No file imports itself round a cycle of imports (type-only imports aside).' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          known: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      cycle: 'Import cycle: {{route}}. Move what both need into a file of its own that imports neither.',
      stale: 'The cycle through {{files}} is listed as known in the rule options but no longer stands: take it off the list.',
    },
  },
  create(context) {
    const { root, known = [] } = context.options[0];
    const cwd = context.cwd;
    const file = context.physicalFilename;
    const { graph, files } = graphOf(path.resolve(cwd, root));
    if (!files.has(file)) return {};
    const groups = memo(`cycles ${root}`, () => fileCycles(graph));
    const rel = (f) => path.relative(cwd, f);
    // A known cycle is named by one file of it (any): its whole group is let be while it stands.
    const knownFiles = known.map((k) => path.resolve(cwd, k[0]));
    const group = groups.find((g) => g.includes(file));
    const tolerated = group && knownFiles.some((k) => group.includes(k));
    return {
      ...importVisitor((node, specifier) => {
        if (!group || tolerated) return;
        const target = resolveImport(file, specifier);
        if (!target || !group.includes(target)) return;
        if (node.importKind === 'type' || (node.specifiers?.length && node.specifiers.every((s) => s.importKind === 'type'))) return;
        const back = shortestPath(graph, target, file, group);
        context.report({ node, messageId: 'cycle', data: { route: [file, ...back].map(rel).join(' → ') } });
      }),
      Program(node) {
        for (const k of known) {
          const named = path.resolve(cwd, k[0]);
          if (named === file && !groups.some((g) => g.includes(named)))
            context.report({ node, messageId: 'stale', data: { files: k.join(', ') } });
        }
      },
    };
  },
};

export default {
  meta: { name: 'shop-boundaries' },
  rules: { 'no-mutual-module-imports': noMutualModuleImports, 'no-import-cycles': noImportCycles },
};
