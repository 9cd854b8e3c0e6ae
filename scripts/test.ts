/**
 * `npm test`: the dependency checks (.dependency-cruiser.cjs), then every package's tests through
 * turbo, against PostgreSQL and Redis — the ones named by DATABASE_URL / REDIS_URL (CI sets them),
 * or throwaway ones started here and stopped afterwards. Ends with one summary line over all
 * packages: `tests: N passed, N failed, N skipped`; a failed dependency check fails the run too.
 */
import { spawn, spawnSync } from 'node:child_process';
import { ensureServices } from './services.js';

/**
 * Sums vitest's per-package summary lines (`Tests  1 failed | 435 passed | 3 skipped (439)`) and
 * keeps the names of failed tests (`FAIL  test/x.test.ts > suite > name`), repeated after the summary
 * so they are in the last lines of a long log.
 */
class TestTally {
  passed = 0;
  failed = 0;
  skipped = 0;
  readonly failures = new Set<string>();
  private pending = '';

  feed(chunk: string): void {
    const lines = (this.pending + chunk).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  finish(): void {
    this.line(this.pending);
  }

  private line(raw: string): void {
    // eslint-disable-next-line no-control-regex
    const line = raw.replace(/\u001b\[[0-9;]*m/g, '');
    const packageName = /^(@herald\/\w+):test:/.exec(line)?.[1] ?? '';
    const text = line.replace(/^@herald\/\w+:test:\s*/, '');
    const failure = /^\s*FAIL\s+(.+)$/.exec(text);
    if (failure) this.failures.add(`${packageName} ${failure[1]?.trim()}`.trim());
    if (!/^\S*:?\s*Tests\s+\d/.test(text)) return;
    for (const [, count, kind] of line.matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
      if (kind === 'passed') this.passed += Number(count);
      else if (kind === 'failed') this.failed += Number(count);
      else this.skipped += Number(count);
    }
  }
}

/**
 * Undeclared imports, shipped code importing devDependencies, and dependencies against the
 * direction of ARCHITECTURE.md fail the run (issue 26 point 5); there is no list of tolerated
 * violations. Returns whether the check passed.
 */
function checkDependencies(): boolean {
  const args = ['depcruise', 'packages', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'];
  const run = spawnSync('npx', args, { stdio: 'inherit' });
  if (run.status !== 0) console.log('dependency check FAILED: see the violations above (rules in .dependency-cruiser.cjs)');
  return run.status === 0;
}

const startedAt = Date.now();
const dependenciesChecked = checkDependencies();
const services = await ensureServices((line) => console.log(`[test] ${line}`));
const tally = new TestTally();
let exitCode = 1;
try {
  // --continue: every package runs and reports, even after one fails.
  const args = ['turbo', 'run', 'test', '--concurrency=1', '--continue', '--log-order=stream', ...process.argv.slice(2)];
  const child = spawn('npx', args, { stdio: ['inherit', 'pipe', 'inherit'], env: services.env });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    process.stdout.write(chunk);
    tally.feed(chunk);
  });
  exitCode = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
} finally {
  await services.stop();
}
tally.finish();
// Before the summary line, which must stay last (CI reads the closing line).
console.log(`[test] ${Math.round((Date.now() - startedAt) / 1000)} s on Node ${process.versions.node}`);
for (const failure of tally.failures) console.log(`failed: ${failure}`);
if (!dependenciesChecked) console.log('failed: the dependency check (npx depcruise packages --config .dependency-cruiser.cjs)');
console.log(`tests: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`);
process.exit(dependenciesChecked ? exitCode : exitCode || 1);
