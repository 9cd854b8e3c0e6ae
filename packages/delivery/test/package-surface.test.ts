/**
 * `@herald/delivery` exports by name what other packages use, and nothing else (issue 26, point 4):
 * the names src/index.ts exports are exactly the names the other packages' sources, tests and
 * benches and the repository's scripts import from it. An export nobody imports any more, or an
 * `export *` that widens the surface unseen, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGE = resolve(import.meta.dirname, '..');
const REPOSITORY = resolve(PACKAGE, '../..');
const SOURCE = /\.(ts|mts|mjs)$/;

function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : SOURCE.test(entry.name) ? [path] : [];
  });
}

/**
 * The names in `{ a, type B, c as d }`, split at `separator` (` as `, or `:` in a destructuring):
 * the `first` part is the name in the module imported from, the `last` the name it is given.
 */
function namesIn(list: string, separator: RegExp, part: 'first' | 'last'): string[] {
  return list
    .split(',')
    .map((item) =>
      item
        .trim()
        .replace(/^type\s+/, '')
        .split(separator),
    )
    .map((parts) => (part === 'first' ? parts[0] : parts.at(-1))?.trim() ?? '')
    .filter((name) => name !== '');
}

/**
 * Static imports and re-exports, and `const { … } = await import(…)`, of `@herald/delivery`; only
 * statements that begin a line, so that source text inside strings (test fixtures) is not taken.
 */
function importedNames(text: string): string[] {
  const fromStatements = [...text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]@herald\/delivery['"]/gm)];
  const fromDynamic = [...text.matchAll(/^\s*const\s*\{([^}]*)\}\s*=\s*await\s+import\(\s*['"]@herald\/delivery['"]\s*\)/gm)];
  return [
    ...fromStatements.flatMap((match) => namesIn(match[1] ?? '', /\s+as\s+/, 'first')),
    ...fromDynamic.flatMap((match) => namesIn(match[1] ?? '', /:/, 'first')),
  ];
}

function usedByOtherPackages(): Set<string> {
  const packages = readdirSync(join(REPOSITORY, 'packages')).filter((name) => name !== 'delivery');
  const roots = [...packages.flatMap((name) => ['src', 'test', 'bench'].map((dir) => join(REPOSITORY, 'packages', name, dir))), join(REPOSITORY, 'scripts')];
  return new Set(roots.flatMap(filesUnder).flatMap((file) => importedNames(readFileSync(file, 'utf8'))));
}

describe('the package surface', () => {
  const index = readFileSync(join(PACKAGE, 'src', 'index.ts'), 'utf8');

  it('exports by name only', () => {
    expect(index).not.toMatch(/export\s+\*/);
  });

  it('exports exactly what other packages import from it', () => {
    const exported = [...index.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from/g)].flatMap((match) => namesIn(match[1] ?? '', /\s+as\s+/, 'last'));
    expect(new Set(exported).size).toBe(exported.length);
    expect([...exported].sort()).toEqual([...usedByOtherPackages()].sort());
  });
});
