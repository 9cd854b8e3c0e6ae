import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const PACKAGE_DIR = resolve(import.meta.dirname, '../..');
const MAIN = resolve(PACKAGE_DIR, 'src/worker/main.ts');

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves when the worker logged that it listens (its loops are running). */
  readonly ready: Promise<{ port: number }>;
  /** Resolves with the exit code (or the signal that ended it). */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** Lines the worker wrote to stderr, for failure messages. */
  readonly stderr: string[];
}

/**
 * Runs the real `herald-delivery` entry point (src/worker/main.ts through tsx, with the workspace's
 * source condition) as a child process, configured only through its environment. `nodeFlags` go to
 * node itself (benches: `--cpu-prof`).
 */
export function spawnWorker(env: Record<string, string>, nodeFlags: readonly string[] = []): WorkerProcess {
  const child = spawn(process.execPath, [...nodeFlags, '--conditions=@herald/source', '--import', 'tsx', MAIN], {
    cwd: PACKAGE_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      PORT: '0',
      HERALD_DELIVERY_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | NodeJS.Signals>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  const ready = new Promise<{ port: number }>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg?.includes('listening') === true && typeof entry.port === 'number') done({ port: entry.port });
      } catch {
        // not a log line
      }
    });
    void exited.then((code) => fail(new Error(`worker exited (${code}) before it was ready:\n${stderr.join('\n')}`)));
  });
  return { child, pid: child.pid ?? -1, ready, exited, stderr };
}
