/**
 * ./Dockerfile, checked without a Docker engine: the stages the issue asks for, every workspace
 * package in them, entry points that exist, a non-root user, a HEALTHCHECK on /healthz, and no
 * COPY of something .dockerignore keeps out of the build context.
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { copyOf, dockerfileStages, execForm, ignoredByDockerignore, type Stage } from './support/dockerfile.js';
import { readJson, readRepoFile, repoPath } from './support/repository.js';

const stages = dockerfileStages();
const stage = (name: string): Stage => {
  const found = stages.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`Dockerfile has no stage "${name}"`);
  return found;
};
const runs = (target: Stage): string[] => target.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const copies = (target: Stage) => target.instructions.filter((i) => i.keyword === 'COPY').map((i) => copyOf(i.args));
const PACKAGES = readdirSync(repoPath('packages'))
  .filter((name) => existsSync(repoPath('packages', name, 'package.json')))
  .sort();

/** The stage chain of `name` (its own instructions last). */
function lineage(name: string): Stage[] {
  const chain: Stage[] = [];
  for (let current = stages.find((s) => s.name === name); current !== undefined; current = stages.find((s) => s.name === current?.base)) {
    chain.unshift(current);
  }
  return chain;
}

describe('Dockerfile', () => {
  it('builds with `npm ci` and `npm run build`, then installs production dependencies only', () => {
    expect(runs(stage('build'))).toEqual(expect.arrayContaining(['npm ci --no-audit --no-fund', 'npm run build']));
    expect(runs(stage('production')).some((run) => /^npm ci --omit=dev\b/.test(run))).toBe(true);
    // node_modules of the build stage (with its devDependencies) never reach the runtime.
    expect(
      copies(stage('production'))
        .flatMap((copy) => copy.sources)
        .filter((source) => source.includes('node_modules')),
    ).toEqual([]);
  });

  it('copies the manifest of every workspace package before installing, in both stages', () => {
    for (const name of ['build', 'production']) {
      const copied = copies(stage(name)).flatMap((copy) => copy.sources);
      for (const pkg of PACKAGES) {
        expect(
          copied.some((source) => source.endsWith(`packages/${pkg}/package.json`)),
          `${name}: packages/${pkg}/package.json`,
        ).toBe(true);
      }
    }
  });

  it("copies the dist/ of every package the gateway and the worker import, and the consumer's", () => {
    const copied = copies(stage('production')).flatMap((copy) => copy.sources);
    const runtimePackages = PACKAGES.filter((pkg) => pkg !== 'testkit');
    for (const pkg of runtimePackages) expect(copied, pkg).toContain(`/app/packages/${pkg}/dist`);
  });

  it("puts `herald` and `herald-delivery` on the PATH, pointing at the packages' bin entries", () => {
    const script = runs(stage('production')).join('\n');
    const bins = {
      herald: (readJson('packages/gateway/package.json') as { bin: Record<string, string> }).bin.herald,
      'herald-delivery': (readJson('packages/delivery/package.json') as { bin: Record<string, string> }).bin['herald-delivery'],
    };
    expect(bins).toEqual({ herald: './dist/cli/main.js', 'herald-delivery': './dist/worker/main.js' });
    expect(script).toContain('exec node --max-semi-space-size=32 /app/packages/gateway/dist/cli/main.js "$@"\\n\' > /usr/local/bin/herald');
    expect(script).toContain('exec node --max-semi-space-size=32 /app/packages/delivery/dist/worker/main.js "$@"\\n\' > /usr/local/bin/herald-delivery');
    expect(existsSync(repoPath('packages/gateway/src/cli/main.ts'))).toBe(true);
    expect(existsSync(repoPath('packages/delivery/src/worker/main.ts'))).toBe(true);
  });

  it('runs as a non-root user', () => {
    for (const target of ['runtime', 'examples']) {
      const users = lineage(target).flatMap((s) => s.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args));
      expect(users.length, target).toBeGreaterThan(0);
      expect(users.at(-1), target).not.toMatch(/^(root|0)(:|$)/);
    }
  });

  it('defaults to `herald serve` with a HEALTHCHECK on /healthz (the last stage is the default target)', () => {
    const runtime = stage('runtime');
    expect(stages.at(-1)?.name).toBe('runtime');
    expect(execForm(runtime.instructions.find((i) => i.keyword === 'CMD')?.args ?? '')).toEqual(['herald', 'serve']);
    const healthcheck = runtime.instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    expect(execForm(healthcheck)).toEqual(['node', '/app/deploy/docker/healthcheck.mjs']);
    expect(readRepoFile('deploy/docker/healthcheck.mjs')).toContain("path: '/healthz'");
    expect(runtime.instructions.find((i) => i.keyword === 'EXPOSE')?.args.split(/\s+/)).toEqual(['8080', '9464']);
    // The gateway listens on 127.0.0.1 by default: a container must listen on every interface.
    expect(stage('production').instructions.some((i) => i.keyword === 'ENV' && /\bHOST=0\.0\.0\.0\b/.test(i.args))).toBe(true);
  });

  it('copies only files that exist and that .dockerignore lets into the context', () => {
    for (const target of stages) {
      for (const copy of copies(target)) {
        if (copy.from !== undefined) continue;
        for (const source of copy.sources) {
          expect(existsSync(repoPath(source)), `${target.name}: COPY ${source}`).toBe(true);
          expect(ignoredByDockerignore(source), `${target.name}: COPY ${source} is excluded by .dockerignore`).toBe(false);
        }
      }
    }
    // Sources the build compiles are in the context; tests, local state and secrets are not.
    for (const kept of ['packages/gateway/src/cli/main.ts', 'packages/delivery/tsconfig.build.json', 'examples/consumer-service/src/main.ts']) {
      expect(ignoredByDockerignore(kept), kept).toBe(false);
    }
    for (const excluded of [
      'node_modules/x',
      'packages/gateway/node_modules/x',
      'packages/store/dist/index.js',
      '.git/HEAD',
      '.env',
      '.herald/data',
      'packages/gateway/test/ops/x.ts',
    ]) {
      expect(ignoredByDockerignore(excluded), excluded).toBe(true);
    }
  });

  it('compiles the example service and the demo with configurations that exist', () => {
    const compiled = runs(stage('build')).join(' ');
    for (const project of compiled.matchAll(/tsc -p (\S+)/g)) {
      expect(existsSync(repoPath(project[1] as string)), project[1]).toBe(true);
    }
    const examples = stage('examples');
    expect(execForm(examples.instructions.find((i) => i.keyword === 'CMD')?.args ?? '')).toEqual(['node', 'examples/consumer-service/dist/main.js']);
  });
});
