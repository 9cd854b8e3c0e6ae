/**
 * A throwaway PostgreSQL cluster that a test can stop and start again on the same port and data
 * directory, as an operator's restart or a crashed server would (testkit's startPostgres removes
 * its cluster when stopped). initdb refuses root: the cluster then runs as the `postgres` user.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@herald/testkit';

export interface StoppablePostgres {
  /** The `postgres` database of the cluster. */
  url: string;
  /** Stops the server (`fast`: sessions, also those inside a transaction, are terminated). */
  stop(): void;
  start(): void;
  /** Stops the server if it runs and removes the cluster. */
  destroy(): void;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function asClusterOwner(command: string, args: string[]): void {
  if (isRoot()) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

export async function startStoppablePostgres(): Promise<StoppablePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-pg-outage-'));
  if (isRoot()) {
    chmodSync(dir, 0o777);
    execFileSync('chown', ['postgres', dir]);
  }
  const port = await freePort();
  asClusterOwner('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  let running = false;
  const start = () => {
    asClusterOwner('pg_ctl', ['-D', dir, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
    running = true;
  };
  const stop = () => {
    asClusterOwner('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy() {
      try {
        if (running) stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
