import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import fs from 'node:fs';
import { URL } from 'node:url';

// Client layers: a feature folder of src/client imports only ui/, lib/, src/shared and itself;
// ui/ and lib/ import each other and src/shared, never a feature. The app-level files directly in
// src/client (app.tsx, routes.tsx, entry-server.tsx, main.tsx, …) compose the features and may
// import any of them. Relative paths only say where they lead given the importing file's depth, so
// there is one block per folder and depth.
const CLIENT_FEATURES = ['accounts', 'admin', 'cart', 'catalog', 'checkout', 'content', 'layout', 'orders', 'seo'];
const CLIENT_LAYERS = ['ui', 'lib'];
const FEATURE_MESSAGE = 'A client feature imports only ui/, lib/, src/shared and its own folder.';
const LAYER_MESSAGE = 'ui/ and lib/ import only ui/, lib/ and src/shared, never a feature.';
const MAX_DEPTH = 5;

// A new folder in src/client must be listed above, or its imports would go unchecked.
for (const entry of fs.readdirSync(new URL('./src/client/', import.meta.url), { withFileTypes: true })) {
  if (entry.isDirectory() && ![...CLIENT_FEATURES, ...CLIENT_LAYERS].includes(entry.name)) {
    throw new Error(`eslint.config.js: add src/client/${entry.name} to CLIENT_FEATURES (or CLIENT_LAYERS)`);
  }
}

function clientLayerBlocks() {
  const blocks = [];
  for (const folder of [...CLIENT_FEATURES, ...CLIENT_LAYERS]) {
    const allowed = CLIENT_LAYERS.includes(folder) ? CLIENT_LAYERS : [...CLIENT_LAYERS, folder];
    const message = CLIENT_LAYERS.includes(folder) ? LAYER_MESSAGE : FEATURE_MESSAGE;
    for (let depth = 1; depth <= MAX_DEPTH; depth++) {
      const up = `(\\.\\./){${depth}}`;
      // Up to src/client: only the allowed folders. One more level up (src/): only shared/.
      const intoClient = `^${up}(?!${allowed.map((f) => `${f}/`).join('|')}|\\.\\./)`;
      const outOfClient = `^${up}\\.\\./(?!shared/)`;
      const selector = (regex) => `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`;
      blocks.push({
        files: [`src/client/${folder}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                { regex: intoClient, message },
                { regex: outOfClient, message },
              ],
            },
          ],
          'no-restricted-syntax': ['error', { selector: selector(intoClient), message }, { selector: selector(outOfClient), message }],
        },
      });
    }
  }
  return blocks;
}

// Server layers. Each domain module (src/server/<module>/) keeps its SQL in its services; its route
// files (routes.ts, *-routes.ts: Fastify plugins over those services) hold none, and only app.ts,
// which puts each route in its surface (http/access.ts), imports a route file. db/ and lib/ lie
// beneath the modules: they import only each other, config.ts and src/shared (db/seed/ builds demo
// data with the modules' own rules, so it may use them; migrations import nothing, see below).
const SERVER_MODULES = [
  'accounts',
  'cart',
  'catalog',
  'checkout',
  'content',
  'coupons',
  'email',
  'inventory',
  'orders',
  'pages',
  'payments',
  'shipping',
  'shipping-labels',
];
const SERVER_LAYERS = ['db', 'lib', 'http'];
// Tests across modules, and the test harness.
const SERVER_TEST_FOLDERS = ['security', 'test'];
const SERVER_LOWER_LAYERS = ['db', 'lib'];
const SERVER_TESTS = ['src/**/*.test.ts', ...SERVER_TEST_FOLDERS.map((f) => `src/server/${f}/**`)];
const ROUTE_FILES = SERVER_MODULES.flatMap((m) => [`src/server/${m}/**/routes.ts`, `src/server/${m}/**/*-routes.ts`]);

for (const entry of fs.readdirSync(new URL('./src/server/', import.meta.url), { withFileTypes: true })) {
  if (entry.isDirectory() && ![...SERVER_MODULES, ...SERVER_LAYERS, ...SERVER_TEST_FOLDERS].includes(entry.name)) {
    throw new Error(`eslint.config.js: add src/server/${entry.name} to SERVER_MODULES (or SERVER_LAYERS)`);
  }
}

const ROUTE_IMPORT = {
  regex: '(^|/)([\\w-]+-)?routes\\.js$',
  message: "Only src/server/app.ts imports a route file (it puts each route in its surface): move what you need into the module's service.",
};
const NO_SQL_MESSAGE =
  "No SQL in a route file: put the query in a named function of the module's service (./service.ts) that returns data.";
const SQL_IN_ROUTES = {
  'no-restricted-syntax': [
    'error',
    {
      selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|transaction)$/]',
      message: NO_SQL_MESSAGE,
    },
    { selector: "TaggedTemplateExpression[tag.name='sql']", message: NO_SQL_MESSAGE },
  ],
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'kysely', importNames: ['sql'], message: NO_SQL_MESSAGE }],
      patterns: [ROUTE_IMPORT, { regex: '(^|/)db/(locks|query-helpers)\\.js$', message: NO_SQL_MESSAGE }],
    },
  ],
};
const STOCK_TABLES = ['stock_items', 'stock_movements', 'stock_reservations', 'back_in_stock_requests'];
const STOCK_MESSAGE =
  'Stock belongs to src/server/inventory: read and change it through its functions (stock.ts, reservations.ts, order-stock.ts, service.ts), never its tables or products.inventory.';
const CATALOG_TABLES = ['product_variants', 'product_options'];
const CATALOG_MESSAGE =
  'Products and their variants belong to src/server/catalog: change variants and options through its functions (catalog/variants.ts); other modules may only read them.';
const LOWER_LAYER_MESSAGE =
  'src/server/db and src/server/lib lie beneath the domain modules: they import only db/, lib/, config.ts and src/shared (never a module, http/ or app.ts).';

function serverLayerBlocks() {
  const blocks = [
    {
      // Services and the layers: no route file (only app.ts composes them).
      files: ['src/server/**/*.ts'],
      ignores: ['src/server/app.ts', ...SERVER_TESTS],
      rules: { 'no-restricted-imports': ['error', { patterns: [ROUTE_IMPORT] }] },
    },
    { files: ROUTE_FILES, ignores: [...SERVER_TESTS], rules: SQL_IN_ROUTES },
  ];
  // Stock has one owner (CONVENTIONS 9, decision 0022): only src/server/inventory reads or writes its
  // tables and the product's stock copy (`products.inventory`, written in step with the ledger).
  // The catalogue owns the variants (decision 0036): only src/server/catalog writes product_variants
  // and product_options; inventory, the cart, orders and labels read them. Migrations describe the
  // schema; the seeds' bulk insert hands its products to the modules. One `no-restricted-syntax`
  // holds both rules where both apply (a later block's options replace an earlier one's).
  const stockSelectors = [
    { selector: `Literal[value=/^(${STOCK_TABLES.join('|')})( |$)/]`, message: STOCK_MESSAGE },
    { selector: "CallExpression[callee.property.name=/^(set|values)$/] Property[key.name='inventory']", message: STOCK_MESSAGE },
    {
      selector: 'CallExpression[callee.property.name=/^(select|selectAll)$/] Literal[value=/(^|\\.)inventory$/]',
      message: STOCK_MESSAGE,
    },
  ];
  const catalogSelectors = [
    {
      selector: `CallExpression[callee.property.name=/^(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/] > Literal[value=/^(${CATALOG_TABLES.join('|')})( |$)/]`,
      message: CATALOG_MESSAGE,
    },
    {
      selector: `TemplateElement[value.raw=/(insert\\s+into|update|delete\\s+from)\\s+"?(${CATALOG_TABLES.join('|')})\\b/i]`,
      message: CATALOG_MESSAGE,
    },
  ];
  const exempt = ['src/server/db/migrations/**', 'src/server/db/seed/**', ...ROUTE_FILES, ...SERVER_TESTS];
  blocks.push(
    {
      files: ['src/server/**/*.ts'],
      ignores: ['src/server/inventory/**', 'src/server/catalog/**', ...exempt],
      rules: { 'no-restricted-syntax': ['error', ...stockSelectors, ...catalogSelectors] },
    },
    { files: ['src/server/catalog/**/*.ts'], ignores: exempt, rules: { 'no-restricted-syntax': ['error', ...stockSelectors] } },
    { files: ['src/server/inventory/**/*.ts'], ignores: exempt, rules: { 'no-restricted-syntax': ['error', ...catalogSelectors] } },
  );
  for (const folder of SERVER_LOWER_LAYERS) {
    for (let depth = 1; depth <= MAX_DEPTH; depth++) {
      // Up to src/server: only the lower layers and config.ts. One more level up (src/): only shared/.
      const allowed = [...SERVER_LOWER_LAYERS.map((f) => `${f}/`), 'config\\.js$', '\\.\\./shared/'];
      blocks.push({
        files: [`src/server/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
        ignores: ['src/server/db/seed/**', 'src/server/db/migrations/**', ...SERVER_TESTS],
        rules: {
          'no-restricted-imports': [
            'error',
            { patterns: [ROUTE_IMPORT, { regex: `^(\\.\\./){${depth}}(?!${allowed.join('|')})`, message: LOWER_LAYER_MESSAGE }] },
          ],
        },
      });
    }
  }
  return blocks;
}

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'public/**', 'bench-results/**', 'test-results/**', 'backups/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      // Type information for the rules that need it (promises handled, not dropped).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A promise is awaited, returned, or marked `void` on purpose; never handed to a caller that ignores it.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['src/client/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // Only config.ts reads the environment.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/config.ts', 'src/server/test/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts' },
      ],
    },
  },
  ...clientLayerBlocks(),
  ...serverLayerBlocks(),
  {
    // Migrations describe the schema as it was: they import nothing from the app, whose code moves on.
    files: ['src/server/db/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./',
              message: 'A migration imports nothing from the app (only kysely and other migrations): copy what it needs, frozen.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.{js,mjs}', '*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  // Formatting is Prettier's (`npm run format`); no lint rule argues with it.
  prettier,
);
