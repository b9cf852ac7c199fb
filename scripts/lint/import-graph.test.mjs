import { describe, expect, it } from 'vitest';
import { buildGraph, fileCycles, importsOf, moduleCycles, mutualModulePairs, resolveImport, shortestPath } from './import-graph.mjs';
import { moduleNamer } from './module-boundaries.mjs';

// A small tree in memory: /r/src/server/<module>/… and a client cycle.
const TREE = {
  '/r/src/server/orders/service.ts': "import { a } from '../payments/stripe.js';\nimport type { T } from '../accounts/types.js';\n",
  '/r/src/server/payments/stripe.ts': "import { b } from '../lib/ids.js';\n",
  '/r/src/server/payments/routes.ts': "import {\n  c,\n} from '../orders/service.js';\n",
  '/r/src/server/accounts/types.ts': "export type T = 1;\nimport { type X, type Y } from '../orders/service.js';\n",
  '/r/src/server/lib/ids.ts': "export const b = 1;\nimport { d } from '../orders/service.js';\n",
  '/r/src/server/orders/service.test.ts': "import { e } from '../accounts/types.js';\n",
  '/r/src/client/a.tsx': "import B from './b.js';\n",
  '/r/src/client/b.tsx': "export default 1;\nconst A = lazy(() => import('./a.js'));\n",
};
const files = Object.keys(TREE);
const graph = buildGraph(files, (f) => TREE[f]);
const moduleOf = moduleNamer('/r', 'src/server', ['orders', 'payments', 'accounts']);

describe('the import graph', () => {
  it('reads static, multi-line, type-only, side-effect and dynamic imports', () => {
    const text = [
      "import { x } from './x.js';",
      "import type { Y } from './y.js';",
      "import { type A, type B } from './ab.js';",
      "import C, { type D } from './cd.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "import './side.js';",
      'const g = await import("./g.js");',
      "import {\n  h,\n  i,\n} from './hi.js';",
    ].join('\n');
    expect(importsOf('f.ts', text).map((i) => [i.specifier, i.typeOnly, i.dynamic])).toEqual([
      ['./x.js', false, false],
      ['./y.js', true, false],
      ['./ab.js', true, false],
      ['./cd.js', false, false],
      ['./e.js', false, false],
      ['./f.js', true, false],
      ['./side.js', false, false],
      ['./g.js', false, true],
      ['./hi.js', false, false],
    ]);
  });

  it('resolves a .js specifier to its .ts or .tsx file, and nothing for a package', () => {
    const known = new Set(files);
    const has = (f) => known.has(f);
    expect(resolveImport('/r/src/server/orders/service.ts', '../payments/stripe.js', has)).toBe('/r/src/server/payments/stripe.ts');
    expect(resolveImport('/r/src/client/a.tsx', './b.js', has)).toBe('/r/src/client/b.tsx');
    expect(resolveImport('/r/src/client/a.tsx', 'react', has)).toBeNull();
    expect(resolveImport('/r/src/client/a.tsx', './missing.js', has)).toBeNull();
  });

  it('names the modules that import each other (type-only imports count; tests and layers do not)', () => {
    const pairs = mutualModulePairs(graph, moduleOf);
    expect(pairs.map((p) => p.modules)).toEqual([
      ['accounts', 'orders'],
      ['orders', 'payments'],
    ]);
    const op = pairs.find((p) => p.modules[0] === 'orders');
    expect(op?.there).toMatchObject({ from: '/r/src/server/orders/service.ts', to: '/r/src/server/payments/stripe.ts', line: 1 });
    expect(op?.back).toMatchObject({ from: '/r/src/server/payments/routes.ts', to: '/r/src/server/orders/service.ts', line: 1 });
    expect(moduleOf('/r/src/server/orders/service.test.ts')).toBeNull();
    expect(moduleOf('/r/src/server/lib/ids.ts')).toBeNull();
  });

  it('finds file cycles (a dynamic import counts, a type-only one does not unless asked) and a way round each', () => {
    expect(fileCycles(graph)).toEqual([
      ['/r/src/client/a.tsx', '/r/src/client/b.tsx'],
      ['/r/src/server/lib/ids.ts', '/r/src/server/orders/service.ts', '/r/src/server/payments/stripe.ts'],
    ]);
    // With types: accounts/types.ts ↔ orders/service.ts joins the server's group.
    expect(fileCycles(graph, { typeOnly: true })[1]).toContain('/r/src/server/accounts/types.ts');
    const group = fileCycles(graph)[1];
    expect(shortestPath(graph, '/r/src/server/payments/stripe.ts', '/r/src/server/orders/service.ts', group)).toEqual([
      '/r/src/server/payments/stripe.ts',
      '/r/src/server/lib/ids.ts',
      '/r/src/server/orders/service.ts',
    ]);
  });

  it('finds modules that import each other round a cycle of three or more, and no cycle where the imports go one way', () => {
    const ring = {
      '/r/src/server/email/send.ts': "import { o } from '../catalog/options.js';\n",
      '/r/src/server/catalog/options.ts': "import { s } from '../inventory/stock.js';\n",
      '/r/src/server/inventory/stock.ts': "import type { Q } from '../email/send.js';\n",
      '/r/src/server/orders/make.ts': "import { s } from '../inventory/stock.js';\nimport { q } from '../email/send.js';\n",
    };
    const ringOf = moduleNamer('/r', 'src/server', ['email', 'catalog', 'inventory', 'orders']);
    const ringGraph = buildGraph(Object.keys(ring), (f) => ring[f]);
    // A type-only import ties modules as much as a call does; orders only imports, so it is outside.
    expect(moduleCycles(ringGraph, ringOf)).toEqual([['catalog', 'email', 'inventory']]);
    const oneWay = { ...ring, '/r/src/server/inventory/stock.ts': 'export const s = 1;\n' };
    expect(
      moduleCycles(
        buildGraph(Object.keys(oneWay), (f) => oneWay[f]),
        ringOf,
      ),
    ).toEqual([]);
    // Two pairs sharing orders make one group of three; the rule reports each of its imports as a pair.
    expect(moduleCycles(graph, moduleOf)).toEqual([['accounts', 'orders', 'payments']]);
  });
});
