import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProjectInlineConfiguration, ViteUserConfig } from 'vitest/config';

const packagesDir = resolve(import.meta.dirname, 'packages');

/**
 * Tests run against the TypeScript sources of sibling packages (no build step needed),
 * so every `@herald/<name>` import is aliased to `packages/<name>/src/index.ts`.
 */
function workspaceAliases(): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const name of readdirSync(packagesDir)) {
    aliases[`@herald/${name}`] = join(packagesDir, name, 'src', 'index.ts');
  }
  return aliases;
}

export interface SharedTestOptions {
  /**
   * Test files share their worker's module graph instead of importing everything again: with
   * isolation each of the gateway's ~130 files re-imported the app (Fastify, Mercurius, the AWS
   * SDKs), which was most of the suite's time on two cores. Safe where files leave no process
   * state behind (every server, database and stubbed variable is closed or restored in afterAll).
   */
  shareModules?: boolean;
  /**
   * Files that still get a fresh process of their own: those observing something a process does
   * only once (e.g. Fastify emits each deprecation warning once per process).
   */
  isolatedFiles?: readonly string[];
}

/** A project of modules shared per worker, and one of isolated files when there are any. */
function sharingProjects(include: string[], isolated: string[]): TestProjectInlineConfiguration[] {
  const shared: TestProjectInlineConfiguration = { extends: true, test: { name: 'shared', isolate: false, include, exclude: isolated } };
  if (isolated.length === 0) return [shared];
  return [shared, { extends: true, test: { name: 'isolated', isolate: true, include: isolated } }];
}

export function sharedTestConfig(packageDir: string, options: SharedTestOptions = {}): ViteUserConfig {
  const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];
  const isolated = [...(options.isolatedFiles ?? [])];
  return {
    resolve: { alias: workspaceAliases() },
    test: {
      root: packageDir,
      // Projects extend this config and arrays merge: with projects, each names its own files.
      ...(options.shareModules === true ? {} : { include }),
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // PGlite instances and local peers are heavy; two cores are all CI has.
      pool: 'forks',
      maxWorkers: 2,
      env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', METADATA_SERVER_DETECTION: 'none' },
      ...(options.shareModules === true ? { projects: sharingProjects(include, isolated) } : {}),
    },
  };
}
