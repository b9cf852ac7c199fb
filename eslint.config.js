import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import fs from 'node:fs';
import { URL } from 'node:url';
import boundaries from './scripts/lint/module-boundaries.mjs';

// Client layers: a feature folder of src/client imports only ui/, lib/, cart/, src/shared and itself;
// ui/ and lib/ import each other and src/shared, never a feature. cart/ is the one feature others may
// import: the cart's state (store, quote, saved-cart sync, bought lines) is shown or changed by the
// header, the product pages, checkout, reorder and the order confirmation; it imports no other
// feature itself. The app-level files directly in src/client (app.tsx, routes.tsx, entry-server.tsx,
// main.tsx, …) compose the features and may import any of them. Relative paths only say where they
// lead given the importing file's depth, so there is one block per folder and depth. reviews/ is
// shared the same way (issue [6/8]): its stars are on the product cards and the product page, and the
// account links to its pages; it imports no other feature either.
const CLIENT_FEATURES = ['accounts', 'admin', 'cart', 'catalog', 'checkout', 'content', 'layout', 'marketing', 'orders', 'reviews', 'seo'];
const CLIENT_LAYERS = ['ui', 'lib'];
const SHARED_FEATURES = ['cart', 'reviews'];
const FEATURE_MESSAGE = 'A client feature imports only ui/, lib/, cart/, reviews/, src/shared and its own folder.';
const LAYER_MESSAGE = 'ui/ and lib/ import only ui/, lib/ and src/shared, never a feature.';
const MAX_DEPTH = 5;
// Each tab of the back office (src/client/admin/<tab>/, listed in admin-page.tsx) is a feature of its
// own: it imports the admin's shared parts (admin/api/, admin/components/), ui/, lib/, src/shared
// and itself, never another tab; the shared parts import no tab. admin-page.tsx, the shell, composes
// the tabs (decision 0056). Every other folder of src/client/admin is a tab, fenced as it appears.
const ADMIN_SHARED = ['api', 'components'];
const ADMIN_MESSAGE =
  'An admin tab imports only admin/api/, admin/components/, ui/, lib/, src/shared and its own folder (never another tab); admin/api/ and admin/components/ import no tab.';

// A new folder in src/client must be listed above, or its imports would go unchecked.
for (const entry of fs.readdirSync(new URL('./src/client/', import.meta.url), { withFileTypes: true })) {
  if (entry.isDirectory() && ![...CLIENT_FEATURES, ...CLIENT_LAYERS].includes(entry.name)) {
    throw new Error(`eslint.config.js: add src/client/${entry.name} to CLIENT_FEATURES (or CLIENT_LAYERS)`);
  }
}
const ADMIN_FOLDERS = fs
  .readdirSync(new URL('./src/client/admin/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** `no-restricted-imports` and the same regexes for `import()`: each regex names a path refused. */
function refusedImports(regexes, message) {
  const selector = (regex) => `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`;
  return {
    'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }],
    'no-restricted-syntax': ['error', ...regexes.map((regex) => ({ selector: selector(regex), message }))],
  };
}

/** Going up `depth` folders: only into the allowed folders (or further up). */
const onlyInto = (depth, allowed) => `^(\\.\\./){${depth}}(?!${allowed.map((f) => `${f}/`).join('|')}|\\.\\./)`;
/** Going up `depth` folders to src/client, then one more (src/): only shared/. */
const outOfClient = (depth) => `^(\\.\\./){${depth}}\\.\\./(?!shared/)`;

function clientLayerBlocks() {
  const blocks = [];
  for (const folder of [...CLIENT_FEATURES, ...CLIENT_LAYERS]) {
    const isLayer = CLIENT_LAYERS.includes(folder);
    const allowed = isLayer ? CLIENT_LAYERS : [...CLIENT_LAYERS, ...SHARED_FEATURES, folder];
    for (let depth = 1; depth <= MAX_DEPTH; depth++) {
      blocks.push({
        files: [`src/client/${folder}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
        rules: refusedImports([onlyInto(depth, allowed), outOfClient(depth)], isLayer ? LAYER_MESSAGE : FEATURE_MESSAGE),
      });
    }
  }
  // The admin's tabs and shared parts (later blocks replace the admin feature's rule for their files):
  // up to src/client/admin only its shared parts; a tab reaches them by the short path, never round
  // through ../admin/.
  for (const folder of ADMIN_FOLDERS) {
    for (let depth = 1; depth < MAX_DEPTH; depth++) {
      blocks.push({
        files: [`src/client/admin/${folder}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
        rules: refusedImports([onlyInto(depth, ADMIN_SHARED), onlyInto(depth + 1, CLIENT_LAYERS), outOfClient(depth + 1)], ADMIN_MESSAGE),
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
  'audit',
  'cart',
  'catalog',
  'checkout',
  'content',
  'coupons',
  'email',
  'files',
  'inventory',
  'marketing',
  'orders',
  'pages',
  'payments',
  'reviews',
  'shipping',
  'shipping-labels',
  'subscriptions',
];
const SERVER_LAYERS = ['db', 'lib', 'http'];
// No two domain modules import each other and no file imports itself round a cycle (issue [3/8],
// decision 0057): the rules below carry no allow-list any more.
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
const PAYMENT_TABLES = ['payment_sessions'];
const PAYMENT_MESSAGE =
  'Payment sessions belong to src/server/payments: open, adopt, complete and end them through its functions (sessions.ts, service.ts); other modules may only read them.';
const LOWER_LAYER_MESSAGE =
  'src/server/db and src/server/lib lie beneath the domain modules: they import only db/, lib/, config.ts and src/shared (never a module, http/ or app.ts).';

const ORDER_TABLES = ['orders', 'order_items', 'order_events'];
const ORDERS_MESSAGE =
  'Orders belong to src/server/orders: insert, update and delete orders, order_items and order_events through its functions (create-order.ts, checkout-state.ts, label-state.ts, customer-orders.ts, …); other modules may only read them.';

/**
 * The selectors that find SQL on `tables` in another module: Kysely builder calls naming the table
 * (`insertInto('orders')`, `updateTable('orders as o')`, …) and raw SQL (`sql` templates and
 * `sql.raw`). With `writesOnly`, only inserts, updates and deletes (the owner's alone; others may
 * read); without, any mention of the table (reads too). Reused for every table with one owner.
 */
function tableSqlSelectors(tables, message, { writesOnly = false } = {}) {
  const names = tables.join('|');
  const words = writesOnly
    ? `(insert\\s+(or\\s+\\w+\\s+)?into|update|delete\\s+from|merge\\s+into)\\s+"?(${names})\\b`
    : `\\b(${names})\\b`;
  return [
    writesOnly
      ? {
          selector: `CallExpression[callee.property.name=/^(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/] > Literal[value=/^(${names})( |$)/]`,
          message,
        }
      : { selector: `Literal[value=/^(${names})( |$)/]`, message },
    // The table named by a template literal (`updateTable(\`orders\`)`) is the same call.
    {
      selector: `CallExpression[callee.property.name=/^(${writesOnly ? 'insertInto|updateTable|deleteFrom|replaceInto|mergeInto' : '\\w+'})$/] > TemplateLiteral > TemplateElement[value.raw=/^(${names})( |$)/]`,
      message,
    },
    { selector: `TaggedTemplateExpression[tag.name='sql'] TemplateElement[value.raw=/${words}/i]`, message },
    { selector: `CallExpression[callee.object.name='sql'][callee.property.name='raw'] Literal[value=/${words}/i]`, message },
  ];
}

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
  // Every table has one owner (CONVENTIONS 9): only its module touches it, others call its functions.
  // Stock (decision 0022): only src/server/inventory reads or writes its tables and the product's
  // stock copy (`products.inventory`, written in step with the ledger). The catalogue owns the
  // variants (decision 0036): only src/server/catalog writes product_variants and product_options.
  // Orders (decision 0048): only src/server/orders inserts, updates or deletes orders, order_items
  // and order_events; the rest read them. Migrations describe the schema; the seeds' bulk insert
  // hands its products to the modules. One `no-restricted-syntax` per folder holds every rule that
  // applies there (a later block's options replace an earlier one's).
  const stockSelectors = [
    ...tableSqlSelectors(STOCK_TABLES, STOCK_MESSAGE),
    { selector: "CallExpression[callee.property.name=/^(set|values)$/] Property[key.name='inventory']", message: STOCK_MESSAGE },
    {
      selector: 'CallExpression[callee.property.name=/^(select|selectAll)$/] Literal[value=/(^|\\.)inventory$/]',
      message: STOCK_MESSAGE,
    },
  ];
  const owners = [
    { folder: 'inventory', selectors: stockSelectors },
    { folder: 'catalog', selectors: tableSqlSelectors(CATALOG_TABLES, CATALOG_MESSAGE, { writesOnly: true }) },
    { folder: 'orders', selectors: tableSqlSelectors(ORDER_TABLES, ORDERS_MESSAGE, { writesOnly: true }) },
    // Payments own their sessions (decision 0049): only src/server/payments writes payment_sessions.
    { folder: 'payments', selectors: tableSqlSelectors(PAYMENT_TABLES, PAYMENT_MESSAGE, { writesOnly: true }) },
  ];
  const exempt = ['src/server/db/migrations/**', 'src/server/db/seed/**', ...ROUTE_FILES, ...SERVER_TESTS];
  const ownerFolders = owners.map((o) => `src/server/${o.folder}/**`);
  blocks.push({
    files: ['src/server/**/*.ts'],
    ignores: [...ownerFolders, ...exempt],
    rules: { 'no-restricted-syntax': ['error', ...owners.flatMap((o) => o.selectors)] },
  });
  for (const owner of owners) {
    blocks.push({
      files: [`src/server/${owner.folder}/**/*.ts`],
      ignores: exempt,
      rules: { 'no-restricted-syntax': ['error', ...owners.filter((o) => o !== owner).flatMap((o) => o.selectors)] },
    });
  }
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
    // Domain modules depend on each other one way only, and no file imports itself round a cycle
    // (scripts/lint/module-boundaries.mjs, decisions 0051 and 0057).
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    rules: {
      'boundaries/no-mutual-module-imports': ['error', { root: 'src/server', modules: SERVER_MODULES }],
      'boundaries/no-import-cycles': ['error', { root: 'src' }],
    },
  },
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
