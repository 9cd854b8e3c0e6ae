import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ViteUserConfig } from 'vitest/config';

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

export function sharedTestConfig(packageDir: string): ViteUserConfig {
  return {
    resolve: { alias: workspaceAliases() },
    test: {
      root: packageDir,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // PGlite instances and local peers are heavy; two cores are all CI has.
      pool: 'forks',
      maxWorkers: 2,
      env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', METADATA_SERVER_DETECTION: 'none' },
    },
  };
}
