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

// --- the split of one process's memory ----------------------------------------------------------

/**
 * Where a process's resident memory is, read from /proc/<pid>/smaps and V8: the WebAssembly
 * memories (PGlite's PostgreSQL heap, shared buffers and caches), files mapped from disk (node's
 * own code, shared libraries) and the rest (the V8 heap and native allocations: malloc, compiled
 * WebAssembly and JavaScript code, buffers outside the heap). All figures in MiB.
 */
export interface MemorySplit {
  rss: number;
  /** VmHWM: the highest RSS the process has had. */
  peakRss: number;
  heapUsed: number;
  heapTotal: number;
  /** V8 external memory: includes the WebAssembly memories and arrayBuffers. */
  external: number;
  arrayBuffers: number;
  /** The WebAssembly memories' accessible size (their `buffer.byteLength`) and resident part. */
  wasmBytes: number;
  wasmRss: number;
  fileRss: number;
  /** RSS - wasm - file-backed: the V8 heap and native allocations. */
  otherAnonRss: number;
}

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  rssKiB: number;
}

const BYTES_PER_MIB = 1024 * 1024;
/** V8 reserves every 32-bit WebAssembly memory as 8 GiB plus guard pages; nothing else is that large. */
const WASM_RESERVATION = 4n * 1024n * 1024n * 1024n;

function mappings(pid: number): Mapping[] {
  const result: Mapping[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = line.match(/^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/);
    if (head !== null) {
      result.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3]!, path: head[4] ?? '', rssKiB: 0 });
      continue;
    }
    const rss = line.match(/^Rss:\s+(\d+) kB/);
    if (rss !== null) result.at(-1)!.rssKiB = Number(rss[1]);
  }
  return result;
}

function statusKiB(pid: number, field: string): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return match === null ? Number.NaN : Number(match[1]);
}

/**
 * A WebAssembly memory is the accessible (rw) part at the start of a reservation whose rest is an
 * inaccessible guard region: the rw mapping that ends where a huge `---p` mapping starts.
 */
function wasmMemories(all: Mapping[]): Mapping[] {
  const guards = all.filter((m) => m.perms.startsWith('---') && m.path === '' && m.end - m.start >= WASM_RESERVATION);
  return all.filter((m) => m.perms.startsWith('rw') && m.path === '' && guards.some((guard) => guard.start === m.end));
}

/** The split of process `pid`, whose `process.memoryUsage()` (asked of it at the same time) is `usage`. */
export function memorySplit(pid: number, usage: NodeJS.MemoryUsage): MemorySplit {
  const all = mappings(pid);
  const wasm = wasmMemories(all);
  const rss = statusKiB(pid, 'VmRSS') / 1024;
  const wasmRss = wasm.reduce((sum, m) => sum + m.rssKiB, 0) / 1024;
  const fileRss = all.filter((m) => m.path.startsWith('/')).reduce((sum, m) => sum + m.rssKiB, 0) / 1024;
  return {
    rss,
    peakRss: statusKiB(pid, 'VmHWM') / 1024,
    heapUsed: usage.heapUsed / BYTES_PER_MIB,
    heapTotal: usage.heapTotal / BYTES_PER_MIB,
    external: usage.external / BYTES_PER_MIB,
    arrayBuffers: usage.arrayBuffers / BYTES_PER_MIB,
    wasmBytes: wasm.reduce((sum, m) => sum + Number(m.end - m.start), 0) / BYTES_PER_MIB,
    wasmRss,
    fileRss,
    otherAnonRss: rss - wasmRss - fileRss,
  };
}
