import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import type { RunningService } from './postgres.js';

export function redisAvailable(): boolean {
  return spawnSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' }).status === 0;
}

/** Starts a throwaway, non-persistent redis-server on a loopback port. */
export async function startRedis(): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-redis-'));
  const port = await freePort();
  const pidFile = join(dir, 'redis.pid');
  execFileSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
    '--pidfile',
    pidFile,
    '--dir',
    dir,
  ]);
  // --daemonize returns before the pid file is written; wait until it answers.
  for (let attempt = 0; attempt < 100; attempt++) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' })
        .stdout?.toString()
        .includes('PONG')
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      try {
        const pid = Number(readFileSync(pidFile, 'utf8').trim());
        if (pid > 0) process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
