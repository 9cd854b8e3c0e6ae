/**
 * `npm run bench [filter]`: runs every benchmark script (`packages/<pkg>/bench/*.ts`) one after
 * another on this machine, with PostgreSQL and Redis as for the tests, and writes
 * docs/benchmarks.md: each script prints its own markdown section; this adds machine and date.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureServices } from './services.js';

const root = resolve(import.meta.dirname, '..');
const filter = process.argv[2];

/** Every benchmark, in the order they run (issue numbers in their own headings). */
const BENCHMARKS = [
  'packages/gateway/bench/http-reads.ts',
  'packages/gateway/bench/oauth.ts',
  'packages/gateway/bench/extension-overhead.ts',
  'packages/gateway/bench/catalogue.ts',
  'packages/delivery/bench/format.ts',
  'packages/delivery/bench/sqs-adapter.ts',
  'packages/delivery/bench/engine-throughput.ts',
  'packages/delivery/bench/idle-claims.ts',
  'packages/delivery/bench/recovery.ts',
  'packages/consumer/bench/parse.bench.ts',
  'packages/consumer/bench/pipeline.bench.ts',
];

function benchScripts(): string[] {
  return BENCHMARKS.filter((script) => existsSync(join(root, script)) && (filter === undefined || script.includes(filter)));
}

const services = await ensureServices((line) => console.error(`[bench] ${line}`));
const sections: string[] = [];
try {
  for (const script of benchScripts()) {
    console.error(`[bench] ${script}`);
    const run = spawnSync('npx', ['tsx', '--conditions=@herald/source', script], {
      cwd: root,
      env: services.env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (run.status !== 0) {
      console.error(run.stderr);
      sections.push(`## ${script}\n\nFailed (exit ${run.status}); see the console output of \`npm run bench\`.\n`);
      continue;
    }
    const output = run.stdout.trim();
    sections.push(`${output.startsWith('## ') ? output : `## ${script}\n\n${output}`}\n`);
  }
} finally {
  await services.stop();
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const header = `# Benchmarks

Measured by \`npm run bench\` (scripts in \`packages/*/bench/\`), all in one run.

- Date: ${new Date().toISOString().slice(0, 10)}
- Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}
- PostgreSQL 15 (fsync off, throwaway cluster) and redis-server on loopback; all traffic stays on 127.0.0.1.

Figures are throughput and latency on a shared 2-core machine: compare rows measured in the same run,
not across runs.
`;
if (filter === undefined) {
  writeFileSync(join(root, 'docs', 'benchmarks.md'), `${header}\n${sections.join('\n')}`);
  console.error('[bench] wrote docs/benchmarks.md');
} else {
  process.stdout.write(sections.join('\n'));
}
