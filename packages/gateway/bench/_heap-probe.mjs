/**
 * Preloaded into a server the bench runs without tsx (`node --import <this file> …`): on SIGUSR2
 * it writes process.memoryUsage() and V8's heap spaces, as JSON, to the file named by
 * BENCH_HEAP_PROBE_FILE. Plain JavaScript, so that the measured process loads nothing more.
 * Under `--expose-gc` it also writes the heap used after a full collection (`usedAfterGc`): what
 * is live, as against garbage V8 has not collected yet.
 */
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

const file = process.env.BENCH_HEAP_PROBE_FILE;
const snapshots = process.env.BENCH_HEAP_PROBE_SNAPSHOTS;
if (file !== undefined) {
  process.on('SIGUSR2', () => {
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]));
    const usage = process.memoryUsage();
    globalThis.gc?.();
    const usedAfterGc = globalThis.gc === undefined ? undefined : process.memoryUsage().heapUsed;
    if (snapshots !== undefined) writeHeapSnapshot(`${snapshots}/${Date.now()}.heapsnapshot`);
    writeFileSync(file, JSON.stringify({ usage, spaces, usedAfterGc }));
  });
}
