import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**', '.tmp/**', '.herald/**'] },
  { languageOptions: { globals: { ...globals.node } } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read configuration in entry points only.' },
      ],
    },
  },
  {
    // Entry points, scripts, tests and benchmarks may read the environment.
    files: ['scripts/**', '**/test/**', '**/bench/**', '**/*.test.ts', '**/cli/**', '**/worker/main.ts', '**/vitest.*.ts', '**/services/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
