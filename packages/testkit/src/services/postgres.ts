import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function postgresAvailable(): boolean {
  return hasCommand('initdb') && hasCommand('pg_ctl');
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** initdb refuses to run as root: run the cluster as the `postgres` user when we are root. */
function asClusterOwner(command: string, args: string[]): void {
  if (isRoot()) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

/**
 * Starts a throwaway PostgreSQL cluster on a loopback port (fsync off: test data only).
 * Returns a URL for the `postgres` database and a stop function that removes the cluster.
 */
export async function startPostgres(): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-pg-'));
  if (isRoot()) {
    chmodSync(dir, 0o777);
    execFileSync('chown', ['postgres', dir]);
  }
  const port = await freePort();
  asClusterOwner('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  asClusterOwner('pg_ctl', [
    '-D',
    dir,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
    '-l',
    join(dir, 'server.log'),
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        asClusterOwner('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
