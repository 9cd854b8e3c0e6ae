/**
 * A PGlite data directory belongs to one process (docs/configuration.md, "Database"): the lock
 * file `herald.lock` refuses a second opener, and a lock left by a crash is taken over. The
 * process-level behaviour (a second `herald serve`) is in packages/gateway/test/ops.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirectoryInUseError, LOCK_FILE, lockDataDirectory } from '../../src/database/data-directory-lock.js';
import { openDatabase } from '../../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'herald-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
const freshDir = () => join(root, `dir-${(dirs += 1)}`);

const linux = existsSync('/proc/self/stat');
const readOptional = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined);
const startTicks = (pid: number) => {
  const stat = readOptional(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

/** A pid no process has (searching down from above Linux's largest pid_max). */
function deadPid(): number {
  for (let pid = 4_194_303; pid > 1; pid -= 1) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free pid');
}

function writeLock(dir: string, record: Record<string, unknown>): string {
  lockDataDirectory(dir).release(); // creates the directory
  const path = join(dir, LOCK_FILE);
  writeFileSync(path, JSON.stringify({ hostname: hostname(), startedAt: new Date().toISOString(), token: 'theirs', ...record }));
  return path;
}

const lockOwner = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number; token: string };

describe('PGlite data directory lock', () => {
  it('refuses a second open of a directory until the first closes, then reopens it with its data', { timeout: 60_000 }, async () => {
    const dir = freshDir();
    const first = await openDatabase(`pglite://${dir}`);
    try {
      expect(lockOwner(dir).pid).toBe(process.pid);
      await first.exec('CREATE TABLE lock_probe (n int); INSERT INTO lock_probe VALUES (42)');
      const second = openDatabase(`pglite://${dir}`);
      await expect(second).rejects.toThrow(DataDirectoryInUseError);
      await expect(second).rejects.toThrow(`data directory ${dir} is in use by pid ${process.pid}`);
    } finally {
      await first.close();
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    const reopened = await openDatabase(`pglite://${dir}`);
    try {
      expect((await reopened.query<{ n: number }>('SELECT n FROM lock_probe')).rows).toEqual([{ n: 42 }]);
    } finally {
      await reopened.close();
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a directory whose holder runs on this host', () => {
    const dir = freshDir();
    const other = process.ppid;
    const ticks = startTicks(other);
    const path = writeLock(dir, { pid: other, ...(ticks === undefined ? {} : { startTicks: ticks }) });
    expect(() => lockDataDirectory(dir)).toThrow(`data directory ${dir} is in use by pid ${other} on ${hostname()}`);
    expect(() => lockDataDirectory(dir)).toThrow(`delete ${path}`);
    expect(lockOwner(dir).token).toBe('theirs');
  });

  it('refuses a directory locked on another host while that lock is refreshed, and takes it over after', () => {
    const dir = freshDir();
    const path = writeLock(dir, { pid: deadPid(), hostname: 'elsewhere.example' });
    expect(() => lockDataDirectory(dir)).toThrow(/in use by pid \d+ on elsewhere\.example .*taken over 60 s after its last refresh/);
    const old = new Date(Date.now() - 61_000);
    utimesSync(path, old, old);
    lockDataDirectory(dir).release();
  });

  it('refreshes its lock for processes on other hosts', async () => {
    const dir = freshDir();
    const lock = lockDataDirectory(dir, { refreshMs: 20 });
    const old = new Date(Date.now() - 61_000);
    utimesSync(lock.path, old, old);
    await new Promise((done) => setTimeout(done, 200));
    expect(Date.now() - statSync(lock.path).mtimeMs).toBeLessThan(5_000);
    lock.release();
  });

  it('takes over the lock of a process that is gone (a crash)', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid() });
    const lock = lockDataDirectory(dir);
    expect(lockOwner(dir).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("takes over a lock with this process's pid that this process does not hold (a restarted container)", () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.pid });
    lockDataDirectory(dir).release();
  });

  it.runIf(linux)('takes over a lock whose pid now belongs to another process, or from an earlier boot', () => {
    const reused = freshDir();
    writeLock(reused, { pid: process.ppid, startTicks: '1' });
    lockDataDirectory(reused).release();

    const earlierBoot = freshDir();
    writeLock(earlierBoot, { pid: process.ppid, startTicks: startTicks(process.ppid), bootId: 'an-earlier-boot' });
    lockDataDirectory(earlierBoot).release();
  });

  it('treats a lock without a record as being written, and as stale once old', () => {
    const dir = freshDir();
    const path = writeLock(dir, {});
    writeFileSync(path, '');
    expect(() => lockDataDirectory(dir)).toThrow(/in use by another process starting on it/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    lockDataDirectory(dir).release();
  });

  it('does not take over while another process is taking it over, nor after that process crashed mid-way', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid() });
    const guard = join(dir, `${LOCK_FILE}.takeover`);
    writeFileSync(guard, '1');
    expect(() => lockDataDirectory(dir)).toThrow(/in use by another process starting on it/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(guard, old, old);
    lockDataDirectory(dir).release();
    expect(existsSync(guard)).toBe(false);
  });

  it('release removes only its own lock, once', () => {
    const dir = freshDir();
    const lock = lockDataDirectory(dir);
    expect(() => lockDataDirectory(dir)).toThrow(`in use by pid ${process.pid} (this process)`);
    // Someone deleted the file and another process locked the directory since.
    writeFileSync(lock.path, JSON.stringify({ pid: process.ppid, hostname: hostname(), token: 'theirs' }));
    lock.release();
    lock.release();
    expect(lockOwner(dir).token).toBe('theirs');
  });
});
