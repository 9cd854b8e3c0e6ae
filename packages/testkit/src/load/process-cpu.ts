/**
 * CPU time of benchmark processes, read from /proc (Linux): which side of a request costs what.
 * The gateway's and the delivery engine's benches share it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** utime + stime of one process in ms, or undefined once it has exited. */
function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * TICK_MS;
  } catch {
    return undefined;
  }
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there is no child
  }
}

/** The parent of a process (a PostgreSQL backend's is the postmaster), from /proc. */
export function parentPid(pid: number): number | undefined {
  try {
    const line = /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line === null ? undefined : Number(line[1]);
  } catch {
    return undefined;
  }
}

/** CPU ms per process: one process, or a process and its children (a PostgreSQL cluster). */
export type CpuSource = () => Map<number, number>;

/** A fixed set of processes (a server, PostgreSQL backends, workers); one that exits drops out. */
export const processesCpu =
  (pids: readonly number[]): CpuSource =>
  () => {
    const spent = new Map<number, number>();
    for (const pid of pids) {
      const ms = processCpuMs(pid);
      if (ms !== undefined) spent.set(pid, ms);
    }
    return spent;
  };

/** A process and its children as they are at each reading (a PostgreSQL cluster's postmaster and backends). */
export const treeCpu =
  (rootPid: number): CpuSource =>
  () =>
    processesCpu([rootPid, ...childPids(rootPid)])();

/** This process (the bench's client), through Node. */
export const ownCpu: CpuSource = () => {
  const usage = process.cpuUsage();
  return new Map([[process.pid, (usage.user + usage.system) / 1000]]);
};

/** What each source has spent so far, per process: the start of a measure (`cpuSince`). */
export type CpuSnapshot<K extends string> = Record<K, Map<number, number>>;

export function cpuSnapshot<K extends string>(sources: Record<K, CpuSource>): CpuSnapshot<K> {
  const snapshot = {} as CpuSnapshot<K>;
  for (const key of Object.keys(sources) as K[]) snapshot[key] = sources[key]();
  return snapshot;
}

/**
 * CPU ms each source spent since `start`. A process that appeared meanwhile (a new pool
 * connection's backend) counts from zero; one that exited drops out (its last ticks are lost).
 */
export function cpuSince<K extends string>(sources: Record<K, CpuSource>, start: CpuSnapshot<K>): Record<K, number> {
  const spent = {} as Record<K, number>;
  for (const key of Object.keys(sources) as K[]) {
    let sum = 0;
    for (const [pid, ms] of sources[key]()) sum += ms - (start[key].get(pid) ?? 0);
    spent[key] = sum;
  }
  return spent;
}

/** CPU ms each source spent while `work` ran (see `cpuSince`). */
export async function cpuDuring<K extends string>(sources: Record<K, CpuSource>, work: () => Promise<void>): Promise<Record<K, number>> {
  const start = cpuSnapshot(sources);
  await work();
  return cpuSince(sources, start);
}
