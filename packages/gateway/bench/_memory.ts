/** Memory of benchmark servers, read from /proc (Linux). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MIB = 1024;

/** Resident set of one process in MiB (VmRSS), or NaN where /proc cannot tell. */
export function rssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line === null ? Number.NaN : Number(line[1]) / MIB;
  } catch {
    return Number.NaN;
  }
}

/** Proportional set size in MiB: shared pages (PostgreSQL's shared buffers) counted once across processes. */
function pssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
    return line === null ? 0 : Number(line[1]) / MIB;
  } catch {
    return 0;
  }
}

/** A PostgreSQL cluster's memory: the postmaster and its backends, by PSS. */
export function clusterPssMiB(postmasterPid: number): number {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(postmasterPid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // pgrep exits 1 when there is no child.
  }
  return [postmasterPid, ...children].reduce((sum, pid) => sum + pssMiB(pid), 0);
}
