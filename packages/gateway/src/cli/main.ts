#!/usr/bin/env node
// `npm start` (the root package.json) runs this file as
//   node --heap-growing-percent=50 packages/gateway/dist/cli/main.js serve
// for the memory of the embedded default, PGlite in this process (issue 30, docs/benchmarks.md
// "PGlite's memory"): under a stream of writes V8 otherwise lets its old generation grow to up
// to 4 times what was live after the last full collection (a live heap of ~40 MiB stood at
// 100-170 MiB, all of it garbage). Growth by half of what is live keeps RSS 35-63 MiB lower after
// 100,000 stores, peak ~120 MiB lower, at request rates equal within this host's noise. A flag of
// the node command line applies from the first allocation, on every platform npm runs on; a
// `herald serve` started otherwise runs with Node's defaults.

// Caught before anything else is loaded: a SIGTERM while the modules load, or while `herald serve`
// starts, stops the process cleanly instead of killing it (see stop-signals.ts).
import { StopSignals } from './stop-signals.js';

const signals = new StopSignals();

// The AWS SDK warns once per process on Node 20; Herald supports Node >= 20.19 on purpose, and the
// SDKs are imported lazily, after this line.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { ConfigurationError } = await import('@herald/model');
const { DatabaseUnavailableError, DataDirectoryInUseError } = await import('@herald/store');
const { runCli } = await import('./commands.js');

// The entry point: the only place that reads process.env and decides the exit code.
try {
  const code = await runCli(process.argv.slice(2), process.env, signals);
  if (code !== undefined) process.exitCode = code;
} catch (error) {
  if (error instanceof ConfigurationError) {
    process.stderr.write(`herald: ${error.message}\n`);
    process.exitCode = 2;
  } else if (error instanceof DatabaseUnavailableError || error instanceof DataDirectoryInUseError) {
    // Their messages name the database and the cause; a stack trace would add nothing.
    process.stderr.write(`herald: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
