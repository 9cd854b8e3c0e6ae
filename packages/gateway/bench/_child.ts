import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Node flags for the server child only, e.g. `BENCH_SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`
 * to profile the server under the bench's load (Node refuses `--cpu-prof` in NODE_OPTIONS).
 */
const serverFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');

/**
 * The Node flags the container image runs the gateway with (its `herald` wrapper in the Dockerfile),
 * so that Herald on PostgreSQL is measured as it is deployed. `npm start` (PGlite) runs without them.
 */
export function containerNodeFlags(): string[] {
  const dockerfile = readFileSync(resolve(import.meta.dirname, '../../../Dockerfile'), 'utf8');
  const wrapper = /exec node (.*?)\s*\/app\/packages\/gateway\/dist\/cli\/main\.js/.exec(dockerfile);
  if (wrapper === null) throw new Error('Dockerfile: the herald wrapper line was not found');
  return wrapper[1]!.split(' ').filter((flag) => flag !== '');
}

/** Starts `tsx <script> <args>` and resolves with the first line it prints (its URL). */
export async function startChild(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeFlags: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  // node itself (not npx) so that killing the child stops the server, with tsx as a loader.
  const child = spawn(process.execPath, [...nodeFlags, ...serverFlags, '--import', 'tsx', '--conditions=@herald/source', script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url: url.trim(), child };
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
