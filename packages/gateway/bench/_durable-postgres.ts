/**
 * A throwaway PostgreSQL cluster with the server's default durability (fsync, synchronous_commit
 * and full_page_writes on), for the durable rows of issue 30: testkit's startPostgres turns all
 * three off, which suits tests but flatters writes.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@herald/testkit';

export interface DurablePostgres {
  url: string;
  /** The postmaster's pid, to measure the cluster's memory. */
  pid: number;
  stop(): void;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** initdb refuses to run as root: run the cluster as the `postgres` user when we are root. */
function asClusterOwner(command: string, args: string[]): void {
  if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

export async function startDurablePostgres(): Promise<DurablePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-pg-'));
  if (isRoot) {
    chmodSync(dir, 0o777);
    execFileSync('chown', ['postgres', dir]);
  }
  const port = await freePort();
  asClusterOwner('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres']);
  // BENCH_PG_STATEMENTS=1 loads pg_stat_statements (statements per write, their time and WAL bytes).
  const statements = process.env.BENCH_PG_STATEMENTS === '1' ? ' -c shared_preload_libraries=pg_stat_statements' : '';
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on -c full_page_writes=on -c max_connections=300${statements}`;
  asClusterOwner('pg_ctl', ['-D', dir, '-o', settings, '-l', join(dir, 'server.log'), '-w', 'start']);
  const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid,
    stop() {
      try {
        asClusterOwner('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
