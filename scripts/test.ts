/**
 * `npm test`: every package's tests through turbo, against PostgreSQL and Redis — the ones named by
 * DATABASE_URL / REDIS_URL (CI sets them), or throwaway ones started here and stopped afterwards.
 */
import { spawn } from 'node:child_process';
import { ensureServices } from './services.js';

const services = await ensureServices((line) => console.log(`[test] ${line}`));
let exitCode = 1;
try {
  // --continue: every package runs and reports, even after one fails.
  const args = ['turbo', 'run', 'test', '--concurrency=1', '--continue', '--log-order=stream', ...process.argv.slice(2)];
  const child = spawn('npx', args, { stdio: 'inherit', env: services.env });
  exitCode = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
} finally {
  await services.stop();
}
process.exit(exitCode);
