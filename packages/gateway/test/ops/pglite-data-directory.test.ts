/**
 * docs/configuration.md: "several processes cannot share a PGlite data directory". A process that
 * opens a directory another process holds refuses to start, naming the holder, instead of writing
 * the same files as a second PostgreSQL; a lock left behind by a crash does not keep the next
 * process out, and a process that stops removes its lock. (The lock's own cases, without
 * processes: packages/store/test/database/data-directory-lock.test.ts.)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { herald, heraldDelivery, killIfRunning, type HeraldProcess } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'herald-ops-pglite-'));
const lockFile = join(dataDir, 'herald.lock');
const processes: HeraldProcess[] = [];

afterAll(async () => {
  for (const process of processes) killIfRunning(process);
  await Promise.all(processes.map((process) => process.exited));
  rmSync(dataDir, { recursive: true, force: true });
});

function start(run: () => HeraldProcess): HeraldProcess {
  const process = run();
  processes.push(process);
  return process;
}

describe('one process per PGlite data directory', () => {
  it('refuses a second process while the first runs, and lets the next one in after a crash', { timeout: 120_000 }, async () => {
    const env = { DATABASE_URL: `pglite://${dataDir}`, PORT: '0', HERALD_PROJECTS: 'shop' };
    const first = start(() => herald(['serve'], env));
    await first.waitFor('herald gateway listening');
    expect(existsSync(lockFile)).toBe(true);

    const second = start(() => herald(['serve'], env));
    const worker = start(() => heraldDelivery({ DATABASE_URL: env.DATABASE_URL, PORT: '0', HERALD_DELIVERY_HOST: '127.0.0.1' }));
    const [secondExit, workerExit] = await Promise.all([second.exitWithin(45_000), worker.exitWithin(45_000)]);
    const refusal = `data directory ${dataDir} is in use by pid ${first.child.pid}`;
    expect(secondExit?.[0], 'the second herald serve started on a directory another process holds').toBe(1);
    expect(second.stderr()).toContain(refusal);
    expect(second.stdout()).not.toContain('herald gateway listening');
    expect(workerExit?.[0], 'herald-delivery started on a directory another process holds').toBe(1);
    expect(worker.stderr()).toContain(refusal);
    expect(first.child.exitCode).toBeNull();

    // A crash leaves the lock file behind; its holder is gone, so the next process takes it over.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(lockFile)).toBe(true);
    const next = start(() => herald(['serve'], env));
    await next.waitFor('herald gateway listening');

    // A process that stops removes its lock.
    next.child.kill('SIGTERM');
    expect(await next.exitWithin(15_000)).toEqual([0, null]);
    expect(existsSync(lockFile)).toBe(false);
  });
});
