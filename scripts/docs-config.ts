/**
 * Moved: docs/configuration.md is generated from the one configuration table by
 * `npm run docs:config -w @herald/gateway` (packages/gateway/src/config/write-docs.ts). This file
 * only forwards to it, with its arguments (`--check`).
 */
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['run', 'docs:config', '-w', '@herald/gateway', '--', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exitCode = run.status ?? 1;
