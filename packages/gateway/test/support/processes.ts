/**
 * Runs the real entry points (`herald` and `herald-delivery`, through tsx on the TypeScript
 * sources, as test/cli/cli.test.ts does) as child processes configured only by their environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const GATEWAY_MAIN = resolve(import.meta.dirname, '../../src/cli/main.ts');
const WORKER_MAIN = resolve(import.meta.dirname, '../../../delivery/src/worker/main.ts');

export interface HeraldProcess {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with [exit code, signal]. */
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Resolves when stdout contains `text`; rejects if the process exits first. */
  waitFor(text: string): Promise<void>;
  /** Exit within `ms`, or undefined (the process is then killed with SIGKILL). */
  exitWithin(ms: number): Promise<[number | null, NodeJS.Signals | null] | undefined>;
}

/** tsx's loader by path, so that a process started in another working directory finds it. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function run(main: string, args: string[], env: Record<string, string>, cwd = resolve(import.meta.dirname, '../..')): HeraldProcess {
  const child = spawn(process.execPath, ['--import', TSX, '--conditions=@herald/source', main, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      METADATA_SERVER_DETECTION: 'none',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('exit', (code, signal) => done([code, signal])));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (text) =>
      new Promise<void>((done, fail) => {
        const timer = setInterval(() => {
          if (out.includes(text)) {
            clearInterval(timer);
            done();
          }
        }, 50);
        void exited.then(([code, signal]) => {
          clearInterval(timer);
          fail(new Error(`exited (${code ?? signal}) before "${text}":\n${out}\n${err}`));
        });
      }),
    exitWithin: async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([exited, new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), ms)))]);
      clearTimeout(timer);
      if (result === undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return result;
    },
  };
}

export const herald = (args: string[], env: Record<string, string>, cwd?: string): HeraldProcess => run(GATEWAY_MAIN, args, env, cwd);
export const heraldDelivery = (env: Record<string, string>, args: string[] = [], cwd?: string): HeraldProcess => run(WORKER_MAIN, args, env, cwd);

/** Kills a process that is still running (afterEach/afterAll clean-up). */
export function killIfRunning(process: HeraldProcess | undefined): void {
  if (process !== undefined && process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
}
