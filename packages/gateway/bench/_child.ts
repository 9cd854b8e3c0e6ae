import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Node flags for the server child only, e.g. `BENCH_SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`
 * to profile the server under the bench's load (Node refuses `--cpu-prof` in NODE_OPTIONS).
 */
const serverFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');

/** Starts `tsx <script> <args>` and resolves with the first line it prints (its URL). */
export async function startChild(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  // node itself (not npx) so that killing the child stops the server, with tsx as a loader.
  const child = spawn(process.execPath, [...serverFlags, '--import', 'tsx', '--conditions=@herald/source', script, ...args], {
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
