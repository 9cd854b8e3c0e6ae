import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * An exclusive lock on a PGlite data directory. PGlite is PostgreSQL in the process, without the
 * postmaster that guards a data directory (`postmaster.pid`): two processes opening one directory
 * would both write its files. So the process that opens a directory first creates `herald.lock`
 * in it with O_CREAT|O_EXCL (`wx`), writes who it is, and removes it on close (and at exit, if it
 * was never closed). A second process finds the file and refuses to start, unless the file is
 * stale.
 *
 * What is recorded, and why. A crash (SIGKILL, OOM, power loss) leaves the file behind, so a lock
 * whose holder is gone must be taken over without an operator; a lock whose holder runs must never
 * be. The pid alone (`process.kill(pid, 0)`) answers "some process has that pid", which after a
 * reboot or a container restart is often another process: a container's main process has the same
 * small pid (often 1) at every start. So the record holds:
 * - `pid` and `hostname`: the pid means something only on the host that wrote it. A lock written
 *   on another host (another container sharing the volume, a network file system) cannot be
 *   checked by pid. For it, the holder refreshes the file's modification time every 10 s, and a
 *   foreign lock not refreshed for 60 s is stale: a container recreated after a crash gets in after
 *   at most a minute (its restart policy retries), while a second container started next to a
 *   running one is refused. (A holder whose event loop stalls for a minute, or hosts whose clocks
 *   differ by that much, defeat this; both are far from the single-process use PGlite is for.)
 * - on Linux, `bootId` (/proc/sys/kernel/random/boot_id) and `startTicks` (the process's start time
 *   in clock ticks since boot, /proc/PID/stat): a lock from an earlier boot is stale, and so is one
 *   whose pid now belongs to a process that started at another time (the pid was reused). Both are
 *   exact, unlike wall-clock times, which NTP may move. Elsewhere only the pid is checked.
 * - our own pid in a lock this process does not hold (a restarted container's pid 1, say) is the
 *   lock of an earlier process: stale. (Two containers given the same hostname and sharing the
 *   volume would therefore not see each other: hostnames must tell hosts apart.)
 * - `token`, random per acquisition: a process removes the file only while it holds its own token.
 *
 * Taking a stale lock over (delete, then create again) happens under a second, short-lived file
 * `herald.lock.takeover`, so that two processes starting together after a crash cannot both delete
 * and recreate it: the second sees the first's new lock, alive.
 */
export const LOCK_FILE = 'herald.lock';
const TAKEOVER_FILE = 'herald.lock.takeover';
/** A lock or takeover file without a complete record this old was left by a crash mid-write. */
const INCOMPLETE_STALE_MS = 10_000;
/** How often a holder refreshes its lock's modification time, for processes on other hosts. */
const REFRESH_MS = 10_000;
/** A lock from another host not refreshed for this long is stale. */
const FOREIGN_STALE_MS = 60_000;

interface LockRecord {
  pid: number;
  hostname: string;
  startedAt: string;
  bootId?: string;
  startTicks?: string;
  token: string;
}

export class DataDirectoryInUseError extends Error {
  override readonly name = 'DataDirectoryInUseError';
  constructor(
    readonly dataDir: string,
    readonly holder: string,
    lockPath: string,
    hint = `If it no longer runs, delete ${lockPath}`,
  ) {
    super(`data directory ${dataDir} is in use by ${holder}: several processes cannot share a PGlite data directory ` + `(use PostgreSQL for that). ${hint}`);
  }
}

export interface DataDirectoryLock {
  readonly path: string;
  /** Removes the lock file if it is still this lock's; idempotent. */
  release(): void;
}

/** Lock file path → token of the locks this process holds. */
const held = new Map<string, { token: string; refresh: NodeJS.Timeout }>();
let exitHookInstalled = false;

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/PID/stat (start time in ticks since boot); undefined off Linux. */
function startTicks(pid: number | 'self'): string | undefined {
  const stat = readOptional(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may contain spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

function bootId(): string | undefined {
  return readOptional('/proc/sys/kernel/random/boot_id');
}

function ownRecord(): LockRecord {
  const record: LockRecord = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    token: randomUUID(),
  };
  const boot = bootId();
  const ticks = startTicks('self');
  if (boot !== undefined) record.bootId = boot;
  if (ticks !== undefined) record.startTicks = ticks;
  return record;
}

function parseRecord(raw: string): LockRecord | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockRecord>;
    if (typeof value.pid === 'number' && typeof value.hostname === 'string' && typeof value.token === 'string') {
      return value as LockRecord;
    }
  } catch {
    // incomplete: judged by its age
  }
  return undefined;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder recorded in `record` if it may still be running; undefined when it is surely gone. */
function liveHolder(record: LockRecord, lockPath: string): { holder: string; hint?: string } | undefined {
  const holder = `pid ${record.pid} on ${record.hostname} (since ${record.startedAt})`;
  if (record.hostname !== hostname()) {
    const age = ageMs(lockPath);
    if (age !== undefined && age > FOREIGN_STALE_MS) return undefined;
    const hint = `That host's lock is taken over ${FOREIGN_STALE_MS / 1000} s after its last refresh, or delete ${lockPath} if that process no longer runs`;
    return { holder, hint };
  }
  if (record.pid === process.pid) return undefined;
  const boot = bootId();
  if (record.bootId !== undefined && boot !== undefined && record.bootId !== boot) return undefined;
  if (!pidAlive(record.pid)) return undefined;
  const ticks = record.startTicks === undefined ? undefined : startTicks(record.pid);
  if (ticks !== undefined && ticks !== record.startTicks) return undefined;
  return { holder };
}

function ageMs(path: string): number | undefined {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

/** Deletes the lock file if it still reads `stale`, under the takeover file. */
function takeOver(dataDir: string, lockPath: string, stale: string): void {
  const guard = join(dataDir, TAKEOVER_FILE);
  try {
    writeFileSync(guard, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    const age = ageMs(guard);
    // Held for a few synchronous file operations only: an old one was left by a crash.
    if (age !== undefined && age > INCOMPLETE_STALE_MS) {
      unlinkSync(guard);
      return;
    }
    throw new DataDirectoryInUseError(dataDir, 'another process starting on it', lockPath);
  }
  try {
    if (readOptional(lockPath) === stale) unlinkSync(lockPath);
  } finally {
    unlinkSync(guard);
  }
}

function releaseAllAtExit(): void {
  for (const [path, { token, refresh }] of held) {
    clearInterval(refresh);
    try {
      if (parseRecord(readFileSync(path, 'utf8'))?.token === token) unlinkSync(path);
    } catch {
      // best effort while exiting
    }
  }
  held.clear();
}

/**
 * Takes the lock of `dataDir` (created if missing), or throws DataDirectoryInUseError naming the
 * process that holds it. Also refuses a second lock of one directory in this process. `refreshMs`
 * is for tests.
 */
export function lockDataDirectory(dataDir: string, { refreshMs = REFRESH_MS }: { refreshMs?: number } = {}): DataDirectoryLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_FILE);
  if (held.has(lockPath)) throw new DataDirectoryInUseError(dataDir, `pid ${process.pid} (this process)`, lockPath);
  const record = ownRecord();
  // A few rounds: a stale lock is deleted in one, created in the next; more means another process
  // keeps winning, and it then holds the directory.
  for (let round = 0; round < 4; round += 1) {
    try {
      writeFileSync(lockPath, `${JSON.stringify(record)}\n`, { flag: 'wx' });
    } catch (error) {
      if (!isCode(error, 'EEXIST')) throw error;
      const raw = readOptional(lockPath);
      if (raw === undefined) continue; // released meanwhile
      const existing = parseRecord(raw);
      if (existing === undefined) {
        const age = ageMs(lockPath);
        if (age !== undefined && age <= INCOMPLETE_STALE_MS) {
          throw new DataDirectoryInUseError(dataDir, 'another process starting on it', lockPath);
        }
      } else {
        const live = liveHolder(existing, lockPath);
        if (live !== undefined) throw new DataDirectoryInUseError(dataDir, live.holder, lockPath, live.hint);
      }
      takeOver(dataDir, lockPath, raw);
      continue;
    }
    const refresh = setInterval(() => {
      const now = new Date();
      try {
        utimesSync(lockPath, now, now);
      } catch {
        // deleted by hand: nothing to refresh
      }
    }, refreshMs);
    refresh.unref();
    held.set(lockPath, { token: record.token, refresh });
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', releaseAllAtExit);
    }
    return {
      path: lockPath,
      release() {
        const entry = held.get(lockPath);
        if (entry?.token !== record.token) return;
        clearInterval(entry.refresh);
        held.delete(lockPath);
        try {
          if (parseRecord(readFileSync(lockPath, 'utf8'))?.token === record.token) unlinkSync(lockPath);
        } catch (error) {
          if (!isCode(error, 'ENOENT')) throw error;
        }
      },
    };
  }
  throw new DataDirectoryInUseError(dataDir, 'another process starting on it', lockPath);
}
