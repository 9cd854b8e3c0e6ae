/**
 * The dependency checks `npm test` runs (.dependency-cruiser.cjs, issue 26 point 5) catch what they
 * exist for. A throwaway workspace laid out like this repository (packages linked into
 * node_modules as npm does) holds one file per kind of violation and one that breaks nothing; the
 * real dependency-cruiser with the repository's configuration must name exactly those violations.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from './support/repository.js';

const run = promisify(execFile);

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** A workspace package: its manifest (with the source export condition) and its files. */
function writePackage(root: string, name: string, manifest: Manifest, files: Record<string, string>): void {
  const dir = join(root, 'packages', name);
  const exportsField = { '.': { '@herald/source': './src/index.ts' } };
  writeFile(join(dir, 'package.json'), JSON.stringify({ name: `@herald/${name}`, version: '0.1.0', type: 'module', exports: exportsField, ...manifest }));
  writeFile(join(dir, 'src', 'index.ts'), 'export const name = 1;\n');
  for (const [path, text] of Object.entries(files)) writeFile(join(dir, path), text);
  mkdirSync(join(root, 'node_modules', '@herald'), { recursive: true });
  symlinkSync(join('..', '..', 'packages', name), join(root, 'node_modules', '@herald', name));
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const MODEL = { dependencies: { '@herald/model': '0.1.0' } };

function layOutWorkspace(root: string): void {
  writeFile(join(root, 'package.json'), JSON.stringify({ name: 'fixture', private: true, workspaces: ['packages/*'] }));
  // An npm package that no workspace package declares (hoisting makes it importable anyway).
  writeFile(join(root, 'node_modules', 'hoisted-only', 'package.json'), JSON.stringify({ name: 'hoisted-only', main: 'index.js' }));
  writeFile(join(root, 'node_modules', 'hoisted-only', 'index.js'), 'module.exports = 1;\n');
  writePackage(root, 'model', {}, {});
  writePackage(root, 'testkit', {}, {});
  writePackage(
    root,
    'delivery',
    { dependencies: { '@herald/store': '0.1.0', '@herald/model': '0.1.0' } },
    {
      'src/allowed.ts': "import { name } from '@herald/store';\nexport const a = name;\n",
    },
  );
  writePackage(
    root,
    'store',
    { ...MODEL, devDependencies: { '@herald/testkit': '0.1.0' } },
    {
      'src/upward.ts': "import { name } from '@herald/delivery';\nexport const a = name;\n",
      'src/undeclared.ts': "import value from 'hoisted-only';\nexport const a = value;\n",
      'src/uses-testkit.ts': "import { name } from '@herald/testkit';\nexport const a = name;\n",
      'test/reaches.test.ts': "import { name } from '../../model/src/index.js';\nexport const a = name;\n",
      'test/allowed.test.ts': "import { name } from '@herald/testkit';\nimport { name as m } from '@herald/model';\nexport const a = [name, m];\n",
    },
  );
}

interface Violation {
  rule: { name: string };
  from: string;
}

async function cruise(root: string): Promise<string[]> {
  const cli = repoPath('node_modules', '.bin', 'depcruise');
  const args = ['packages', '--config', repoPath('.dependency-cruiser.cjs'), '--output-type', 'json'];
  // depcruise exits non-zero when it finds violations; the JSON report is on stdout either way.
  const { stdout } = await run(cli, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout: string }) => error);
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((violation) => `${violation.rule.name} ${violation.from}`).sort();
}

describe('dependency checks (.dependency-cruiser.cjs)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'herald-depcruise-'));
    layOutWorkspace(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fail an upward import, an undeclared package, testkit in shipped code and a relative reach into another package', async () => {
    expect(await cruise(root)).toEqual([
      'layers-store packages/store/src/upward.ts',
      'relative-path-into-another-package packages/store/test/reaches.test.ts',
      'shipped-code-imports-dev-dependency packages/store/src/uses-testkit.ts',
      'testkit-outside-tests packages/store/src/uses-testkit.ts',
      'undeclared-package packages/store/src/undeclared.ts',
      'undeclared-package packages/store/src/upward.ts',
    ]);
  }, 120_000);
});
