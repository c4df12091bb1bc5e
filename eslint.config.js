import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';

// Imports flow one way: shared (lib, components, config, types) → features → app. A feature never imports
// another feature: what two features share moves down to lib/ or components/.
const features = readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const importZones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature; move what they share to src/lib or src/components.',
  })),
  {
    target: ['./src/lib', './src/components', './src/config', './src/types', './src/features'],
    from: './src/app',
    message: 'Only src/app imports src/app.',
  },
  {
    target: ['./src/lib', './src/components', './src/config', './src/types'],
    from: './src/features',
    message: 'Shared code does not import features.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.stack',
      'scratch',
      'artifacts',
      'supabase/functions',
      'stack/deno',
      'stack/tests/fixtures/functions-project/functions',
      'src/types/database.ts',
    ],
  },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh, 'import-x': importX },
    // Imports name their files with the extension, so Node's own resolution finds every one.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Providers export their hook beside the component on purpose; fast refresh falls back to a reload there.
      'react-refresh/only-export-components': 'off',
      'import-x/no-restricted-paths': ['error', { zones: importZones }],
      // Modules that import each other load half-initialised and cannot be read one at a time. The rule sees
      // value imports; type-only loops (erased at build time) it passes over.
      'import-x/no-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The stack is a package of the workspace: the rest of the repository uses what its entry point exports, so
    // the stack's inside can change without reaching into the app, its tests or the benchmarks.
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', '*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)stack/(src|deno|tests)(/|$)',
              message: "Use the stack through its entry point: import { … } from '@mediateca/stack'.",
            },
          ],
        },
      ],
    },
  },
);
