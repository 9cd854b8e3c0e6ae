import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts `tsx <script> <args>` and resolves with the first line it prints (its URL). */
export async function startChild(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  // node itself (not npx) so that killing the child stops the server, with tsx as a loader.
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@herald/source', script, ...args], {
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
