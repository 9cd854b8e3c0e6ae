/**
 * `npm run pack -- <dir>` (or `tsx scripts/pack.ts <dir>`): builds @herald/consumer and the model it
 * depends on, and writes an installable tarball to <dir> (printing its path). @herald/model is not
 * published: it is bundled (npm `bundleDependencies`), its compiled files inside the consumer's
 * tarball under node_modules/@herald/model, so installing the tarball needs nothing from this
 * repository. npm pack cannot bundle a workspace package by itself (the workspace links it at the
 * root), hence the staging directory. Workspace-only export conditions and devDependencies are
 * left out of the staged package.json files.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

type Exports = Record<string, Record<string, string>>;
interface PackageJson {
  name: string;
  version: string;
  exports: Exports;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  private?: boolean;
  [field: string]: unknown;
}

const consumerDir = resolve(import.meta.dirname, '..');
const modelDir = resolve(consumerDir, '..', 'model');

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** The package.json as installed: no workspace source condition, no dev tooling. */
function published(pkg: PackageJson): PackageJson {
  const exports: Exports = {};
  for (const [path, conditions] of Object.entries(pkg.exports)) {
    exports[path] = Object.fromEntries(Object.entries(conditions).filter(([condition]) => condition !== '@herald/source'));
  }
  const { devDependencies: _dev, scripts: _scripts, private: _private, ...rest } = pkg;
  return { ...rest, exports };
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

const destination = resolve(process.argv[2] ?? '.');
mkdirSync(destination, { recursive: true });
run('npx', ['tsc', '-p', 'tsconfig.build.json'], modelDir);
run('npm', ['run', 'build', '--silent'], consumerDir);

const stage = mkdtempSync(join(tmpdir(), 'herald-consumer-pack-'));
try {
  const consumer = readPackage(consumerDir);
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published(consumer), null, 2)}\n`);
  cpSync(join(consumerDir, 'dist'), join(stage, 'dist'), { recursive: true });
  cpSync(join(consumerDir, 'README.md'), join(stage, 'README.md'));
  const modelStage = join(stage, 'node_modules', '@herald', 'model');
  mkdirSync(modelStage, { recursive: true });
  writeFileSync(join(modelStage, 'package.json'), `${JSON.stringify(published(readPackage(modelDir)), null, 2)}\n`);
  cpSync(join(modelDir, 'dist'), join(modelStage, 'dist'), { recursive: true });
  const output = run('npm', ['pack', '--json', '--pack-destination', destination], stage);
  const [{ filename }] = JSON.parse(output) as [{ filename: string }];
  console.log(join(destination, filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
