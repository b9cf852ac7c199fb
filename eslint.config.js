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
