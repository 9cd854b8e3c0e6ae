/**
 * Dependency checks run by `npm test` (scripts/check-dependencies.ts) and so by CI:
 *
 * 1. Every package a workspace package imports from its src, test, bench or scripts is declared in
 *    THAT package's package.json. npm workspaces hoist everything into the root node_modules, so an
 *    undeclared import works here and breaks for whoever installs the package alone.
 * 2. Code that ships (src, not its tests) never imports a devDependency.
 * 3. Workspace packages depend one way (ARCHITECTURE.md, "Packages"):
 *    model ← store ← delivery ← gateway, model ← consumer; @herald/testkit only from tests,
 *    benches and scripts; no package reaches into another one's files by relative path.
 *
 * Workspace packages are resolved through their node_modules links (preserveSymlinks), so
 * `@herald/store` is an npm dependency like any other: declared or not, and matched by the
 * direction rules as `node_modules/@herald/store/…`.
 */

/** What each package's code may import from the workspace (transitively allowed names included). */
const WORKSPACE_LAYERS = {
  model: [],
  store: ['model'],
  delivery: ['model', 'store'],
  gateway: ['model', 'store', 'delivery'],
  consumer: ['model'],
  testkit: ['model'],
};

/** Files that are not shipped: tests, benchmarks, build and test scripts. */
const NOT_SHIPPED = '(/(test|bench|scripts)/|\\.test\\.ts$)';

// dependency-cruiser counts a `peerDependenciesMeta` entry as a package.json key of its own
// ("npm-no-pkg"), so "not declared" means: found in no dependency list at all.
const DECLARED = ['npm', 'npm-dev', 'npm-peer', 'npm-optional'];

/**
 * What a package's tests (not its shipped code) may import besides its layers: the gateway's ops
 * tests check that the Grafana dashboards chart metrics the consumer really registers.
 */
const TEST_ONLY_LAYERS = { gateway: ['consumer'] };

/** Two rules per package: the workspace packages its shipped code, and its tests, must not import. */
function directionRules() {
  return Object.entries(WORKSPACE_LAYERS).flatMap(([name, allowed]) => {
    const testOnly = TEST_ONLY_LAYERS[name] ?? [];
    const rule = (suffix, from, permitted) => ({
      name: `layers-${name}${suffix}`,
      comment: `@herald/${name} may import @herald/{${permitted.join(', ')}} only (ARCHITECTURE.md: dependencies point one way)`,
      severity: 'error',
      from,
      to: { path: '^node_modules/@herald/', pathNot: `^node_modules/@herald/(${[name, 'testkit', ...permitted].join('|')})/` },
    });
    return [
      rule('', { path: `^packages/${name}/`, pathNot: NOT_SHIPPED }, allowed),
      rule('-tests', { path: `^packages/${name}/(test|bench|scripts)/` }, [...allowed, ...testOnly]),
    ];
  });
}

module.exports = {
  forbidden: [
    {
      name: 'undeclared-package',
      comment: "an imported package is missing from the importing package's package.json (hoisting hides it here)",
      severity: 'error',
      from: { path: '^packages/[^/]+/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'], dependencyTypesNot: DECLARED },
    },
    {
      name: 'shipped-code-imports-dev-dependency',
      comment: 'src imports a devDependency: it is not installed with the package',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: NOT_SHIPPED },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['npm', 'npm-peer', 'npm-optional'] },
    },
    ...directionRules(),
    {
      name: 'testkit-outside-tests',
      comment: '@herald/testkit is dev-only: tests, benchmarks and scripts may use it, shipped code not',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: `(^packages/testkit/|${NOT_SHIPPED})` },
      to: { path: '^node_modules/@herald/testkit/' },
    },
    {
      name: 'relative-path-into-another-package',
      comment: 'import another workspace package by its name (@herald/…), not by a relative path into its files',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/', pathNot: '^packages/$1/' },
    },
    {
      name: 'not-resolvable',
      comment: 'an import that resolves to nothing',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    includeOnly: { path: ['^packages/[^/]+/(src|test|bench|scripts)/', '^node_modules/'] },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // Each file is judged by the package.json nearest to it, not the root's.
    combinedDependencies: false,
    preserveSymlinks: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // `@herald/source` is the workspace condition pointing at the TypeScript sources.
      conditionNames: ['@herald/source', 'import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
