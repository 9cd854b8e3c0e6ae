/**
 * PostgreSQL and Redis for the soak run, started so that they can be restarted in place (same data
 * directory, same port) while the rest keeps running: the fault scenarios need exactly that, which
 * the testkit's throwaway services do not offer.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function asClusterOwner(command: string, args: string[]): void {
  if (isRoot()) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

export interface Postgres {
  url: string;
  /** The postmaster's pid (its backends are its children), -1 when it is not running. */
  pid(): number;
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back when it resolves. */
  restart(): void;
  /**
   * `pg_ctl stop -m immediate`: the postmaster and its backends quit at once, without a checkpoint,
   * as in a crash; `start()` then runs crash recovery from the WAL.
   */
  crash(): void;
  start(): void;
  stop(): void;
}

export interface PostgresOptions {
  /** Load pg_stat_statements (`CREATE EXTENSION pg_stat_statements` is left to the caller). */
  statStatements?: boolean;
  /**
   * `synchronous_commit = on` (default off, for throughput). Off acknowledges a commit before its
   * WAL leaves PostgreSQL's memory, so a crash of the server may lose the last acknowledged
   * transactions by design (PostgreSQL docs, "Asynchronous Commit"): the crash scenario needs it on
   * to measure Herald, not that setting. fsync stays off: a killed server's writes are in the page
   * cache, which only an operating system crash would lose.
   */
  synchronousCommit?: boolean;
}

export async function startPostgres(runDir: string, options: PostgresOptions = {}): Promise<Postgres> {
  const dir = join(runDir, 'pg');
  mkdirSync(dir);
  if (isRoot()) {
    chmodSync(runDir, 0o777);
    chmodSync(dir, 0o700);
    execFileSync('chown', ['postgres', dir]);
  }
  const port = await freePort();
  asClusterOwner('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // autovacuum_naptime 15 s (default 1 min): the cluster starts empty, without planner statistics.
  // The store's lookups of one resource no longer depend on them (store migration 005), but other
  // statements' plans still settle only after the first autoanalyze; a long-lived database has
  // statistics, and a soak of a minute should not measure only its first minute.
  const serverOptions =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300` +
    ` -c synchronous_commit=${options.synchronousCommit === true ? 'on' : 'off'}` +
    ' -c autovacuum_naptime=15s' +
    (options.statStatements === true ? ' -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all' : '');
  const start = (): void => asClusterOwner('pg_ctl', ['-D', dir, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid() {
      try {
        return Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return -1;
      }
    },
    restart() {
      asClusterOwner('pg_ctl', ['-D', dir, '-m', 'fast', '-l', join(dir, 'server.log'), '-w', 'restart']);
    },
    crash() {
      asClusterOwner('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
    },
    start,
    stop() {
      try {
        asClusterOwner('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    },
  };
}

export interface RedisServer {
  url: string;
  port: number;
  pid(): number;
  /** SHUTDOWN (the append-only file is fsynced on every write, so nothing is lost), then start again. */
  restart(downMs: number): Promise<void>;
  stop(): void;
}

export async function startRedisServer(runDir: string): Promise<RedisServer> {
  const dir = join(runDir, 'redis');
  mkdirSync(dir);
  const port = await freePort();
  const pidFile = join(dir, 'redis.pid');
  const start = async (): Promise<void> => {
    execFileSync('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--daemonize',
      'yes',
      '--pidfile',
      pidFile,
      '--dir',
      dir,
      '--logfile',
      join(dir, 'redis.log'),
    ]);
    for (let attempt = 0; attempt < 200; attempt++) {
      if (
        spawnSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' })
          .stdout?.toString()
          .includes('PONG')
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('redis-server did not answer');
  };
  const shutdown = (): void => {
    spawnSync('redis-cli', ['-p', String(port), 'shutdown'], { stdio: 'pipe' });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => {
      try {
        return Number(readFileSync(pidFile, 'utf8').trim());
      } catch {
        return -1;
      }
    },
    async restart(downMs) {
      shutdown();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    stop: shutdown,
  };
}
