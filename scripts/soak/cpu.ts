/**
 * CPU accounting of the soak run: user + system time of every process of the run, from
 * `/proc/<pid>/stat`, per role. A role is a root process and all its descendants (PostgreSQL's
 * postmaster and its backends, a Node child and anything it spawns). Time of descendants that
 * already exited is included through the parent's `cutime`/`cstime` (a process's reaped children),
 * so short-lived PostgreSQL backends are not lost between two samples.
 *
 * A role whose root process is replaced (a restart) keeps the time of the earlier process up to its
 * last sample: `snapshot()` answers, per role, the sum over every root ever seen of its last value.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = ((): number => {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
    return Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

interface ProcStat {
  comm: string;
  ppid: number;
  /** utime + stime, ticks. */
  own: number;
  /** cutime + cstime (reaped descendants), ticks. */
  reaped: number;
  /** Start time (ticks since boot): tells a reused pid from the process that had it before. */
  start: number;
}

function parseStat(text: string): ProcStat | undefined {
  // Field 2 (comm) is in parentheses and may contain spaces: split after the last ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state): field N is fields[N - 3].
  const at = (n: number): number => Number(fields[n - 3]);
  const comm = text.slice(text.indexOf('(') + 1, close);
  return { comm, ppid: at(4), own: at(14) + at(15), reaped: at(16) + at(17), start: at(22) };
}

function readStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every live process: pid → stat (one pass over /proc). */
function allProcesses(): Map<number, ProcStat> {
  const table = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat !== undefined) table.set(Number(entry), stat);
  }
  return table;
}

/** Busy time of the whole machine (all CPUs), ticks, from /proc/stat: total, and interrupts + steal. */
function machineBusyTicks(): { busy: number; interrupts: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal guest guest_nice
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).map(Number);
  return { busy: user + nice + system + irq + softirq + steal, interrupts: irq + softirq, steal };
}

export interface CpuSnapshot {
  at: number;
  /** role → CPU ms consumed since the meter started (sum over the role's processes). */
  ms: Map<string, number>;
  /** CPU ms of the whole machine (every process, ours or not, interrupts and steal included). */
  machineMs: number;
  /** Of which: hard and soft interrupts (loopback networking is mostly softirq), and steal (hypervisor). */
  interruptMs: number;
  stealMs: number;
  /** Processes outside the run's trees (`pid:start` → command name and CPU ms so far, own + reaped children). */
  others: Map<string, { comm: string; ms: number }>;
}

/** Names the processes of a role's tree (below its root) for a finer split, e.g. PostgreSQL backends by client. */
export type Labeler = (pid: number) => string | undefined;

export class CpuMeter {
  /** role (or role/label) → (pid:start → last value, ticks): the root's whole tree, or one labelled process. */
  private readonly seen = new Map<string, Map<string, number>>();
  /** pid:start → label, fixed at first sight. */
  private readonly labels = new Map<string, string>();
  /** Time measured in-process (this runner, `process.cpuUsage()`), ms. */
  private readonly selfRole: string | undefined;

  constructor(options: { selfRole?: string } = {}) {
    this.selfRole = options.selfRole;
  }

  /**
   * Samples the current roots (`role → root pid`; undefined when the role has no process now) and
   * answers the cumulative CPU time per role.
   */
  sample(roots: ReadonlyMap<string, number | undefined>, labelers: ReadonlyMap<string, Labeler> = new Map()): CpuSnapshot {
    const table = allProcesses();
    const children = new Map<number, number[]>();
    for (const [pid, stat] of table) {
      const list = children.get(stat.ppid);
      if (list === undefined) children.set(stat.ppid, [pid]);
      else list.push(pid);
    }
    const ours = new Set<number>([process.pid]);
    const remember = (role: string, key: string, ticks: number): void => {
      let perKey = this.seen.get(role);
      if (perKey === undefined) this.seen.set(role, (perKey = new Map()));
      perKey.set(key, ticks);
    };
    for (const [role, root] of roots) {
      if (root === undefined) continue;
      const rootStat = table.get(root);
      if (rootStat === undefined) continue;
      const labeler = labelers.get(role);
      let ticks = 0;
      const stack = [root];
      while (stack.length > 0) {
        const pid = stack.pop() as number;
        const stat = table.get(pid);
        if (stat === undefined) continue;
        ours.add(pid);
        ticks += stat.own + stat.reaped;
        if (labeler !== undefined) {
          // Live processes only, each up to its last sample: what exited children used after that
          // (or in all, when they lived between two samples: autovacuum workers, short connections)
          // is in the root's `reaped`, reported as the rest of the role's total.
          const key = `${pid}:${stat.start}`;
          let label = this.labels.get(key);
          if (label === undefined && pid !== root) {
            label = labeler(pid);
            if (label !== undefined) this.labels.set(key, label);
          }
          remember(`${role}/${pid === root ? 'postmaster' : (label ?? 'unlabelled')}`, key, pid === root ? stat.own : stat.own + stat.reaped);
        }
        stack.push(...(children.get(pid) ?? []));
      }
      remember(role, `${root}:${rootStat.start}`, ticks);
    }
    const others = new Map<string, { comm: string; ms: number }>();
    for (const [pid, stat] of table) {
      // A diagnostic: a process's exited children count in its `reaped` (twice, if they were also
      // sampled alive before the window ended: good enough to name who else kept the CPUs busy).
      if (ours.has(pid)) continue;
      others.set(`${pid}:${stat.start}`, { comm: stat.comm, ms: ((stat.own + stat.reaped) * 1000) / TICKS_PER_SECOND });
    }
    const ms = new Map<string, number>();
    for (const [role, perRoot] of this.seen) {
      let ticks = 0;
      for (const value of perRoot.values()) ticks += value;
      ms.set(role, (ticks * 1000) / TICKS_PER_SECOND);
    }
    if (this.selfRole !== undefined) {
      const usage = process.cpuUsage();
      ms.set(this.selfRole, (usage.user + usage.system) / 1000);
    }
    const machine = machineBusyTicks();
    const toMs = (ticks: number): number => (ticks * 1000) / TICKS_PER_SECOND;
    return { at: Date.now(), ms, machineMs: toMs(machine.busy), interruptMs: toMs(machine.interrupts), stealMs: toMs(machine.steal), others };
  }
}

/** CPU ms per role between two snapshots (a role absent from `from` counts from zero). */
export function cpuBetween(from: CpuSnapshot, to: CpuSnapshot): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [role, ms] of to.ms) delta.set(role, Math.max(0, ms - (from.ms.get(role) ?? 0)));
  return delta;
}

/** The busiest processes outside the run between two snapshots, by command name. */
export function othersBetween(from: CpuSnapshot, to: CpuSnapshot, top = 5): { comm: string; ms: number }[] {
  const byComm = new Map<string, number>();
  for (const [key, entry] of to.others) {
    const delta = entry.ms - (from.others.get(key)?.ms ?? 0);
    if (delta > 0) byComm.set(entry.comm, (byComm.get(entry.comm) ?? 0) + delta);
  }
  return [...byComm]
    .map(([comm, ms]) => ({ comm, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}
